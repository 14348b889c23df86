import { useInfiniteQuery } from '@tanstack/react-query';
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router';
import { Plus, RefreshCw } from 'lucide-react';
import { BugCardGrid } from '../../components/bug-card-grid';
import { PageHeader } from '../../components/page-header';
import { Button, buttonClass } from '../../components/ui/button';
import { Tabs } from '../../components/ui/tabs';
import { notify } from '../../lib/notify';
import { bugListQuery } from '../../lib/queries';
import { compact, pickOne, testerTabs } from '../../lib/search';
import { useErrorToast } from '../../lib/use-error-toast';

export const Route = createFileRoute('/tester/my-bugs')({
  validateSearch: (search: Record<string, unknown>) => compact({ status: pickOne(search.status, testerTabs) }),
  loaderDeps: ({ search }) => ({ status: search.status }),
  loader: ({ context, deps }) => {
    void context.queryClient.prefetchInfiniteQuery(bugListQuery({ status: deps.status ?? '' }));
  },
  component: MyBugsPage,
});

function MyBugsPage() {
  const { status } = Route.useSearch();
  const navigate = useNavigate({ from: Route.fullPath });
  const query = useInfiniteQuery(bugListQuery({ status: status ?? '' }));
  useErrorToast(query.error, 'Failed to load bugs');
  const summary = query.data?.pages[0]?.statusSummary;
  const refresh = async () => {
    const result = await query.refetch();
    if (result.isError) notify.error('Failed to load bugs');
    else notify.success('Refreshed bug list');
  };
  const counts: Record<string, number | undefined> = {
    '': summary?.all,
    Open: summary?.openBugs ?? summary?.open,
    'In Progress': summary?.inProgressBugs ?? summary?.inProgress,
    Closed: summary?.closedBugs ?? summary?.closed,
  };
  const total = counts[status ?? ''];
  return (
    <>
      <PageHeader
        title="My Reported Bugs"
        subtitle="Every bug you reported, by status."
        actions={
          <>
            <Button
              variant="secondary"
              onClick={refresh}
              isLoading={query.isRefetching && !query.isFetchingNextPage}
              icon={<RefreshCw className="size-4" />}
            >
              Refresh
            </Button>
            <Link to="/tester/report-bug" className={buttonClass('primary')}>
              <Plus className="size-4" /> Report New Bug
            </Link>
          </>
        }
      />
      <div className="mb-6">
        <Tabs
          label="Filter by status"
          value={status ?? ''}
          onChange={(value) => void navigate({ search: compact({ status: pickOne(value, testerTabs) }) })}
          tabs={[
            { value: '', label: 'All', count: counts[''] ?? 0 },
            ...testerTabs.map((tab) => ({ value: tab, label: tab, count: counts[tab] ?? 0 })),
          ]}
        />
      </div>
      <BugCardGrid
        query={query}
        viewAs="tester"
        emptyTitle="No bugs found for this status"
        onOpen={(bug) => void navigate({ to: '/tester/bug/$bugId', params: { bugId: bug._id } })}
        total={total}
      />
    </>
  );
}
