import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { useCallback } from 'react';
import { BugList } from '../../../components/bug-list/bug-list';
import { prefetchBugList } from '../../../components/bug-list/list-query';
import { type ListSearch, listSearchFrom } from '../../../components/bug-list/list-search';
import { PageHeader } from '../../../components/page-header';
import { cx } from '../../../components/ui/cx';
import { controlClass } from '../../../components/ui/field';
import { compact, pickOne, teamTabs } from '../../../lib/search';

export const Route = createFileRoute('/developer/assigned-bugs/')({
  validateSearch: (search: Record<string, unknown>) =>
    compact({ status: pickOne(search.status, teamTabs), ...listSearchFrom(search) }),
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) => prefetchBugList(context.queryClient, '/api/bugs', deps),
  component: AssignedBugsPage,
});

/** The developer's scope on GET /api/bugs is exactly the bugs assigned to them, paged. */
function AssignedBugsPage() {
  const { status, ...list } = Route.useSearch();
  const navigate = useNavigate({ from: Route.fullPath });
  const onSearch = useCallback(
    (patch: Partial<ListSearch>) => void navigate({ search: (prev) => compact({ ...prev, ...patch }), replace: true }),
    [navigate],
  );
  return (
    <>
      <PageHeader title="Assigned Bugs" subtitle="Bugs assigned to you." />
      <BugList
        endpoint="/api/bugs"
        viewAs="developer"
        status={status}
        search={list}
        onSearch={onSearch}
        showAssignee={false}
        failure="Failed to load assigned bugs"
        emptyTitle="No bugs assigned to you"
        onOpen={(bug) => void navigate({ to: '/developer/assigned-bugs/$bugId', params: { bugId: bug._id } })}
        filters={
          <label className="min-w-0">
            <span className="sr-only">Status</span>
            <select
              aria-label="Status"
              value={status ?? ''}
              onChange={(event) =>
                void navigate({ search: (prev) => compact({ ...prev, status: pickOne(event.target.value, teamTabs) }) })
              }
              className={cx(controlClass(), 'h-9 w-full sm:w-40', status && 'border-brand-400')}
            >
              <option value="">All statuses</option>
              {teamTabs.map((tab) => (
                <option key={tab} value={tab}>
                  {tab}
                </option>
              ))}
            </select>
          </label>
        }
      />
    </>
  );
}
