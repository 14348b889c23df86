import { useQuery } from '@tanstack/react-query';
import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { useCallback, useState } from 'react';
import { BugList } from '../../components/bug-list/bug-list';
import { BugSummaryDialog } from '../../components/bug-list/bug-summary-dialog';
import { prefetchBugList } from '../../components/bug-list/list-query';
import { type ListSearch, listSearchFrom } from '../../components/bug-list/list-search';
import { PageHeader } from '../../components/page-header';
import { compact } from '../../lib/search';
import { profileQuery } from '../../lib/session';
import type { Bug } from '../../lib/types';

export const Route = createFileRoute('/tester/all-bugs')({
  validateSearch: (search: Record<string, unknown>) => compact({ ...listSearchFrom(search) }),
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) => prefetchBugList(context.queryClient, '/api/bugs/all-viewable', deps),
  component: AllBugsPage,
});

/** Every bug in the system: the tester's own open on their page, others' as a read-only summary. */
function AllBugsPage() {
  const search = Route.useSearch();
  const navigate = useNavigate({ from: Route.fullPath });
  const me = useQuery(profileQuery()).data;
  const [summary, setSummary] = useState<Bug | null>(null);
  const onSearch = useCallback(
    (patch: Partial<ListSearch>) => void navigate({ search: (prev) => compact({ ...prev, ...patch }) }),
    [navigate],
  );
  return (
    <>
      <PageHeader title="All Bugs" subtitle="Every bug reported in the system." />
      <BugList
        endpoint="/api/bugs/all-viewable"
        defaultView="table"
        viewAs="tester"
        search={search}
        onSearch={onSearch}
        failure="Failed to load bugs. Please try again."
        emptyTitle="No bugs found in the system"
        onOpen={(bug) =>
          bug.createdBy._id === me?._id
            ? void navigate({ to: '/tester/bug/$bugId', params: { bugId: bug._id } })
            : setSummary(bug)
        }
      />
      <BugSummaryDialog bug={summary} viewAs="tester" onClose={() => setSummary(null)} />
    </>
  );
}
