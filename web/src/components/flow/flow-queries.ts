import { keepPreviousData, type QueryClient, queryOptions } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { queryKeys } from '../../lib/query-keys';
import { compact } from '../../lib/search';
import { DEFAULT_GROUP, type FlowSearch, isRangeReversed } from './flow-search';
import type { CumulativeFlow, CycleTimes, FlowGroup, FlowMetrics } from './flow-types';

/**
 * The Flow page's three reads. Keys sit under ['dashboard', 'flow'] so the live stream,
 * which invalidates queryKeys.dashboard.all on every bug change, refreshes the page too.
 */
type Window = Pick<FlowSearch, 'from' | 'to' | 'asOf' | 'project'>;

function windowOf(search: FlowSearch): Window {
  return compact({ from: search.from, to: search.to, asOf: search.asOf, project: search.project });
}

function path(base: string, params: Record<string, string | undefined>) {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value) query.set(name, value);
  const text = query.toString();
  return text ? `${base}?${text}` : base;
}

const shared = (search: FlowSearch) => ({
  enabled: !isRangeReversed(search),
  placeholderData: keepPreviousData,
  retry: false,
});

export const flowMetricsQuery = (search: FlowSearch) => {
  const params = { ...windowOf(search), groupBy: search.groupBy ?? DEFAULT_GROUP };
  return queryOptions({
    queryKey: queryKeys.dashboard.flow('metrics', params),
    queryFn: ({ signal }) => api<FlowMetrics>(path('/api/metrics', params), { signal }),
    ...shared(search),
  });
};

export const cycleTimesQuery = (search: FlowSearch) => {
  const params = { ...windowOf(search), groupBy: search.groupBy ?? DEFAULT_GROUP };
  return queryOptions({
    queryKey: queryKeys.dashboard.flow('cycle-times', params),
    // The answer does not echo groupBy; keep it, so points and their group never disagree.
    queryFn: async ({ signal }): Promise<CycleTimes & { groupBy: FlowGroup }> => ({
      ...(await api<CycleTimes>(path('/api/metrics/cycle-times', params), { signal })),
      groupBy: params.groupBy,
    }),
    ...shared(search),
  });
};

export const cumulativeFlowQuery = (search: FlowSearch) => {
  const params = windowOf(search);
  return queryOptions({
    queryKey: queryKeys.dashboard.flow('cumulative', params),
    queryFn: ({ signal }) => api<CumulativeFlow>(path('/api/metrics/flow', params), { signal }),
    ...shared(search),
  });
};

/** The Flow route's loader, admins' and auditors' alike: its three reads on their way. */
export function prefetchFlow(queryClient: QueryClient, search: FlowSearch) {
  if (isRangeReversed(search)) return;
  void queryClient.prefetchQuery(flowMetricsQuery(search));
  void queryClient.prefetchQuery(cycleTimesQuery(search));
  void queryClient.prefetchQuery(cumulativeFlowQuery(search));
}
