import { useInfiniteQuery } from '@tanstack/react-query';
import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { useCallback } from 'react';
import { BugList } from '../../../components/bug-list/bug-list';
import { bugListPagesQuery, prefetchBugList } from '../../../components/bug-list/list-query';
import {
  bugExportPath,
  type ListSearch,
  listApiParams,
  listSearchFrom,
} from '../../../components/bug-list/list-search';
import { DownloadReportButton } from '../../../components/download-report-button';
import { PageHeader } from '../../../components/page-header';
import { TeamStatusTabs, teamTabCounts } from '../../../components/team-status-tabs';
import { compact, pickOne, teamTabs } from '../../../lib/search';

/** Every bug, read-only: the admin's list (GET /api/bugs covers all bugs for auditors), cards or table. */
export const Route = createFileRoute('/auditor/bugs/')({
  validateSearch: (search: Record<string, unknown>) =>
    compact({ status: pickOne(search.status, teamTabs), ...listSearchFrom(search) }),
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) => prefetchBugList(context.queryClient, '/api/bugs', deps),
  component: AuditorBugsPage,
});

function AuditorBugsPage() {
  const { status, ...list } = Route.useSearch();
  const navigate = useNavigate({ from: Route.fullPath });
  const onSearch = useCallback(
    (patch: Partial<ListSearch>) => void navigate({ search: (prev) => compact({ ...prev, ...patch }) }),
    [navigate],
  );
  const pages = useInfiniteQuery(bugListPagesQuery('/api/bugs', listApiParams({ ...list, status })));
  const counts = teamTabCounts(pages.data?.pages[0]?.statusSummary);

  return (
    <>
      <PageHeader
        title="All Bugs"
        subtitle="Every bug across the team, read-only. Open one to see its full story."
        actions={
          <DownloadReportButton
            path={bugExportPath(listApiParams({ ...list, status }))}
            filename="bug_details.xlsx"
            failure="Failed to download report"
          />
        }
      />
      <TeamStatusTabs
        status={status}
        counts={counts}
        onChange={(next) => void navigate({ search: (prev) => compact({ ...prev, status: next.status }) })}
      />
      <BugList
        endpoint="/api/bugs"
        defaultView="table"
        viewAs="auditor"
        status={status}
        search={list}
        onSearch={onSearch}
        emptyTitle="No bugs found"
        onOpen={(bug) => void navigate({ to: '/auditor/bugs/$bugId', params: { bugId: bug._id } })}
      />
    </>
  );
}
