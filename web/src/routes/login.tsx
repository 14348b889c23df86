import { isValidEmail, userMessages } from '@bugtrail/domain/vocabulary';
import { createFileRoute, Link } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { PasswordField } from '../components/password-field';
import { Button } from '../components/ui/button';
import { TextField } from '../components/ui/field';
import { ApiError, api } from '../lib/api';
import { notify } from '../lib/notify';
import { compact, pickText } from '../lib/search';
import { AuthLayout } from './-components/auth-layout';
import { isMfaChallenge, type LoginAnswer } from './-components/mfa';
import { MfaLoginScreen, useSignIn } from './-components/sign-in';
import { SsoSignIn, ssoErrorText } from './-components/sso';

export const Route = createFileRoute('/login')({
  // Single sign-on sends the browser back here with a code of what went wrong (never its text).
  validateSearch: (search: Record<string, unknown>) => compact({ sso_error: pickText(search.sso_error, 40) }),
  component: LoginPage,
});

type Errors = { email?: string; password?: string };

export const loginFallback = 'Something went wrong. Please try again';

function LoginPage() {
  const signIn = useSignIn();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const { sso_error: ssoError } = Route.useSearch();
  const [formError, setFormError] = useState(() => ssoErrorText(ssoError) ?? '');
  const [isSubmitting, setSubmitting] = useState(false);
  // Set when the password checked out but the account asks for a second factor.
  const [mfaToken, setMfaToken] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const next: Errors = {};
    if (!isValidEmail(email)) next.email = userMessages.emailInvalid;
    if (!password) next.password = userMessages.passwordRequired;
    setErrors(next);
    setFormError('');
    if (next.email || next.password) return;
    setSubmitting(true);
    try {
      const answer = await api<LoginAnswer>('/api/auth/login', {
        method: 'POST',
        body: { email: email.trim(), password },
      });
      if (isMfaChallenge(answer)) {
        setMfaToken(answer.mfaToken);
        return;
      }
      await signIn(answer, false);
    } catch (error) {
      const message = error instanceof ApiError && error.hasServerMessage ? error.message : loginFallback;
      setFormError(message);
      notify.error(message);
    } finally {
      setSubmitting(false);
    }
  };

  if (mfaToken) {
    return (
      <MfaLoginScreen
        key={mfaToken}
        mfaToken={mfaToken}
        onSignedIn={(answer) => signIn(answer, true)}
        onRestart={(message) => {
          setMfaToken(null);
          setPassword('');
          setFormError(message);
        }}
      />
    );
  }

  return (
    <AuthLayout title="Welcome back" subtitle="Please enter your details to log in">
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
          error={errors.email}
          onChange={(event) => {
            setEmail(event.target.value);
            setErrors((current) => ({ ...current, email: undefined }));
          }}
        />
        <PasswordField
          label="Password"
          name="password"
          autoComplete="current-password"
          placeholder="Min 8 characters"
          value={password}
          error={errors.password}
          onChange={(event) => {
            setPassword(event.target.value);
            setErrors((current) => ({ ...current, password: undefined }));
          }}
        />
        <p className="-mt-2 text-right text-sm">
          <Link to="/forgot-password" className="font-medium text-brand-700 hover:underline">
            Forgot password?
          </Link>
        </p>
        <Button type="submit" className="w-full" size="lg" isLoading={isSubmitting}>
          Login
        </Button>
        <SsoSignIn />
        <p className="text-center text-sm text-slate-600">
          Don't have an account?{' '}
          <Link to="/signup" className="font-semibold text-brand-700 hover:underline">
            Sign Up
          </Link>
        </p>
      </form>
    </AuthLayout>
  );
}
