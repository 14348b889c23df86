import { Bug } from 'lucide-react';
import { type RefObject, useEffect, useState } from 'react';
import type { Bug as BugType, Role } from '../lib/types';
import { BugCard } from './bug-card';
import type { VirtualRows } from './bug-list/use-virtual-rows';
import { EmptyState } from './ui/empty-state';
import { SkeletonCards } from './ui/skeleton';

/** Cards a row holds at this window width: the grid's own breakpoints (1, sm: 2, xl: 3). */
const cardColumnsNow = () =>
  window.matchMedia('(min-width: 1280px)').matches ? 3 : window.matchMedia('(min-width: 640px)').matches ? 2 : 1;

export function useCardColumns(): number {
  const [columns, setColumns] = useState(cardColumnsNow);
  useEffect(() => {
    const update = () => setColumns(cardColumnsNow());
    window.addEventListener('resize', update);
    return () => window.removeEventListener('resize', update);
  }, []);
  return columns;
}

/**
 * A bug list as cards: skeletons while the first page loads, the page's own empty state
 * when nothing matches, else a window of card rows (use-virtual-rows: only the rows near
 * the viewport are in the DOM, and further pages load as the window nears the end). A
 * list of cards for screen readers, each with its place in the whole list.
 */
export function BugCardGrid({
  bugs,
  isPending,
  rows,
  columns,
  listRef,
  total,
  viewAs,
  emptyTitle,
  onOpen,
  onDelete,
  activeId,
  onActivate,
}: {
  bugs: BugType[];
  isPending: boolean;
  rows: VirtualRows;
  columns: number;
  listRef: RefObject<HTMLDivElement | null>;
  total: number;
  viewAs: Role;
  emptyTitle: string;
  onOpen: (bug: BugType) => void;
  onDelete?: ((bug: BugType) => void) | undefined;
  /** The card the keyboard is on (j/k): marked, and focusable for Enter. */
  activeId?: string | null | undefined;
  onActivate?: ((id: string) => void) | undefined;
}) {
  if (isPending) return <SkeletonCards />;
  if (bugs.length === 0) {
    return (
      <div className="rounded-xl border border-dashed border-slate-300 bg-white">
        <EmptyState icon={<Bug className="size-6" />} title={emptyTitle} />
      </div>
    );
  }
  return (
    // biome-ignore lint/a11y/useSemanticElements: rows of cards (divs) sit between the list and its items
    <div
      ref={listRef}
      role="list"
      aria-label="Bugs"
      style={{ paddingTop: rows.paddingTop, paddingBottom: rows.paddingBottom }}
    >
      {rows.items.map((item) => {
        const row = bugs.slice(item.index * columns, item.index * columns + columns);
        return (
          <div
            key={item.key}
            ref={rows.virtualizer.measureElement}
            data-index={item.index}
            role="presentation"
            className="grid min-w-0 grid-cols-1 gap-4 pb-4 sm:grid-cols-2 xl:grid-cols-3"
          >
            {row.map((bug, i) => (
              // biome-ignore lint/a11y/useSemanticElements: an item of the role="list" above (see there)
              <div
                key={bug._id}
                role="listitem"
                aria-setsize={total}
                aria-posinset={item.index * columns + i + 1}
                data-bug-row={bug._id}
                tabIndex={bug._id === activeId ? 0 : -1}
                onFocus={(event) => {
                  if (event.target === event.currentTarget) onActivate?.(bug._id);
                }}
                className={`grid min-w-0 rounded-xl outline-none ${bug._id === activeId ? 'ring-2 ring-brand-500 ring-offset-2' : ''}`}
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
        );
      })}
    </div>
  );
}
