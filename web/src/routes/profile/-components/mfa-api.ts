import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api';

/** The MFA commands of the signed-in user (write-api/src/auth/mfa.routes.ts). None changes a read model. */

export type MfaSetup = { secret: string; otpauthUrl: string };

export const useBeginMfaSetup = () =>
  useMutation({ mutationFn: () => api<MfaSetup>('/api/auth/mfa/setup', { method: 'POST' }) });

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
