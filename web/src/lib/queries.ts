import { infiniteQueryOptions, keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from './api';
import { queryKeys } from './query-keys';
import type { Bug, BugPage, Dashboard, Role, TeamMember, UserRef } from './types';

/**
 * One factory per read model; keys follow ADR 004 so the live stream can invalidate
 * queryKeys.bug.detail(id), ['bugs', ...], queryKeys.dashboard.role(role), queryKeys.users.all, queryKeys.profile.self.
 */
export const PAGE_SIZE = 24;

export const bugQuery = (id: string) =>
  queryOptions({
    queryKey: queryKeys.bug.detail(id),
    queryFn: () => api<Bug>(`/api/bugs/${encodeURIComponent(id)}`),
    retry: false,
  });

export type BugListFilters = { status?: string; q?: string; limit?: number };

function listPath(base: string, filters: BugListFilters, cursor: string | undefined) {
  const params = new URLSearchParams();
  if (filters.status) params.set('status', filters.status);
  if (filters.q) params.set('q', filters.q);
  params.set('limit', String(filters.limit ?? PAGE_SIZE));
  if (cursor) params.set('cursor', cursor);
  return `${base}?${params}`;
}

/** Every bug a tester may list (rows only). */
export const allViewableQuery = () =>
  infiniteQueryOptions({
    queryKey: queryKeys.bugs.allViewable,
    queryFn: ({ pageParam, signal }) => api<BugPage>(listPath('/api/bugs/all-viewable', {}, pageParam), { signal }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });

/** The command palette's search. */
export const bugSearchQuery = (q: string) =>
  queryOptions({
    queryKey: queryKeys.bugs.search(q),
    queryFn: ({ signal }) => api<BugPage>(listPath('/api/bugs', { q, limit: 8 }, undefined), { signal }),
    enabled: q.trim().length > 0,
    placeholderData: keepPreviousData,
  });

export const dashboardQuery = (role: Role) =>
  queryOptions({
    queryKey: queryKeys.dashboard.role(role),
    queryFn: () => api<Dashboard>(`/api/bugs/${role}-dashboard`),
  });

export const teamQuery = () =>
  queryOptions({
    queryKey: queryKeys.users.all,
    queryFn: () => api<TeamMember[]>('/api/users'),
  });

export const developersQuery = () =>
  queryOptions({
    queryKey: queryKeys.users.developers,
    queryFn: () => api<UserRef[]>('/api/users/developers'),
    staleTime: 60_000,
  });

export function flattenPages(data: { pages: BugPage[] } | undefined): Bug[] {
  return data?.pages.flatMap((page) => page.bugs) ?? [];
}
