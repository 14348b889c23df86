import { userMessages } from '@bugtrail/domain/vocabulary';
import { createFileRoute, Link, useLocation, useNavigate } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { PasswordField } from '../components/password-field';
import { Button } from '../components/ui/button';
import { api, messageOf } from '../lib/api';
import { notify } from '../lib/notify';
import { compact, pickText } from '../lib/search';
import { AuthLayout } from './-components/auth-layout';

export const Route = createFileRoute('/reset-password')({
  validateSearch: (search: Record<string, unknown>) => compact({ token: pickText(search.token, 512) }),
  component: ResetPasswordPage,
});

const resetTexts = {
  done: 'Your password has been reset. Please log in.',
  failed: 'Something went wrong. Please try again',
  noToken: 'This reset link is incomplete. Ask an admin for a new one, or request one by email.',
  mismatch: 'The passwords do not match',
  tooLong: 'Password cannot exceed 128 characters',
};

type Errors = { password?: string; confirm?: string };

/**
 * Where a reset link lands (`/reset-password?token=...`, from an admin or a mail):
 * a new password twice, POST /api/auth/reset, then the login page. A used, expired or
 * unknown link and a weak password are the server's 400, shown as it words them.
 */
function ResetPasswordPage() {
  const navigate = useNavigate();
  const search = Route.useSearch();
  // The raw parameter: the router would turn a token of digits into a number.
  const raw = useLocation({ select: (location) => new URLSearchParams(location.searchStr).get('token') });
  const token = raw?.trim() || search.token;
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [formError, setFormError] = useState('');
  const [isSubmitting, setSubmitting] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFormError('');
    const next: Errors = {};
    if (!password) next.password = userMessages.passwordRequired;
    else if (password.length < 8) next.password = userMessages.passwordTooShort;
    else if (password.length > 128) next.password = resetTexts.tooLong;
    if (!next.password && confirm !== password) next.confirm = resetTexts.mismatch;
    setErrors(next);
    if (next.password || next.confirm || !token) return;
    setSubmitting(true);
    try {
      const answer = await api<{ message?: string }>('/api/auth/reset', {
        method: 'POST',
        body: { token, password },
        offline: 'fail',
      });
      notify.success(answer?.message || resetTexts.done);
      await navigate({ to: '/login' });
    } catch (failure) {
      const message = messageOf(failure, resetTexts.failed);
      setFormError(message);
      notify.error(message);
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <AuthLayout title="Set a new password" subtitle="Choose a new password for your account">
      {!token ? (
        <div className="space-y-6">
          <p role="alert" className="rounded-lg border border-rose-200 bg-rose-50 px-3 py-2 text-sm text-rose-700">
            {resetTexts.noToken}
          </p>
          <FooterLinks />
        </div>
      ) : (
        <form onSubmit={submit} noValidate className="space-y-5">
          {formError ? (
            <div role="alert" className="rounded-lg border border-rose-200 bg-rose-50 px-3 py-2 text-sm text-rose-700">
              {formError}
            </div>
          ) : null}
          <PasswordField
            label="New Password"
            name="new-password"
            autoComplete="new-password"
            placeholder="Min 8 characters"
            value={password}
            error={errors.password}
            onChange={(event) => {
              setPassword(event.target.value);
              setErrors((current) => ({ ...current, password: undefined }));
            }}
          />
          <PasswordField
            label="Confirm New Password"
            name="confirm-password"
            autoComplete="new-password"
            value={confirm}
            error={errors.confirm}
            onChange={(event) => {
              setConfirm(event.target.value);
              setErrors((current) => ({ ...current, confirm: undefined }));
            }}
          />
          <p className="text-sm text-slate-600">
            This signs you out on every device and revokes your API tokens: sign in again with the new password.
          </p>
          <Button type="submit" className="w-full" size="lg" isLoading={isSubmitting}>
            Set new password
          </Button>
          <FooterLinks />
        </form>
      )}
    </AuthLayout>
  );
}

function FooterLinks() {
  return (
    <p className="flex flex-wrap justify-center gap-x-4 gap-y-1 text-center text-sm text-slate-600">
      <Link to="/forgot-password" className="font-semibold text-brand-700 hover:underline">
        Request a new link
      </Link>
      <Link to="/login" className="font-semibold text-brand-700 hover:underline">
        Back to login
      </Link>
    </p>
  );
}
