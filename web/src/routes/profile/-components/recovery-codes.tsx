import { CheckCircle2, Copy, Download } from 'lucide-react';
import { Button } from '../../../components/ui/button';
import { copyText } from '../../../lib/clipboard';
import { notify } from '../../../lib/notify';

/** The ten recovery codes, shown this once (the server keeps only their hashes). */
export function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const asText = `Bugtrail recovery codes\nEach code works once.\n\n${codes.join('\n')}\n`;

  const copy = async () => {
    if (await copyText(codes.join('\n'))) notify.success('Recovery codes copied');
    else notify.error('Could not copy. Please select the codes and copy them by hand');
  };

  const download = () => {
    const url = URL.createObjectURL(new Blob([asText], { type: 'text/plain' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = 'bugtrail-recovery-codes.txt';
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };

  return (
    <div className="space-y-5">
      <div
        role="status"
        className="flex items-start gap-3 rounded-lg border border-lime-200 bg-lime-50 px-4 py-3 text-sm text-lime-900"
      >
        <CheckCircle2 className="mt-0.5 size-5 shrink-0 text-lime-600" />
        <p>
          <span className="font-semibold">Two-factor authentication is on.</span> From now on, signing in asks for a
          code from your app.
        </p>
      </div>
      <div>
        <h3 className="text-sm font-semibold text-slate-900">Save your recovery codes</h3>
        <p className="mt-1 text-sm text-slate-600">
          If you lose your phone, each code signs you in once. They are shown only now: keep them somewhere safe, such
          as a password manager.
        </p>
      </div>
      <ol
        aria-label="Recovery codes"
        className="grid grid-cols-2 gap-2 rounded-xl border border-slate-200 bg-slate-50 p-4 font-mono text-sm text-slate-900 sm:grid-cols-2 sm:gap-x-8 sm:px-6"
      >
        {codes.map((code) => (
          <li key={code} className="tracking-wider">
            {code}
          </li>
        ))}
      </ol>
      <div className="flex flex-wrap gap-2">
        <Button variant="secondary" onClick={copy} icon={<Copy className="size-4" />}>
          Copy codes
        </Button>
        <Button variant="secondary" onClick={download} icon={<Download className="size-4" />}>
          Download
        </Button>
        <Button onClick={onDone} className="sm:ml-auto">
          I've saved my codes
        </Button>
      </div>
    </div>
  );
}
