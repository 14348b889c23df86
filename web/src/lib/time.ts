import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from './api';
import { queryKeys } from './query-keys';
import type { Bug } from './types';

/**
 * Time (api.md "Custom fields, workflow states and time", issue 37): a bug's estimate and worklog,
 * and timesheets of a date range with their totals per person and per project.
 */
export type WorklogEntry = {
  _id: string;
  on: string;
  minutes: number;
  note: string;
  loggedAt: string;
  user: { _id: string; name: string };
  bug: { _id: string; key: string | null; title: string; projectId: string };
  project: { _id: string; key: string; name: string };
};
export type Timesheet = {
  from: string;
  to: string;
  entries: WorklogEntry[];
  truncated: boolean;
  totals: {
    minutes: number;
    byUser: { user: { _id: string; name: string }; minutes: number }[];
    byProject: { project: { _id: string; key: string; name: string }; minutes: number }[];
  };
};

/** A timesheet (its key starts with `worklog`: a logged entry refreshes every one). */
export const timesheetQuery = (params: Record<string, string>) =>
  queryOptions({
    queryKey: queryKeys.worklog.sheet(params),
    queryFn: ({ signal }) => api<Timesheet>(`/api/worklog?${new URLSearchParams(params)}`, { signal }),
  });

/** `90` → `1h 30m`; `45` → `45m`; `120` → `2h`. */
export function formatMinutes(minutes: number): string {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  if (h === 0) return `${m}m`;
  return m === 0 ? `${h}h` : `${h}h ${m}m`;
}

/** `1h 30m`, `1.5h`, `90m`, `90` (minutes) → minutes; null when it is none of them. */
export function parseDuration(text: string): number | null {
  const t = text.trim().toLowerCase();
  if (/^\d+$/.test(t)) return Number(t);
  const hm = /^(?:(\d+(?:[.,]\d+)?)\s*h)?\s*(?:(\d+)\s*m)?$/.exec(t);
  if (!hm || (!hm[1] && !hm[2])) return null;
  const minutes = Math.round(Number((hm[1] ?? '0').replace(',', '.')) * 60) + Number(hm[2] ?? 0);
  return minutes > 0 ? minutes : null;
}

export const todayIso = () => {
  const d = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
};

function useTimeMutation<Input>(bugId: string, send: (input: Input) => Promise<{ bug?: Bug } | Bug | undefined>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: (answer) => {
      const bug = answer && 'bug' in answer && answer.bug ? answer.bug : undefined;
      if (bug) client.setQueryData(queryKeys.bug.detail(bugId), bug);
    },
    onSettled: () => {
      void client.invalidateQueries({ queryKey: queryKeys.worklog.all });
      void client.invalidateQueries({ queryKey: queryKeys.bug.detail(bugId) });
      void client.invalidateQueries({ queryKey: queryKeys.bugs.allMilestones });
    },
  });
}

const at = (bugId: string) => `/api/bugs/${encodeURIComponent(bugId)}`;

export const useLogWork = (bugId: string) =>
  useTimeMutation(bugId, (entry: { minutes: number; on: string; note: string }) =>
    api<{ bug?: Bug }>(`${at(bugId)}/worklog`, { method: 'POST', body: entry, offline: 'fail' }),
  );

export const useDeleteWork = (bugId: string) =>
  useTimeMutation(bugId, (entryId: string) =>
    api<{ bug?: Bug }>(`${at(bugId)}/worklog/${encodeURIComponent(entryId)}`, { method: 'DELETE', offline: 'fail' }),
  );

export const useEstimate = (bugId: string) =>
  useTimeMutation(bugId, (estimate: number | null) =>
    api<{ bug?: Bug }>(`${at(bugId)}/estimate`, { method: 'PUT', body: { estimate }, offline: 'fail' }),
  );

export const useSetState = (bugId: string) =>
  useTimeMutation(bugId, (stateId: string) =>
    api<{ bug?: Bug }>(`${at(bugId)}/state`, { method: 'PUT', body: { stateId }, offline: 'fail' }),
  );
