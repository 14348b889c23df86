import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';
import { Bug } from 'lucide-react';
import { flattenPages } from '../lib/queries';
import type { BugPage, Bug as BugType, Role } from '../lib/types';
import { BugCard } from './bug-card';
import { LoadMore } from './load-more';
import { EmptyState } from './ui/empty-state';
import { SkeletonCards } from './ui/skeleton';

type BugListResult = Pick<
  UseInfiniteQueryResult<InfiniteData<BugPage, unknown>>,
  'data' | 'isPending' | 'hasNextPage' | 'isFetchingNextPage' | 'fetchNextPage'
>;

/**
 * A paged bug list as cards: skeletons while the first page loads, the page's own empty
 * state when nothing matches, else the cards and a "Load more" (with "Showing n of total"
 * when the page knows the total).
 */
export function BugCardGrid({
  query,
  viewAs,
  emptyTitle,
  onOpen,
  onDelete,
  total,
  activeId,
}: {
  query: BugListResult;
  viewAs: Role;
  emptyTitle: string;
  onOpen: (bug: BugType) => void;
  onDelete?: (bug: BugType) => void;
  total?: number | undefined;
  /** The card the keyboard is on (j/k): marked, and focusable for Enter. */
  activeId?: string | null | undefined;
}) {
  const bugs = flattenPages(query.data);
  if (query.isPending) return <SkeletonCards />;
  if (bugs.length === 0) {
    return (
      <div className="rounded-xl border border-dashed border-slate-300 bg-white">
        <EmptyState icon={<Bug className="size-6" />} title={emptyTitle} />
      </div>
    );
  }
  return (
    <>
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-3">
        {bugs.map((bug) => (
          <div
            key={bug._id}
            data-bug-row={bug._id}
            tabIndex={-1}
            className={`grid rounded-xl outline-none ${bug._id === activeId ? 'ring-2 ring-brand-500 ring-offset-2' : ''}`}
          >
            <BugCard
              bug={bug}
              viewAs={viewAs}
              onOpen={() => onOpen(bug)}
              onDelete={onDelete ? () => onDelete(bug) : undefined}
            />
          </div>
        ))}
      </div>
      <LoadMore
        hasMore={query.hasNextPage}
        isLoading={query.isFetchingNextPage}
        onLoad={() => void query.fetchNextPage()}
        shown={bugs.length}
        total={total}
      />
    </>
  );
}
