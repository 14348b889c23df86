import { useInfiniteQuery } from '@tanstack/react-query';
import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { Download } from 'lucide-react';
import { useState } from 'react';
import { BugTable } from '../../../components/bug-table';
import { LoadMore } from '../../../components/load-more';
import { PageHeader } from '../../../components/page-header';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Tabs } from '../../../components/ui/tabs';
import { downloadFile } from '../../../lib/api';
import { notify } from '../../../lib/notify';
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
  const [isDownloading, setDownloading] = useState(false);
  const bugs = flattenPages(query.data);
  const summary = query.data?.pages[0]?.statusSummary;
  const counts: Record<string, number> = {
    '': summary?.all ?? 0,
    Pending: summary?.pendingBugs ?? summary?.openBugs ?? summary?.open ?? 0,
    'In Progress': summary?.inProgressBugs ?? summary?.inProgress ?? 0,
    Resolved: summary?.resolvedBugs ?? summary?.closedBugs ?? summary?.closed ?? 0,
  };

  const download = async () => {
    setDownloading(true);
    try {
      await downloadFile('/api/reports/export/bugs', 'bug_details.xlsx');
    } catch {
      notify.error('Failed to download report');
    } finally {
      setDownloading(false);
    }
  };

  return (
    <>
      <PageHeader
        title="All Bugs"
        subtitle="Every bug across the team, read-only. Open one to see its full story."
        actions={
          <Button
            variant="secondary"
            onClick={download}
            isLoading={isDownloading}
            icon={<Download className="size-4" />}
          >
            Download Report
          </Button>
        }
      />
      {(counts[''] ?? 0) > 0 ? (
        <div className="mb-6">
          <Tabs
            label="Filter by status"
            value={status ?? ''}
            onChange={(value) => void navigate({ search: compact({ status: pickOne(value, teamTabs) }) })}
            tabs={[
              { value: '', label: 'All', count: counts[''] },
              ...teamTabs.map((tab) => ({ value: tab, label: tab, count: counts[tab] ?? 0 })),
            ]}
          />
        </div>
      ) : null}
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
