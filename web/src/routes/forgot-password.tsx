import { isValidEmail, userMessages } from '@bugtrail/domain/vocabulary';
import { createFileRoute, Link } from '@tanstack/react-router';
import { MailCheck } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Button } from '../components/ui/button';
import { TextField } from '../components/ui/field';
import { api, messageOf } from '../lib/api';
import { notify } from '../lib/notify';
import { AuthLayout } from './-components/auth-layout';

export const Route = createFileRoute('/forgot-password')({ component: ForgotPasswordPage });

const forgotTexts = {
  // The server says which applies (mail sent, or ask an admin); this is for an answer without a message.
  sent: 'If an account exists for this email, a reset link is on its way. No email? Ask an admin for a reset link.',
  failed: 'Something went wrong. Please try again',
};

/**
 * POST /api/auth/forgot: always 202, whether or not the account exists (nothing to learn
 * about who has one). The server's message says what happens next.
 */
function ForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [formError, setFormError] = useState('');
  const [sent, setSent] = useState<string | null>(null);
  const [isSubmitting, setSubmitting] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFormError('');
    if (!isValidEmail(email)) {
      setError(userMessages.emailInvalid);
      return;
    }
    setSubmitting(true);
    try {
      const answer = await api<{ message?: string }>('/api/auth/forgot', {
        method: 'POST',
        body: { email: email.trim() },
        offline: 'fail',
      });
      setSent(answer?.message || forgotTexts.sent);
    } catch (failure) {
      const message = messageOf(failure, forgotTexts.failed);
      setFormError(message);
      notify.error(message);
    } finally {
      setSubmitting(false);
    }
  };

  if (sent !== null) {
    return (
      <AuthLayout title="Check your email" subtitle={`We looked for an account with ${email.trim()}.`}>
        <div className="space-y-6">
          <div
            role="status"
            className="flex items-start gap-3 rounded-lg border border-brand-200 bg-brand-50 px-4 py-3 text-sm text-brand-900"
          >
            <MailCheck className="mt-0.5 size-5 shrink-0 text-brand-700" aria-hidden="true" />
            <p>{sent}</p>
          </div>
          <p className="text-center text-sm text-slate-600">
            <Link to="/login" className="font-semibold text-brand-700 hover:underline">
              Back to login
            </Link>
          </p>
        </div>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title="Forgot your password?" subtitle="Enter your email and we'll help you set a new one">
      <form onSubmit={submit} noValidate className="space-y-5">
        {formError ? (
          <div role="alert" className="rounded-lg border border-rose-200 bg-rose-50 px-3 py-2 text-sm text-rose-700">
            {formError}
          </div>
        ) : null}
        <TextField
          label="Email Address"
          type="email"
          name="email"
          autoComplete="email"
          placeholder="john@example.com"
          value={email}
          error={error}
          onChange={(event) => {
            setEmail(event.target.value);
            setError(undefined);
          }}
        />
        <Button type="submit" className="w-full" size="lg" isLoading={isSubmitting}>
          Send reset link
        </Button>
        <p className="text-center text-sm text-slate-600">
          Remembered it?{' '}
          <Link to="/login" className="font-semibold text-brand-700 hover:underline">
            Back to login
          </Link>
        </p>
      </form>
    </AuthLayout>
  );
}
