import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { FlowPage } from '../../components/flow/flow-page';
import { prefetchFlow } from '../../components/flow/flow-queries';
import { validateFlowSearch } from '../../components/flow/flow-search';
import { compact } from '../../lib/search';

/** Flow metrics for admins: range, as-of day and grouping live in the URL (the /admin guard keeps others out). */
export const Route = createFileRoute('/admin/flow')({
  validateSearch: validateFlowSearch,
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) => prefetchFlow(context.queryClient, deps),
  component: AdminFlow,
});

function AdminFlow() {
  const search = Route.useSearch();
  const navigate = useNavigate({ from: Route.fullPath });
  return (
    <FlowPage viewAs="admin" search={search} onSearchChange={(next) => void navigate({ search: compact(next) })} />
  );
}
