import { ArrowLeft, KeyRound, Smartphone } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/field';
import { ApiError, api, messageOf } from '../../lib/api';
import { notify } from '../../lib/notify';
import type { AuthAnswer } from '../../lib/types';
import { mfaServerMessages } from './mfa';

export const mfaStepTexts = {
  title: 'Two-factor authentication',
  appSubtitle: 'Enter the 6-digit code from your authenticator app',
  recoverySubtitle: 'Enter one of the recovery codes you saved when you turned two-factor authentication on',
  codeInvalidLocal: 'Enter the 6-digit code from your app',
  recoveryRequired: 'Enter a recovery code',
  fallback: 'Something went wrong. Please try again',
} as const;

/**
 * The login's second step for a user with MFA on: a TOTP code (or a recovery code) and the
 * mfaToken the password step got, exchanged at /api/auth/mfa/verify for the session.
 */
export function MfaLoginStep({
  mfaToken,
  isRecovery,
  onModeChange,
  onSignedIn,
  onRestart,
}: {
  mfaToken: string;
  isRecovery: boolean;
  onModeChange: (isRecovery: boolean) => void;
  onSignedIn: (answer: AuthAnswer) => Promise<void>;
  /** The mfaToken is spent or expired: back to the password, with why. */
  onRestart: (message: string) => void;
}) {
  const [code, setCode] = useState('');
  const [error, setError] = useState('');
  const [formError, setFormError] = useState('');
  const [isSubmitting, setSubmitting] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const typed = code.trim();
    const local = isRecovery
      ? typed
        ? ''
        : mfaStepTexts.recoveryRequired
      : /^\d{6}$/.test(typed.replace(/\s+/g, ''))
        ? ''
        : mfaStepTexts.codeInvalidLocal;
    setError(local);
    setFormError('');
    if (local) return;
    setSubmitting(true);
    try {
      const answer = await api<AuthAnswer>('/api/auth/mfa/verify', {
        method: 'POST',
        body: { mfaToken, code: typed },
      });
      await onSignedIn(answer);
    } catch (failure) {
      const message = messageOf(failure, mfaStepTexts.fallback);
      if (failure instanceof ApiError && failure.status === 401 && message !== mfaServerMessages.codeInvalid) {
        onRestart(message);
        return;
      }
      setFormError(message);
      setCode('');
      notify.error(message);
    } finally {
      setSubmitting(false);
    }
  };

  const switchMode = () => {
    onModeChange(!isRecovery);
    setCode('');
    setError('');
    setFormError('');
  };

  return (
    <form onSubmit={submit} noValidate className="space-y-5">
      {formError ? (
        <div role="alert" className="rounded-lg border border-rose-200 bg-rose-50 px-3 py-2 text-sm text-rose-700">
          {formError}
        </div>
      ) : null}
      {isRecovery ? (
        <TextField
          key="recovery"
          label="Recovery code"
          name="recoveryCode"
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          placeholder="xxxxx-xxxxx"
          autoFocus
          className="font-mono tracking-wider"
          value={code}
          error={error}
          onChange={(event) => {
            setCode(event.target.value);
            setError('');
          }}
        />
      ) : (
        <TextField
          key="totp"
          label="Authentication code"
          name="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          placeholder="123456"
          maxLength={7}
          autoFocus
          className="h-12 text-center font-mono text-xl tracking-[0.4em]"
          value={code}
          error={error}
          onChange={(event) => {
            setCode(event.target.value.replace(/[^\d ]/g, ''));
            setError('');
          }}
        />
      )}
      <Button type="submit" className="w-full" size="lg" isLoading={isSubmitting}>
        Verify
      </Button>
      <div className="flex flex-col items-center gap-3 text-sm sm:flex-row sm:justify-between">
        <button
          type="button"
          onClick={switchMode}
          className="inline-flex items-center gap-1.5 font-semibold text-brand-700 hover:underline"
        >
          {isRecovery ? <Smartphone className="size-4" /> : <KeyRound className="size-4" />}
          {isRecovery ? 'Use your authenticator app' : 'Use a recovery code'}
        </button>
        <button
          type="button"
          onClick={() => onRestart('')}
          className="inline-flex items-center gap-1.5 text-slate-600 hover:text-slate-900 hover:underline"
        >
          <ArrowLeft className="size-4" />
          Back to login
        </button>
      </div>
    </form>
  );
}
