import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from './api';
import { queryKeys } from './query-keys';
import type { Bug, Label } from './types';

/** Labels (api.md "Labels"): every label, for the chips' pickers, the filters and the admin page. */
export const labelsQuery = () =>
  queryOptions({
    queryKey: queryKeys.labels.all,
    queryFn: ({ signal }) => api<{ labels: Label[] }>('/api/labels', { signal }),
    staleTime: 60_000,
  });

export type LabelDraft = { name: string; color: string; description: string };

/**
 * A label command changes the list and, by name or colour, the chips every bug answer carries:
 * both refetch (the live stream tells the other tabs).
 */
function useLabelMutation<Input, Answer>(send: (input: Input) => Promise<Answer>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSettled: () => {
      void client.invalidateQueries({ queryKey: queryKeys.labels.all });
      void client.invalidateQueries({ queryKey: queryKeys.bugs.all });
      void client.invalidateQueries({ queryKey: ['bug'] });
    },
  });
}

const at = (id: string) => `/api/labels/${encodeURIComponent(id)}`;

export const useCreateLabel = () =>
  useLabelMutation((draft: LabelDraft) => api<Label>('/api/labels', { method: 'POST', body: draft, offline: 'fail' }));

export const useUpdateLabel = () =>
  useLabelMutation(({ id, changes }: { id: string; changes: Partial<LabelDraft> }) =>
    api<Label>(at(id), { method: 'PATCH', body: changes, offline: 'fail' }),
  );

export const useDeleteLabel = () =>
  useLabelMutation((id: string) => api<{ message: string }>(at(id), { method: 'DELETE', offline: 'fail' }));

/** `PUT /api/bugs/{id}/labels`: the bug's whole list of labels; the answer is the bug. */
export function useSetBugLabels(bugId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (labelIds: string[]) =>
      api<{ message: string; bug: Bug }>(`/api/bugs/${encodeURIComponent(bugId)}/labels`, {
        method: 'PUT',
        body: { labelIds },
        offline: 'fail',
      }),
    onSuccess: (answer) => {
      if (answer?.bug) client.setQueryData(queryKeys.bug.detail(bugId), answer.bug);
    },
    onSettled: () => {
      void client.invalidateQueries({ queryKey: queryKeys.bug.detail(bugId) });
      void client.invalidateQueries({ queryKey: queryKeys.bugs.all });
    },
  });
}

/**
 * Who may change a bug's labels (api.md "Labels"): whoever may edit it (admins, its reporter
 * among testers) and its assigned developers. The server decides; this only hides the editor.
 */
export function canLabelBug(user: { _id: string; role: string } | undefined, bug: Bug): boolean {
  if (!user) return false;
  if (user.role === 'admin') return true;
  if (user.role === 'tester') return bug.createdBy?._id === user._id;
  if (user.role === 'developer') return bug.assignedTo.some((person) => person._id === user._id);
  return false;
}
