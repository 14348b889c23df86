import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { Spinner } from '../components/ui/spinner';
import { ApiError, api } from '../lib/api';
import type { AuthAnswer } from '../lib/types';
import { AuthLayout } from './-components/auth-layout';
import { isMfaChallenge, type LoginAnswer } from './-components/mfa';
import { MfaLoginScreen, useSignIn } from './-components/sign-in';

export const Route = createFileRoute('/sso')({ component: SsoLandingPage });

export const ssoLandingTexts = {
  title: 'Signing you in',
  subtitle: 'Your identity provider has vouched for you.',
};

/**
 * Where single sign-on lands (/sso#code=..., from GET /api/auth/oidc/callback): the
 * one-time code is traded for a session (POST /api/auth/oidc/finish), then the role's
 * home. The code rides in the fragment, which no server sees, and is wiped from the
 * address bar at once. With MFA on, the second factor is asked here, as after a password.
 */
function SsoLandingPage() {
  const navigate = useNavigate();
  const finishSignIn = useSignIn();
  const [mfaToken, setMfaToken] = useState<string | null>(null);
  const started = useRef(false);

  const signIn = (answer: AuthAnswer, usedMfa: boolean) => finishSignIn(answer, usedMfa, { replace: true });
  const backToLogin = (reason: 'expired' | 'deactivated' | 'failed') =>
    navigate({ to: '/login', search: { sso_error: reason }, replace: true });

  useEffect(() => {
    // Once, even under StrictMode's double effect: the code is single use.
    if (started.current) return;
    started.current = true;
    const code = new URLSearchParams(window.location.hash.slice(1)).get('code');
    window.history.replaceState(window.history.state, '', window.location.pathname);
    if (!code) {
      void backToLogin('expired');
      return;
    }
    api<LoginAnswer>('/api/auth/oidc/finish', { method: 'POST', body: { code } })
      .then((answer) => (isMfaChallenge(answer) ? setMfaToken(answer.mfaToken) : signIn(answer, false)))
      .catch((error: unknown) => {
        const status = error instanceof ApiError ? error.status : 0;
        void backToLogin(status === 403 ? 'deactivated' : status === 401 ? 'expired' : 'failed');
      });
  });

  if (mfaToken) {
    return (
      <MfaLoginScreen
        mfaToken={mfaToken}
        onSignedIn={(answer) => signIn(answer, true)}
        onRestart={() => void backToLogin('expired')}
      />
    );
  }
  return (
    <AuthLayout title={ssoLandingTexts.title} subtitle={ssoLandingTexts.subtitle}>
      <div className="flex justify-center py-6" role="status">
        <Spinner className="size-6" label={ssoLandingTexts.title} />
      </div>
    </AuthLayout>
  );
}
