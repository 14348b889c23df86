import { type QueryClient, type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, isQueuedOffline, messageOf, setToken } from './api';
import { notify as toast } from './notify';
import { queryKeys } from './query-keys';
import { notifyStatusRefusal } from './status-refusal';
import type {
  Bug,
  BugPage,
  BugStatus,
  ChecklistItem,
  EmailPreference,
  Role,
  TeamMember,
  User,
  UserPreferences,
} from './types';

/** Every cached copy of one bug (detail and list rows), patched the same way. */
function patchBug(client: QueryClient, id: string, patch: (bug: Bug) => Bug) {
  client.setQueryData<Bug>(queryKeys.bug.detail(id), (bug) => (bug ? patch(bug) : bug));
  client.setQueriesData<{ pages: BugPage[]; pageParams: unknown[] }>({ queryKey: queryKeys.bugs.all }, (data) => {
    if (!data || !Array.isArray((data as { pages?: unknown }).pages)) return data;
    return {
      ...data,
      pages: data.pages.map((page) => ({
        ...page,
        bugs: page.bugs.map((bug) => (bug._id === id ? patch(bug) : bug)),
      })),
    };
  });
}

/** The bug's title as the caches know it, to name a command that has to wait offline. */
function bugName(client: QueryClient, id: string): string {
  let title = client.getQueryData<Bug>(queryKeys.bug.detail(id))?.title;
  if (!title)
    for (const [, data] of client.getQueriesData<{ pages?: BugPage[] }>({ queryKey: queryKeys.bugs.all })) {
      title = data?.pages?.flatMap((page) => page.bugs).find((bug) => bug._id === id)?.title;
      if (title) break;
    }
  return title ? `“${title}”` : 'a bug';
}

type Snapshot = [QueryKey, unknown][];
function snapshot(client: QueryClient, id: string): Snapshot {
  return [
    ...client.getQueriesData({ queryKey: queryKeys.bug.detail(id) }),
    ...client.getQueriesData({ queryKey: queryKeys.bugs.all }),
  ];
}
function restore(client: QueryClient, saved: Snapshot) {
  for (const [key, data] of saved) client.setQueryData(key, data);
}

function refreshBugs(client: QueryClient, id?: string) {
  if (id) void client.invalidateQueries({ queryKey: queryKeys.bug.detail(id) });
  void client.invalidateQueries({ queryKey: queryKeys.bugs.all });
  void client.invalidateQueries({ queryKey: queryKeys.dashboard.all });
  void client.invalidateQueries({ queryKey: queryKeys.users.all });
}

export type BugPayload = Record<string, unknown>;

/*
 * Offline (api.ts): a bug command the server cannot be reached for waits in the offline
 * queue and answers a QueuedOffline result, with the toast "Saved offline — it will be sent
 * when you are back online". The hooks then treat it as done for now: optimistic changes
 * stay (no rollback), no success toast claims the server has it, and nothing is refetched
 * (the saved answers would put the old state back); the replay refetches everything.
 */

export function useCreateBug() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (payload: BugPayload) =>
      api<{ message: string; bug: Bug }>('/api/bugs', { method: 'POST', body: { ...payload, status: 'Open' } }),
    onSuccess: (answer) => {
      if (!isQueuedOffline(answer)) refreshBugs(client);
    },
  });
}

export function useUpdateBug(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ payload, version }: { payload: BugPayload; version?: number }) => {
      const answer = await api<{ message: string; bug: Bug }>(`/api/bugs/${id}`, {
        method: 'PUT',
        body: payload,
        headers: version === undefined ? {} : { 'If-Match': String(version) },
        offlineLabel: `Edit of ${bugName(client, id)}`,
      });
      return answer;
    },
    onSuccess: (answer) => {
      if (isQueuedOffline(answer)) return;
      if (answer?.bug) client.setQueryData(queryKeys.bug.detail(id), answer.bug);
      refreshBugs(client, id);
    },
  });
}

/** Archive a closed bug or restore it (admins): it leaves or rejoins the lists and counts. */
export function useArchiveBug(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (archived: boolean) =>
      api<{ message: string; bug: Bug }>(`/api/bugs/${encodeURIComponent(id)}/archived`, {
        method: 'PUT',
        body: { archived },
      }),
    onSuccess: (answer) => {
      if (answer?.bug) client.setQueryData(queryKeys.bug.detail(id), answer.bug);
      refreshBugs(client, id);
    },
  });
}

export function useDeleteBug() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      api<{ message: string }>(`/api/bugs/${id}`, {
        method: 'DELETE',
        offlineLabel: `Deletion of ${bugName(client, id)}`,
      }),
    onSuccess: (answer, id) => {
      if (isQueuedOffline(answer)) return;
      client.removeQueries({ queryKey: queryKeys.bug.detail(id) });
      refreshBugs(client);
    },
  });
}

/**
 * Optimistic: the new status shows at once and rolls back if the server refuses (not when it waits
 * offline). A close refused because an open bug blocks it says so; an admin may close it anyway.
 */
