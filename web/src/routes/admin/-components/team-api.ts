import { type QueryClient, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';
import type { SignupMode } from '../../../lib/session';
import type { TeamMember, User, UserRef } from '../../../lib/types';

/**
 * The admin's people commands and the invite codes list (api.md "People"). Every change
 * refreshes the `queryKeys.users.all` queries (the team list, the pickers, the invite codes under
 * it); the live stream's `users` topic does the same for changes made elsewhere.
 * None of these waits in the offline queue: without the server they fail at once.
 */
/** Whom a code signs up: an admin, or a tester or developer an admin invited. */
export type CodeRole = 'admin' | 'tester' | 'developer';
export type InviteCode = {
  _id: string;
  createdBy: UserRef | null;
  createdAt: string;
  expiresAt: string;
  role?: CodeRole;
};
export type MintedInviteCode = {
  _id?: string;
  code: string;
  expiresAt: string;
  singleUse: boolean;
  role?: 'tester' | 'developer';
  /** An invitation's signup link, to pass on. */
  url?: string;
};
export { type SignupMode, signupPolicyQuery } from '../../../lib/session';
export type ResetLink = { url: string; expiresAt: string };

export const inviteCodesQuery = () =>
  queryOptions({
    queryKey: queryKeys.users.inviteCodes,
    queryFn: async () => (await api<{ codes: InviteCode[] }>('/api/auth/invite-codes')).codes,
  });

/** PUT /api/auth/signup-policy: open, or by invitation only. */
export function useSetSignupPolicy() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (mode: SignupMode) =>
      api<{ mode: SignupMode }>('/api/auth/signup-policy', { method: 'PUT', body: { mode }, offline: 'fail' }),
    onSuccess: (answer) => client.setQueryData(queryKeys.site.signupPolicy, answer.mode),
  });
}

const userPath = (id: string, action: string) => `/api/users/${encodeURIComponent(id)}/${action}`;

/** The changed user shows at once in the team list; the refetch brings the rest. */
function refreshTeam(client: QueryClient, user?: User) {
  if (user)
    client.setQueryData<TeamMember[]>(queryKeys.users.all, (team) =>
      team?.map((member) => (member._id === user._id ? { ...member, ...pickAccount(user) } : member)),
    );
  void client.invalidateQueries({ queryKey: queryKeys.users.all });
}

const pickAccount = (user: User) => ({ role: user.role, deactivated: user.deactivated === true });

/** POST /api/users/{id}/deactivate: their sessions end at once; they stay listed. */
export function useDeactivateUser() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<{ user: User }>(userPath(id, 'deactivate'), { method: 'POST', offline: 'fail' }),
    onSuccess: (answer) => refreshTeam(client, answer?.user),
  });
}

/** POST /api/users/{id}/reactivate: they may sign in again (their old sessions stay ended). */
export function useReactivateUser() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<{ user: User }>(userPath(id, 'reactivate'), { method: 'POST', offline: 'fail' }),
    onSuccess: (answer) => refreshTeam(client, answer?.user),
  });
}

/** POST /api/users/{id}/reset-link: a one-use link to set a new password, for the admin to pass on. */
export function useCreateResetLink() {
  return useMutation({
    mutationFn: (id: string) => api<ResetLink>(userPath(id, 'reset-link'), { method: 'POST', offline: 'fail' }),
  });
}

/**
 * DELETE /api/users/{id}/mfa: their two-factor sign-in is off (for an owner who lost their
 * authenticator and recovery codes); they are told by notification and mail.
 */
export function useResetMfa() {
  return useMutation({
    mutationFn: (id: string) =>
      api<{ message: string }>(`/api/users/${encodeURIComponent(id)}/mfa`, { method: 'DELETE', offline: 'fail' }),
  });
}

/**
 * POST /api/auth/invite-codes: a single-use signup code, shown this once: an admin's (no
 * role), or an invitation for a tester or developer, with its link.
 */
export function useMintInviteCode() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (role?: 'tester' | 'developer') =>
      api<MintedInviteCode>('/api/auth/invite-codes', {
        method: 'POST',
        body: role ? { role } : {},
        offline: 'fail',
      }),
    onSuccess: () => void client.invalidateQueries({ queryKey: queryKeys.users.all }),
  });
}

/** DELETE /api/auth/invite-codes/{id}: nobody can sign up with it any more. */
export function useRevokeInviteCode() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      api<void>(`/api/auth/invite-codes/${encodeURIComponent(id)}`, { method: 'DELETE', offline: 'fail' }),
    onSuccess: (_answer, id) => {
      client.setQueryData<InviteCode[]>(queryKeys.users.inviteCodes, (codes) => codes?.filter((c) => c._id !== id));
      void client.invalidateQueries({ queryKey: queryKeys.users.all });
    },
  });
}
