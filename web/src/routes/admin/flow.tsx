import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { FlowPage } from '../../components/flow/flow-page';
import { cumulativeFlowQuery, cycleTimesQuery, flowMetricsQuery } from '../../components/flow/flow-queries';
import { isRangeReversed, validateFlowSearch } from '../../components/flow/flow-search';
import { compact } from '../../lib/search';

/** Flow metrics for admins: range, as-of day and grouping live in the URL (the /admin guard keeps others out). */
export const Route = createFileRoute('/admin/flow')({
  validateSearch: validateFlowSearch,
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) => {
    if (isRangeReversed(deps)) return;
    void context.queryClient.prefetchQuery(flowMetricsQuery(deps));
    void context.queryClient.prefetchQuery(cycleTimesQuery(deps));
    void context.queryClient.prefetchQuery(cumulativeFlowQuery(deps));
  },
  component: AdminFlow,
});

function AdminFlow() {
  const search = Route.useSearch();
  const navigate = useNavigate({ from: Route.fullPath });
  return (
    <FlowPage viewAs="admin" search={search} onSearchChange={(next) => void navigate({ search: compact(next) })} />
  );
}
