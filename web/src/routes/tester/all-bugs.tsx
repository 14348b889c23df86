import { useInfiniteQuery } from '@tanstack/react-query';
import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { BugTable } from '../../components/bug-table';
import { LoadMore } from '../../components/load-more';
import { PageHeader } from '../../components/page-header';
import { Card } from '../../components/ui/card';
import { allViewableQuery, flattenPages } from '../../lib/queries';
import { useErrorToast } from '../../lib/use-error-toast';

export const Route = createFileRoute('/tester/all-bugs')({
  loader: ({ context }) => {
    void context.queryClient.prefetchInfiniteQuery(allViewableQuery());
  },
  component: AllBugsPage,
});

function AllBugsPage() {
  const navigate = useNavigate();
  const query = useInfiniteQuery(allViewableQuery());
  useErrorToast(query.error, 'Failed to load bugs. Please try again.');
  const bugs = flattenPages(query.data);
  const total = query.data?.pages[0]?.statusSummary?.all;
  return (
    <>
      <PageHeader title="All Bugs" subtitle="Every bug reported in the system." />
      <Card>
        <BugTable
          bugs={bugs}
          viewAs="tester"
          isLoading={query.isPending}
          emptyText="No bugs found in the system"
          onRowClick={(id) => void navigate({ to: '/tester/bug/$bugId', params: { bugId: id } })}
        />
        <LoadMore
          hasMore={query.hasNextPage}
          isLoading={query.isFetchingNextPage}
          onLoad={() => void query.fetchNextPage()}
          shown={bugs.length}
          {...(total !== undefined ? { total } : {})}
        />
      </Card>
    </>
  );
}