export function useUpdateStatus() {
  const client = useQueryClient();
  const mutation = useMutation({
    mutationFn: ({ id, status, override }: { id: string; status: BugStatus; override?: boolean }) =>
      api<{ message?: string; bug?: Bug }>(`/api/bugs/${id}/status`, {
        method: 'PUT',
        body: override ? { status, override: true } : { status },
        offlineLabel: `Status of ${bugName(client, id)} to ${status}`,
      }),
    onMutate: async ({ id, status }) => {
      await client.cancelQueries({ queryKey: queryKeys.bug.detail(id) });
      await client.cancelQueries({ queryKey: queryKeys.bugs.all });
      const saved = snapshot(client, id);
      patchBug(client, id, (bug) => ({ ...bug, status }));
      return { saved };
    },
    onError: (error, vars, context) => {
      if (context) restore(client, context.saved);
      notifyStatusRefusal(error, {
        fallback: 'Failed to update bug status',
        isAdmin: client.getQueryData<User>(queryKeys.profile.self)?.role === 'admin',
        onOverride: () => mutation.mutate({ ...vars, override: true }),
      });
    },
    onSuccess: (answer) => {
      if (!isQueuedOffline(answer)) toast.success('Bug status updated successfully');
    },
    onSettled: (answer, _error, { id }) => {
      if (!isQueuedOffline(answer)) refreshBugs(client, id);
    },
  });
  return mutation;
}

export function useUpdateChecklist(currentUser: { _id: string; name: string }) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, checklist }: { id: string; checklist: ChecklistItem[] }) =>
      api<{ message?: string; bug?: Bug }>(`/api/bugs/${id}/checklist`, {
        method: 'PUT',
        body: {
          checklist: checklist.map((item) => ({
            ...(item._id ? { _id: item._id } : {}),
            text: item.text,
            completed: item.completed,
            completedBy: item.completed ? (item.completedBy?._id ?? currentUser._id) : null,
            completedAt: item.completed ? (item.completedAt ?? new Date().toISOString()) : null,
          })),
        },
        offlineLabel: `Checklist of ${bugName(client, id)}`,
      }),
    onMutate: async ({ id, checklist }) => {
      await client.cancelQueries({ queryKey: queryKeys.bug.detail(id) });
      await client.cancelQueries({ queryKey: queryKeys.bugs.all });
      const saved = snapshot(client, id);
      patchBug(client, id, (bug) => ({ ...bug, checklist }));
      return { saved };
    },
    onError: (_error, _vars, context) => {
      if (context) restore(client, context.saved);
      toast.error('Failed to update checklist');
    },
    onSuccess: (answer) => {
      if (!isQueuedOffline(answer)) toast.success('Checklist updated');
    },
    onSettled: (answer, _error, { id }) => {
      if (!isQueuedOffline(answer)) refreshBugs(client, id);
    },
  });
}

/** A toggle records completed, completedBy (the user) and completedAt (now). */
export function toggleChecklistItem(
  items: ChecklistItem[],
  index: number,
  user: { _id: string; name: string },
  now: Date,
): ChecklistItem[] {
  return items.map((item, i) => {
    if (i !== index) return item;
    const completed = !item.completed;
    return {
      ...item,
      completed,
      completedBy: completed ? { _id: user._id, name: user.name } : null,
      completedAt: completed ? now.toISOString() : null,
    };
  });
}

/**
 * PUT /api/users/{id}/role (admin). The user's sessions end (their token carried the old
 * role); an admin who changed their own role gets a fresh token in the answer, kept here.
 */
export function useChangeRole() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, role }: { id: string; role: Role }) =>
      api<{ user: User; token?: string }>(`/api/users/${encodeURIComponent(id)}/role`, {
        method: 'PUT',
        body: { role },
      }),
    onSuccess: (answer) => {
      if (answer.token) {
        setToken(answer.token);
        // The new role now, before anyone routes on it (the guards read this cache); the refetch confirms it.
        client.setQueryData<User>(queryKeys.profile.self, (me) => (me ? { ...me, ...answer.user } : answer.user));
        void client.invalidateQueries({ queryKey: queryKeys.profile.self });
      }
      // The team list shows the new role at once; the refetch brings the rest.
      client.setQueryData<TeamMember[]>(queryKeys.users.all, (team) =>
        team?.map((member) => (member._id === answer.user._id ? { ...member, role: answer.user.role } : member)),
      );
      void client.invalidateQueries({ queryKey: queryKeys.users.all });
    },
  });
}

export const preferenceTexts = {
  saved: 'Notification preferences saved',
  failed: 'Could not save notification preferences',
};

/**
 * PUT /api/users/{id}/preferences (the caller's own id). Optimistic: the choice shows at
 * once in the cached profile and goes back if the server refuses, with its message. Not
 * queued offline: a preference is only worth setting while the server can take it.
 */
export function useUpdateEmailPreference(userId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (email: EmailPreference) =>
      api<{ preferences: UserPreferences }>(`/api/users/${encodeURIComponent(userId)}/preferences`, {
        method: 'PUT',
        body: { email },
        offline: 'fail',
      }),
    onMutate: async (email) => {
      await client.cancelQueries({ queryKey: queryKeys.profile.self });
      const saved = client.getQueryData<User>(queryKeys.profile.self);
      client.setQueryData<User>(queryKeys.profile.self, (me) =>
        me ? { ...me, preferences: { ...me.preferences, email } } : me,
      );
      return { saved };
    },
    onError: (error, _email, context) => {
      if (context?.saved) client.setQueryData(queryKeys.profile.self, context.saved);
      toast.error(messageOf(error, preferenceTexts.failed));
    },
    onSuccess: (answer) => {
      client.setQueryData<User>(queryKeys.profile.self, (me) =>
        me && answer?.preferences ? { ...me, preferences: answer.preferences } : me,
      );
      toast.success(preferenceTexts.saved);
    },
    onSettled: () => {
      void client.invalidateQueries({ queryKey: queryKeys.profile.self });
    },
  });
}
