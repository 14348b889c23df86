import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useCallback } from 'react';
import { api } from '../../lib/api';
import { queryKeys } from '../../lib/query-keys';
import type { Bug, UserRef } from '../../lib/types';
import { pickInstant } from './at-search';

/**
 * `GET /api/bugs/{id}/history` as the bug page reads it: the event list, the bug as of
 * a moment (`?at`) and two moments compared (`?from&to`). Every key sits under
 * queryKeys.bug.detail(id), so the live topic `bug:<id>` and the bug's own mutations, which
 * invalidate that prefix, refetch the history too (ADR 004).
 */

export type FieldChange = { field: string; from: unknown; to: unknown };

export type HistoryEntry = {
  _id: string;
  /** The stored stream name, `bug-<id>`. */
  stream?: string;
  revision: number;
  type: string;
  at: string;
  actor: UserRef | null;
  /** Field keys as the bug answer spells them (`status`, `assignedTo`, …). */
  changes: FieldChange[];
  data: Record<string, unknown>;
  /** As stored; `rule`: an automation rule made this change (api.md "Automation rules"). */
  metadata?: { rule?: { _id: string; name: string; depth: number } };
  /** Present once the event store keeps a hash chain (api.md "Audit trail"). */
  hash?: string;
  prevHash?: string;
};

export type HistoryIntegrity = { ok: boolean; events: number; brokenAt: number | null };

export type BugHistory = { bugId: string; events: HistoryEntry[]; integrity?: HistoryIntegrity };

export type BugAsOf = Bug & { deleted?: boolean };

/** Fields named by the bug form's labels (`Status`, `Assign To`, …). */
export type BugComparison = { from: BugAsOf | null; to: BugAsOf | null; changes: FieldChange[] };

const historyPath = (id: string, query?: Record<string, string>) =>
  `/api/bugs/${encodeURIComponent(id)}/history${query ? `?${new URLSearchParams(query)}` : ''}`;

export const bugHistoryQuery = (id: string) =>
  queryOptions({
    queryKey: queryKeys.bug.history(id),
    queryFn: ({ signal }) => api<BugHistory>(historyPath(id), { signal }),
    retry: false,
  });

export const bugAsOfQuery = (id: string, at: string) =>
  queryOptions({
    queryKey: queryKeys.bug.historyAt(id, at),
    queryFn: ({ signal }) => api<BugAsOf>(historyPath(id, { at }), { signal }),
    retry: false,
    // Scrubbing keeps the last moment on screen until the next one arrives.
    placeholderData: keepPreviousData,
  });

export const bugComparisonQuery = (id: string, from: string, to: string) =>
  queryOptions({
    queryKey: queryKeys.bug.comparison(id, from, to),
    queryFn: ({ signal }) => api<BugComparison>(historyPath(id, { from, to }), { signal }),
    retry: false,
    placeholderData: keepPreviousData,
  });

/**
 * The page's `?at=` and a way to change it. Any bug page may host the time travel
 * (tester, developer, admin, and pages still to come), so this reads the search
 * params loosely and navigates relative to wherever it is.
 */
export function useAtParam(): [string | undefined, (at: string | undefined, options?: { replace?: boolean }) => void] {
  const search = useSearch({ strict: false }) as Record<string, unknown>;
  const at = pickInstant(search.at);
  const navigate = useNavigate();
  const setAt = useCallback(
    (next: string | undefined, options?: { replace?: boolean }) => {
      void navigate({
        to: '.',
        search: ((prev: Record<string, unknown>) => {
          const { at: _previous, ...rest } = prev;
          return next ? { ...rest, at: next } : rest;
        }) as never,
        replace: options?.replace ?? false,
        resetScroll: false,
      });
    },
    [navigate],
  );
  return [at, setAt];
}

/** The bug as of `at` (nothing to fetch without one). */
export function useBugAsOf(bugId: string, at: string | undefined) {
  return useQuery({ ...bugAsOfQuery(bugId, at ?? ''), enabled: at !== undefined });
}
