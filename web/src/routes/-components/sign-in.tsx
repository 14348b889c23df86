import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { setToken } from '../../lib/api';
import { queryKeys } from '../../lib/query-keys';
import { roleHome } from '../../lib/session';
import type { AuthAnswer } from '../../lib/types';
import { AuthLayout } from './auth-layout';
import { rememberMfa } from './mfa';
import { MfaLoginStep, mfaStepTexts } from './mfa-login-step';

/**
 * The end of every sign-in (password, MFA, single sign-on): keep the token and the
 * profile, remember whether MFA was used, and go to the role's home.
 */
export function useSignIn() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return async (answer: AuthAnswer, usedMfa: boolean, options: { replace?: boolean } = {}) => {
    setToken(answer.token);
    rememberMfa(usedMfa);
    queryClient.setQueryData(queryKeys.profile.self, answer.user);
    await navigate({ to: roleHome[answer.role ?? answer.user.role] ?? '/', replace: options.replace ?? false });
  };
}

/** The second factor's screen, after a password or a single sign-on: an app code, or a recovery code. */
export function MfaLoginScreen({
  mfaToken,
  onSignedIn,
  onRestart,
}: {
  mfaToken: string;
  onSignedIn: (answer: AuthAnswer) => Promise<void>;
  onRestart: (message: string) => void;
}) {
  const [isRecovery, setRecovery] = useState(false);
  return (
    <AuthLayout
      title={mfaStepTexts.title}
      subtitle={isRecovery ? mfaStepTexts.recoverySubtitle : mfaStepTexts.appSubtitle}
    >
      <MfaLoginStep
        mfaToken={mfaToken}
        isRecovery={isRecovery}
        onModeChange={setRecovery}
        onSignedIn={onSignedIn}
        onRestart={onRestart}
      />
    </AuthLayout>
  );
}
