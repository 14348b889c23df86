import { Check, Copy } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/field';
import { ApiError, messageOf } from '../../../lib/api';
import { copyText } from '../../../lib/clipboard';
import { mfaServerMessages } from '../../-components/mfa';
import { type MfaSetup, useEnableMfa } from './mfa-api';
import { QrCode } from './qr-code';

const fallback = 'Could not turn on two-factor authentication. Please try again';

/** The secret in groups of four, as apps that take it by hand show it. */
export const groupedSecret = (secret: string) => secret.match(/.{1,4}/g)?.join(' ') ?? secret;

/** Scan (or type) the pending secret, then prove it with a first code. */
export function MfaSetupPanel({
  setup,
  onEnabled,
  onCancel,
  onAlreadyEnabled,
}: {
  setup: MfaSetup;
  onEnabled: (recoveryCodes: string[]) => void;
  onCancel: () => void;
  onAlreadyEnabled: () => void;
}) {
  const enable = useEnableMfa();
  const [code, setCode] = useState('');
  const [error, setError] = useState('');
  const [isCopied, setCopied] = useState(false);

  const copySecret = async () => {
    if (await copyText(setup.secret)) {
      setCopied(true);
      setTimeout(() => setCopied(false), 2000);
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const typed = code.replace(/\s+/g, '');
    if (!/^\d{6}$/.test(typed)) {
      setError('Enter the 6-digit code your app shows');
      return;
    }
    enable.mutate(typed, {
      onSuccess: (answer) => onEnabled(answer.recoveryCodes),
      onError: (failure) => {
        const message = messageOf(failure, fallback);
        if (failure instanceof ApiError && failure.status === 409 && message === mfaServerMessages.alreadyEnabled) {
          onAlreadyEnabled();
          return;
        }
        setError(message);
        setCode('');
      },
    });
  };

  return (
    <ol className="space-y-8">
      <li>
        <StepTitle number={1}>Scan this QR code with your authenticator app</StepTitle>
        <div className="mt-4 flex flex-col items-center gap-5 sm:flex-row sm:items-start">
          <QrCode value={setup.otpauthUrl} label="QR code for your authenticator app" />
          <div className="w-full min-w-0 space-y-3 text-sm text-slate-600 sm:flex-1">
            <p>
              Google Authenticator, Microsoft Authenticator, 1Password, Authy and most password managers can read it.
            </p>
            <figure className="space-y-3">
              <figcaption>Can't scan it? Choose to enter a setup key in the app and type this key:</figcaption>
              <code className="block rounded-lg border border-slate-200 bg-slate-50 px-3 py-2 font-mono text-sm font-semibold tracking-wider break-words text-slate-900">
                {groupedSecret(setup.secret)}
              </code>
              <Button
                variant="secondary"
                size="sm"
                onClick={copySecret}
                icon={isCopied ? <Check className="size-4 text-lime-600" /> : <Copy className="size-4" />}
              >
                {isCopied ? 'Copied' : 'Copy key'}
              </Button>
            </figure>
          </div>
        </div>
      </li>
      <li>
        <StepTitle number={2}>Enter the 6-digit code the app shows</StepTitle>
        <form onSubmit={submit} noValidate className="mt-4 flex flex-col gap-3 sm:flex-row sm:items-start">
          <TextField
            label="Authentication code"
            name="code"
            inputMode="numeric"
            autoComplete="one-time-code"
            placeholder="123456"
            maxLength={7}
            wrapperClassName="sm:w-56"
            className="font-mono tracking-[0.3em]"
            value={code}
            error={error}
            onChange={(event) => {
              setCode(event.target.value.replace(/[^\d ]/g, ''));
              setError('');
            }}
          />
          <div className="flex gap-2 sm:mt-7">
            <Button type="submit" isLoading={enable.isPending}>
              Turn on
            </Button>
            <Button variant="ghost" onClick={onCancel} disabled={enable.isPending}>
              Cancel
            </Button>
          </div>
        </form>
      </li>
    </ol>
  );
}

function StepTitle({ number, children }: { number: number; children: React.ReactNode }) {
  return (
    <h3 className="flex items-center gap-3 text-sm font-semibold text-slate-900">
      <span className="flex size-6 shrink-0 items-center justify-center rounded-full bg-brand-50 text-xs font-bold text-brand-700 ring-1 ring-brand-200">
        {number}
      </span>
      {children}
    </h3>
  );
}
