import type { AutomationCondition } from '@bugtrail/domain/vocabulary';
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from './api';
import { queryKeys } from './query-keys';

/** An SLA policy as the API answers it (api.md "Automation rules"). */
export type SlaPolicy = {
  _id: string;
  name: string;
  projectId: string | null;
  conditions: AutomationCondition[];
  respondWithin: string | null;
  resolveWithin: string | null;
  createdAt: string;
};
export type SlaDraft = Omit<SlaPolicy, '_id' | 'createdAt'>;

export type TargetCompliance = { met: number; breached: number; pending: number; compliance: number | null };
export type PolicyCompliance = SlaPolicy & {
  bugs: number;
  respond: TargetCompliance | null;
  resolve: TargetCompliance | null;
};

/** The policies, in the order they are tried. */
export const slaPoliciesQuery = () =>
  queryOptions({
    queryKey: queryKeys.sla.all,
    queryFn: ({ signal }) => api<{ policies: SlaPolicy[] }>('/api/sla', { signal }),
  });

/** Compliance per policy over the bugs reported in the window (admins and auditors): all time without one. */
export const slaComplianceQuery = (window: { from?: string; to?: string; project?: string }) => {
  const params = new URLSearchParams(
    Object.entries(window).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1] !== '',
    ),
  );
  return queryOptions({
    queryKey: queryKeys.sla.compliance(params.toString()),
    queryFn: ({ signal }) => api<{ policies: PolicyCompliance[] }>(`/api/metrics/sla?${params}`, { signal }),
    placeholderData: keepPreviousData,
  });
};

function useSlaMutation<Input, Answer>(send: (input: Input) => Promise<Answer>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.sla.all }),
  });
}

export const useCreateSla = () =>
  useSlaMutation((draft: SlaDraft) => api<SlaPolicy>('/api/sla', { method: 'POST', body: draft, offline: 'fail' }));

export const useUpdateSla = () =>
  useSlaMutation(({ id, changes }: { id: string; changes: Partial<Omit<SlaDraft, 'projectId'>> }) =>
    api<SlaPolicy>(`/api/sla/${encodeURIComponent(id)}`, { method: 'PATCH', body: changes, offline: 'fail' }),
  );

export const useDeleteSla = () =>
  useSlaMutation((id: string) =>
    api<{ message: string }>(`/api/sla/${encodeURIComponent(id)}`, { method: 'DELETE', offline: 'fail' }),
  );

/** A compliance as people read it: `92%`, or a dash when nothing is decided yet. */
export const percent = (value: number | null | undefined) =>
  value === null || value === undefined ? '—' : `${Math.round(value * 100)}%`;
