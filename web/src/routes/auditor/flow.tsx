import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { FlowPage } from '../../components/flow/flow-page';
import { prefetchFlow } from '../../components/flow/flow-queries';
import { validateFlowSearch } from '../../components/flow/flow-search';
import { compact } from '../../lib/search';

/** Flow metrics for auditors, read-only: range, as-of day and grouping live in the URL (the /auditor guard keeps others out). */
export const Route = createFileRoute('/auditor/flow')({
  validateSearch: validateFlowSearch,
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) => prefetchFlow(context.queryClient, deps),
  component: AuditorFlow,
});

function AuditorFlow() {
  const search = Route.useSearch();
  const navigate = useNavigate({ from: Route.fullPath });
  return (
    <FlowPage viewAs="auditor" search={search} onSearchChange={(next) => void navigate({ search: compact(next) })} />
  );
}
