import type { AutomationAction, AutomationCondition, AutomationTrigger } from '@bugtrail/domain/vocabulary';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from './api';
import { queryKeys } from './query-keys';

/** A rule as the API answers it (`then`: its actions, as api.md calls them). */
export type Automation = {
  _id: string;
  name: string;
  projectId: string | null;
  enabled: boolean;
  paused: boolean;
  when: { event: AutomationTrigger; conditions: AutomationCondition[] };
  then: AutomationAction[];
  createdAt: string;
  updatedAt: string;
};

export type AutomationRun = {
  bugId: string;
  key: string | null;
  trigger: string;
  at: string;
  failed: boolean;
  outcomes: { type: string; outcome: 'done' | 'unchanged' | 'failed'; message?: string }[];
};

export type AutomationDraft = {
  name: string;
  projectId: string | null;
  enabled?: boolean;
  when: { event: AutomationTrigger; conditions: AutomationCondition[] };
  then: AutomationAction[];
};

export type Simulation = {
  matched: number;
  actions: { bugId: string; key: string | null; at: string; action: AutomationAction }[];
  truncated: boolean;
};

/** The rules the caller may read (admins every one; leads their projects'). */
export const automationsQuery = () =>
  queryOptions({
    queryKey: queryKeys.automations.all,
    queryFn: ({ signal }) => api<{ automations: Automation[] }>('/api/automations', { signal }),
  });

export const automationRunsQuery = (id: string) =>
  queryOptions({
    queryKey: queryKeys.automations.runs(id),
    queryFn: ({ signal }) =>
      api<{ runs: AutomationRun[] }>(`/api/automations/${encodeURIComponent(id)}/runs?limit=20`, { signal }),
  });

function useAutomationMutation<Input, Answer>(send: (input: Input) => Promise<Answer>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.automations.all }),
  });
}

const at = (id: string) => `/api/automations/${encodeURIComponent(id)}`;

export const useCreateAutomation = () =>
  useAutomationMutation((draft: AutomationDraft) =>
    api<Automation>('/api/automations', { method: 'POST', body: draft, offline: 'fail' }),
  );

export const useUpdateAutomation = () =>
  useAutomationMutation(({ id, changes }: { id: string; changes: Partial<AutomationDraft> }) =>
    api<Automation>(at(id), { method: 'PATCH', body: changes, offline: 'fail' }),
  );

export const useDeleteAutomation = () =>
  useAutomationMutation((id: string) => api<{ message: string }>(at(id), { method: 'DELETE', offline: 'fail' }));

/** What a rule not saved yet would have done over [from, to): the editor's dry run. */
export const simulateDraft = (draft: AutomationDraft, from: string, to: string) =>
  api<Simulation>('/api/automations/simulate', { method: 'POST', body: { ...draft, from, to }, offline: 'fail' });
