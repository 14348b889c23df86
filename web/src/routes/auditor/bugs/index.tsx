import { useInfiniteQuery } from '@tanstack/react-query';
import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { BugTable } from '../../../components/bug-table';
import { DownloadReportButton } from '../../../components/download-report-button';
import { LoadMore } from '../../../components/load-more';
import { PageHeader } from '../../../components/page-header';
import { TeamStatusTabs, teamTabCounts } from '../../../components/team-status-tabs';
import { Card } from '../../../components/ui/card';
import { bugListQuery, flattenPages } from '../../../lib/queries';
import { compact, pickOne, teamTabs } from '../../../lib/search';
import { useErrorToast } from '../../../lib/use-error-toast';

/** Every bug, read-only: the admin's list (GET /api/bugs covers all bugs for auditors) as a table. */
export const Route = createFileRoute('/auditor/bugs/')({
  validateSearch: (search: Record<string, unknown>) => compact({ status: pickOne(search.status, teamTabs) }),
  loaderDeps: ({ search }) => ({ status: search.status }),
  loader: ({ context, deps }) => {
    void context.queryClient.prefetchInfiniteQuery(bugListQuery({ status: deps.status ?? '' }));
  },
  component: AuditorBugsPage,
});

function AuditorBugsPage() {
  const { status } = Route.useSearch();
  const navigate = useNavigate({ from: Route.fullPath });
  const query = useInfiniteQuery(bugListQuery({ status: status ?? '' }));
  useErrorToast(query.error, 'Failed to load bugs');
  const bugs = flattenPages(query.data);
  const counts = teamTabCounts(query.data?.pages[0]?.statusSummary);

  return (
    <>
      <PageHeader
        title="All Bugs"
        subtitle="Every bug across the team, read-only. Open one to see its full story."
        actions={
          <DownloadReportButton
            path="/api/reports/export/bugs"
            filename="bug_details.xlsx"
            failure="Failed to download report"
          />
        }
      />
      <TeamStatusTabs status={status} counts={counts} onChange={(search) => void navigate({ search })} />
      <Card>
        <BugTable
          bugs={bugs}
          viewAs="auditor"
          isLoading={query.isPending}
          emptyText="No bugs found"
          onRowClick={(id) => void navigate({ to: '/auditor/bugs/$bugId', params: { bugId: id } })}
        />
        <LoadMore
          hasMore={query.hasNextPage}
          isLoading={query.isFetchingNextPage}
          onLoad={() => void query.fetchNextPage()}
          shown={bugs.length}
          total={counts[status ?? ''] ?? counts['']}
        />
      </Card>
    </>
  );
}
