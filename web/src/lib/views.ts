import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from './api';
import { queryKeys } from './query-keys';

/** A saved bug list (api.md "Saved views"): its route and its URL query, per user. */
export type SavedView = { _id: string; name: string; path: string; query: string; createdAt: string };

export const savedViewsQuery = () =>
  queryOptions({
    queryKey: queryKeys.views.all,
    queryFn: () => api<SavedView[]>('/api/views'),
    staleTime: 60_000,
  });

/** Where a saved view opens: its path with its query. */
export function viewHref(view: Pick<SavedView, 'path' | 'query'>): string {
  const query = view.query.replace(/^\?/, '');
  return query ? `${view.path}?${query}` : view.path;
}

export function useSaveView() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (view: { name: string; path: string; query: string }) =>
      api<SavedView>('/api/views', { method: 'POST', body: view }),
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.views.all }),
  });
}

export function useDeleteView() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<{ message: string }>(`/api/views/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.views.all }),
  });
}

/** A saved view as the router takes it: its route and its search params. */
export function viewTarget(view: Pick<SavedView, 'path' | 'query'>): { to: string; search: Record<string, string> } {
  return { to: view.path, search: Object.fromEntries(new URLSearchParams(view.query.replace(/^\?/, ''))) };
}
