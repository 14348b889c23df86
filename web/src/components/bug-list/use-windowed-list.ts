import { type Key, type RefObject, useCallback, useEffect, useState } from 'react';
import type { Bug } from '../../lib/types';
import { focusBugRow, useListKeys } from './use-list-keys';
import { useVirtualRows } from './use-virtual-rows';

/** The paging of an infinite bug list: what useInfiniteQuery gives. */
type Pages = { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => unknown };

/**
 * A bug list to work in at any size (issue 40), for every list page: a window of rows on the
 * page's own scroll, the next page loaded as the window nears it, and the list keys (j/k,
 * PageDown/PageUp, Home, End after every page has loaded, Enter) moving an active bug that
 * is brought into the window and focused. Each rendered row carries `data-bug-row={id}` on
 * the element that takes the focus, `ref={rows.virtualizer.measureElement}` and
 * `data-index` on the element measured.
 */
export function useWindowedList({
  bugs,
  pages,
  perRow = 1,
  estimate,
  listRef,
  onOpen,
  onToggle,
  getItemKey,
  scrollPaddingStart,
}: {
  bugs: Bug[];
  pages: Pages;
  /** Bugs a virtual row holds (a row of cards). */
  perRow?: number;
  /** A row's height before it is measured (px). */
  estimate: number;
  listRef: RefObject<HTMLElement | null>;
  /** Enter on the active bug. */
  onOpen: (bug: Bug) => void;
  /** x on the active bug. */
  onToggle?: ((id: string) => void) | undefined;
  /** Keeps a row's measured height with its bug when rows come or go above it. */
  getItemKey?: ((index: number) => Key) | undefined;
  /** Room kept above a row brought to the top (the sticky header). */
  scrollPaddingStart?: number | undefined;
}) {
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = pages;
  const fetchMore = useCallback(() => void fetchNextPage(), [fetchNextPage]);
  const rows = useVirtualRows({
    count: Math.ceil(bugs.length / perRow),
    estimate,
    listRef,
    hasMore: hasNextPage,
    isFetching: isFetchingNextPage,
    fetchMore,
    getItemKey,
    scrollPaddingStart,
  });
  // The row's place as measured so far (estimates beyond): focusBugRow calls again until it is rendered.
  const scrollTo = useCallback(
    (index: number) => {
      const item = rows.virtualizer.measurementsCache[Math.floor(index / perRow)];
      if (item) window.scrollTo({ top: Math.max(item.start - window.innerHeight / 2, 0), behavior: 'instant' });
    },
    [rows.virtualizer, perRow],
  );
  const [activeId, setActiveId] = useState<string | null>(null);
  // End: every page first, then the last bug (issue 40: any size, from the keyboard).
  const [toEnd, setToEnd] = useState(false);
  useEffect(() => {
    if (!toEnd) return;
    if (hasNextPage) {
      if (!isFetchingNextPage) void fetchNextPage();
      return;
    }
    setToEnd(false);
    const last = bugs.at(-1);
    if (!last) return;
    setActiveId(last._id);
    const at = bugs.length - 1;
    focusBugRow(last._id, () => scrollTo(at));
  }, [toEnd, hasNextPage, isFetchingNextPage, fetchNextPage, bugs, scrollTo]);

  useListKeys({ bugs, activeId, setActiveId, onOpen, onToggle, scrollTo, onEnd: () => setToEnd(true) });

  return { rows, activeId, setActiveId, scrollTo, isLoadingMore: isFetchingNextPage || toEnd };
}
