import { useInfiniteQuery } from '@tanstack/react-query';
import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { Search } from 'lucide-react';
import { useEffect, useState } from 'react';
import { BugCardGrid } from '../../../components/bug-card-grid';
import { PageHeader } from '../../../components/page-header';
import { controlClass } from '../../../components/ui/field';
import { bugListQuery } from '../../../lib/queries';
import { compact, pickOne, pickText, teamTabs } from '../../../lib/search';
import { useDebounced } from '../../../lib/use-debounced';
import { useErrorToast } from '../../../lib/use-error-toast';

export const Route = createFileRoute('/developer/assigned-bugs/')({
  validateSearch: (search: Record<string, unknown>) =>
    compact({ status: pickOne(search.status, teamTabs), q: pickText(search.q) }),
  loaderDeps: ({ search }) => ({ status: search.status, q: search.q }),
  loader: ({ context, deps }) => {
    void context.queryClient.prefetchInfiniteQuery(bugListQuery({ status: deps.status ?? '', q: deps.q ?? '' }));
  },
  component: AssignedBugsPage,
});

/** The developer's scope on GET /api/bugs is exactly the bugs assigned to them, paged. */
function AssignedBugsPage() {
  const { status, q } = Route.useSearch();
  const navigate = useNavigate({ from: Route.fullPath });
  const [text, setText] = useState(q ?? '');
  const debounced = useDebounced(text.trim(), 250);
  useEffect(() => {
    if ((q ?? '') !== debounced)
      void navigate({ search: (prev) => compact({ ...prev, q: debounced || undefined }), replace: true });
  }, [debounced, q, navigate]);
  const query = useInfiniteQuery(bugListQuery({ status: status ?? '', q: q ?? '' }));
  useErrorToast(query.error, 'Failed to load assigned bugs', { preferServer: true });
  return (
    <>
      <PageHeader title="Assigned Bugs" subtitle="Bugs assigned to you." />
      <div className="mb-6 flex flex-col gap-3 sm:flex-row">
        <div className="relative flex-1">
          <Search
            className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-400"
            aria-hidden="true"
          />
          <label htmlFor="bug-search" className="sr-only">
            Search bugs
          </label>
          <input
            id="bug-search"
            type="search"
            value={text}
            onChange={(event) => setText(event.target.value)}
            placeholder="Search by title or description"
            className={`${controlClass()} h-10 pl-9`}
          />
        </div>
        <label htmlFor="status-filter" className="sr-only">
          Status
        </label>
        <select
          id="status-filter"
          value={status ?? ''}
          onChange={(event) =>
            void navigate({ search: (prev) => compact({ ...prev, status: pickOne(event.target.value, teamTabs) }) })
          }
          className={`${controlClass()} h-10 sm:w-48`}
        >
          <option value="">All statuses</option>
          {teamTabs.map((tab) => (
            <option key={tab} value={tab}>
              {tab}
            </option>
          ))}
        </select>
      </div>
      <BugCardGrid
        query={query}
        viewAs="developer"
        emptyTitle="No bugs assigned to you"
        onOpen={(bug) => void navigate({ to: '/developer/assigned-bugs/$bugId', params: { bugId: bug._id } })}
      />
    </>
  );
}
