import { Check, Copy } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import { Button } from '../../../../components/ui/button';
import { Card, CardHeader } from '../../../../components/ui/card';
import { cx } from '../../../../components/ui/cx';
import { controlClass } from '../../../../components/ui/field';
import { copyText } from '../../../../lib/clipboard';
import { notify } from '../../../../lib/notify';

/**
 * A milestone's release notes (api.md "Milestones"): Markdown of its closed bugs by label, to read
 * and copy. Where the clipboard is refused the text is selected for Ctrl+C.
 */
export function ReleaseNotes({ text, className }: { text: string; className?: string }) {
  const id = useId();
  const box = useRef<HTMLTextAreaElement>(null);
  const [isCopied, setCopied] = useState(false);
  const [hint, setHint] = useState('');
  const copy = async () => {
    if (await copyText(text)) {
      setHint('');
      setCopied(true);
      setTimeout(() => setCopied(false), 2000);
      notify.success('Release notes copied');
      return;
    }
    box.current?.focus();
    box.current?.select();
    setHint('Selected: press Ctrl+C (⌘C on a Mac) to copy.');
  };
  const rows = Math.min(18, Math.max(5, text.split('\n').length + 1));
  return (
    <Card className={cx('min-w-0', className)}>
      <CardHeader
        title="Release notes"
        subtitle="Markdown: the closed bugs, by label."
        action={
          <Button
            variant="secondary"
            size="sm"
            onClick={copy}
            icon={
              isCopied ? (
                <Check className="size-4" aria-hidden="true" />
              ) : (
                <Copy className="size-4" aria-hidden="true" />
              )
            }
          >
            {isCopied ? 'Copied' : 'Copy'}
          </Button>
        }
      />
      <div className="space-y-1.5 p-5">
        <label htmlFor={id} className="sr-only">
          Release notes (Markdown)
        </label>
        <textarea
          ref={box}
          id={id}
          readOnly
          value={text}
          rows={rows}
          spellCheck={false}
          aria-describedby={hint ? `${id}-hint` : undefined}
          className={cx(controlClass(), 'resize-y bg-slate-50 py-2 font-mono text-xs leading-5')}
        />
        {hint ? (
          <p id={`${id}-hint`} role="status" className="text-xs text-slate-500">
            {hint}
          </p>
        ) : null}
      </div>
    </Card>
  );
}
