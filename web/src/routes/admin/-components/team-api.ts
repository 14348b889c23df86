import { type QueryClient, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import type { TeamMember, User, UserRef } from '../../../lib/types';

/**
 * The admin's people commands and the invite codes list (api.md "People"). Every change
 * refreshes the `['users']` queries (the team list, the pickers, the invite codes under
 * it); the live stream's `users` topic does the same for changes made elsewhere.
 * None of these waits in the offline queue: without the server they fail at once.
 */
export type InviteCode = { _id: string; createdBy: UserRef | null; createdAt: string; expiresAt: string };
export type MintedInviteCode = { _id?: string; code: string; expiresAt: string; singleUse: boolean };
export type ResetLink = { url: string; expiresAt: string };

export const inviteCodesQuery = () =>
  queryOptions({
    queryKey: ['users', 'invite-codes'],
    queryFn: async () => (await api<{ codes: InviteCode[] }>('/api/auth/invite-codes')).codes,
  });

const userPath = (id: string, action: string) => `/api/users/${encodeURIComponent(id)}/${action}`;

/** The changed user shows at once in the team list; the refetch brings the rest. */
function refreshTeam(client: QueryClient, user?: User) {
  if (user)
    client.setQueryData<TeamMember[]>(['users'], (team) =>
      team?.map((member) => (member._id === user._id ? { ...member, ...pickAccount(user) } : member)),
    );
  void client.invalidateQueries({ queryKey: ['users'] });
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

/** POST /api/auth/invite-codes: a single-use admin signup code, shown this once. */
export function useMintInviteCode() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api<MintedInviteCode>('/api/auth/invite-codes', { method: 'POST', body: {}, offline: 'fail' }),
    onSuccess: () => void client.invalidateQueries({ queryKey: ['users'] }),
  });
}

/** DELETE /api/auth/invite-codes/{id}: nobody can sign up with it any more. */
export function useRevokeInviteCode() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      api<void>(`/api/auth/invite-codes/${encodeURIComponent(id)}`, { method: 'DELETE', offline: 'fail' }),
    onSuccess: (_answer, id) => {
      client.setQueryData<InviteCode[]>(['users', 'invite-codes'], (codes) => codes?.filter((c) => c._id !== id));
      void client.invalidateQueries({ queryKey: ['users'] });
    },
  });
}
