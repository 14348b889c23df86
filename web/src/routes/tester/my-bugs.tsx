import { useInfiniteQuery } from '@tanstack/react-query';
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router';
import { Plus, RefreshCw } from 'lucide-react';
import { useCallback } from 'react';
import { BugList } from '../../components/bug-list/bug-list';
import { bugListPagesQuery, prefetchBugList } from '../../components/bug-list/list-query';
import { type ListSearch, listApiParams, listSearchFrom } from '../../components/bug-list/list-search';
import { PageHeader } from '../../components/page-header';
import { Button, buttonClass } from '../../components/ui/button';
import { Tabs } from '../../components/ui/tabs';
import { notify } from '../../lib/notify';
import { compact, pickOne, testerTabs } from '../../lib/search';

export const Route = createFileRoute('/tester/my-bugs')({
  validateSearch: (search: Record<string, unknown>) =>
    compact({ status: pickOne(search.status, testerTabs), ...listSearchFrom(search) }),
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) => prefetchBugList(context.queryClient, '/api/bugs', deps),
  component: MyBugsPage,
});

function MyBugsPage() {
  const { status, ...list } = Route.useSearch();
  const navigate = useNavigate({ from: Route.fullPath });
  const onSearch = useCallback(
    (patch: Partial<ListSearch>) => void navigate({ search: (prev) => compact({ ...prev, ...patch }) }),
    [navigate],
  );
  const query = useInfiniteQuery(bugListPagesQuery('/api/bugs', listApiParams({ ...list, status })));
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
          onChange={(value) =>
            void navigate({ search: (prev) => compact({ ...prev, status: pickOne(value, testerTabs) }) })
          }
          tabs={[
            { value: '', label: 'All', count: counts[''] ?? 0 },
            ...testerTabs.map((tab) => ({ value: tab, label: tab, count: counts[tab] ?? 0 })),
          ]}
        />
      </div>
      <BugList
        endpoint="/api/bugs"
        viewAs="tester"
        status={status}
        search={list}
        onSearch={onSearch}
        showReporter={false}
        emptyTitle="No bugs found for this status"
        onOpen={(bug) => void navigate({ to: '/tester/bug/$bugId', params: { bugId: bug._id } })}
      />
    </>
  );
}
