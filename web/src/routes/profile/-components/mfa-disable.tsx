import { userMessages } from '@bugtrail/domain/vocabulary';
import { type FormEvent, useState } from 'react';
import { PasswordField } from '../../../components/password-field';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/field';
import { ApiError, messageOf } from '../../../lib/api';
import { mfaServerMessages } from '../../-components/mfa';
import { useDisableMfa } from './mfa-api';

type Errors = { code?: string; currentPassword?: string; form?: string };
const fallback = 'Could not turn off two-factor authentication. Please try again';

/** Turning MFA off takes what a thief with only the session lacks: a code and the password. */
export function MfaDisableForm({ onDisabled, onNotEnabled }: { onDisabled: () => void; onNotEnabled: () => void }) {
  const disable = useDisableMfa();
  const [code, setCode] = useState('');
  const [currentPassword, setCurrentPassword] = useState('');
  const [errors, setErrors] = useState<Errors>({});

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next: Errors = {};
    if (!code.trim()) next.code = 'Enter a code from your app or a recovery code';
    if (!currentPassword) next.currentPassword = userMessages.currentPasswordRequired;
    setErrors(next);
    if (next.code || next.currentPassword) return;
    disable.mutate(
      { code: code.trim(), currentPassword },
      {
        onSuccess: onDisabled,
        onError: (failure) => {
          const message = messageOf(failure, fallback);
          if (message === mfaServerMessages.notEnabled) {
            onNotEnabled();
            return;
          }
          const field = failure instanceof ApiError ? failure.details[0]?.field : undefined;
          if (message === userMessages.currentPasswordIncorrect || field === 'currentPassword') {
            setErrors({ currentPassword: message });
            setCurrentPassword('');
          } else if (message === mfaServerMessages.codeInvalid || field === 'code') {
            setErrors({ code: message });
            setCode('');
          } else {
            setErrors({ form: message });
          }
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      {errors.form ? (
        <div role="alert" className="rounded-lg border border-rose-200 bg-rose-50 px-3 py-2 text-sm text-rose-700">
          {errors.form}
        </div>
      ) : null}
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label="Authentication or recovery code"
          name="code"
          autoComplete="one-time-code"
          autoCapitalize="none"
          spellCheck={false}
          placeholder="123456"
          className="font-mono tracking-wider"
          value={code}
          error={errors.code}
          onChange={(event) => {
            setCode(event.target.value);
            setErrors((current) => ({ ...current, code: undefined, form: undefined }));
          }}
        />
        <PasswordField
          label="Current password"
          name="currentPassword"
          autoComplete="current-password"
          value={currentPassword}
          error={errors.currentPassword}
          onChange={(event) => {
            setCurrentPassword(event.target.value);
            setErrors((current) => ({ ...current, currentPassword: undefined, form: undefined }));
          }}
        />
      </div>
      <Button type="submit" variant="danger" isLoading={disable.isPending}>
        Turn off two-factor authentication
      </Button>
    </form>
  );
}
