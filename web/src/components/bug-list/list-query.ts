import { infiniteQueryOptions, keepPreviousData } from '@tanstack/react-query';
import { api } from '../../lib/api';
import type { BugPage } from '../../lib/types';

export const LIST_PAGE_SIZE = 24;

export type ListEndpoint = '/api/bugs' | '/api/bugs/all-viewable';

/**
 * One page of a list with its filters, cursor-paged; the key starts with ['bugs'] so the
 * live stream refreshes it like every other list (ADR 004).
 */
export const bugListPagesQuery = (endpoint: ListEndpoint, params: Record<string, string>) =>
  infiniteQueryOptions({
    queryKey: ['bugs', 'list', endpoint, params],
    queryFn: ({ pageParam, signal }) => {
      const search = new URLSearchParams({ ...params, limit: String(LIST_PAGE_SIZE) });
      if (pageParam) search.set('cursor', pageParam);
      return api<BugPage>(`${endpoint}?${search}`, { signal });
    },
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    placeholderData: keepPreviousData,
  });
