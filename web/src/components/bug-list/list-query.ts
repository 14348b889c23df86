import { infiniteQueryOptions, keepPreviousData, type QueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { queryKeys } from '../../lib/query-keys';
import type { BugPage } from '../../lib/types';
import { type ListSearch, listApiParams, listQueryString } from './list-search';

// Rows are windowed (use-virtual-rows): a page is what the API gives at most, so End loads few pages.
export const LIST_PAGE_SIZE = 100;

export type ListEndpoint = '/api/bugs' | '/api/bugs/all-viewable';

/**
 * One page of a list with its filters, cursor-paged; the key starts with queryKeys.bugs.all so the
 * live stream refreshes it like every other list (ADR 004).
 */
export const bugListPagesQuery = (endpoint: ListEndpoint, params: Record<string, string>) =>
  infiniteQueryOptions({
    queryKey: queryKeys.bugs.list(endpoint, params),
    queryFn: ({ pageParam, signal }) => {
      const search = listQueryString({ ...params, limit: String(LIST_PAGE_SIZE) });
      if (pageParam) search.set('cursor', pageParam);
      return api<BugPage>(`${endpoint}?${search}`, { signal });
    },
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    placeholderData: keepPreviousData,
  });

/** A list route's loader: starts the first page of the list its URL shows (the page's status tab included). */
export function prefetchBugList(
  client: QueryClient,
  endpoint: ListEndpoint,
  search: ListSearch & { status?: string | undefined },
): void {
  void client.prefetchInfiniteQuery(bugListPagesQuery(endpoint, listApiParams(search)));
}
