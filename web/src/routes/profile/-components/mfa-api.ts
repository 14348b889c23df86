import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api';

/** The MFA commands of the signed-in user (write-api/src/auth/mfa.routes.ts). None changes a read model. */

export type MfaSetup = { secret: string; otpauthUrl: string };

/** Needs the current password (people who sign in only through single sign-on: a fresh sign-in instead). */
export const useBeginMfaSetup = () =>
  useMutation({
    mutationFn: (currentPassword: string) =>
      api<MfaSetup>('/api/auth/mfa/setup', {
        method: 'POST',
        body: currentPassword ? { currentPassword } : {},
      }),
  });

export const useEnableMfa = () =>
  useMutation({
    mutationFn: (code: string) =>
      api<{ recoveryCodes: string[] }>('/api/auth/mfa/enable', { method: 'POST', body: { code } }),
  });

export const useDisableMfa = () =>
  useMutation({
    mutationFn: (body: { code: string; currentPassword: string }) =>
      api<{ message: string }>('/api/auth/mfa/disable', { method: 'POST', body }),
  });
