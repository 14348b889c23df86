import { useWindowVirtualizer, type Virtualizer } from '@tanstack/react-virtual';
import { type Key, type RefObject, useEffect, useLayoutEffect, useState } from 'react';

/** How close to the last loaded row the next page is fetched (rows). */
const FETCH_AHEAD = 30;

/**
 * Windowed rows of a bug list on the page's own scroll (issue 40): only the rows near the
 * viewport are in the DOM, at any list size; the next cursor page is fetched as the
 * window nears the last loaded row (by scroll or by keyboard), so there is no "Load more".
 */
export function useVirtualRows({
  count,
  estimate,
  listRef,
  hasMore,
  isFetching,
  fetchMore,
  getItemKey,
  scrollPaddingStart = 0,
}: {
  count: number;
  estimate: number;
  listRef: RefObject<HTMLElement | null>;
  hasMore: boolean;
  isFetching: boolean;
  fetchMore: () => void;
  /** A row's key for its measured height (the index when not given). */
  getItemKey?: ((index: number) => Key) | undefined;
  /** Room scrollToIndex keeps above a row it brings to the top (the sticky header). */
  scrollPaddingStart?: number | undefined;
}) {
  // Where the list starts on the page: the toolbar above it may grow (filters wrap).
  const [margin, setMargin] = useState(0);
  useLayoutEffect(() => {
    const measure = () => {
      const el = listRef.current;
      if (!el) return;
      const top = Math.round(el.getBoundingClientRect().top + window.scrollY);
      setMargin((current) => (current === top ? current : top));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(document.body);
    return () => observer.disconnect();
  }, [listRef]);

  const virtualizer = useWindowVirtualizer({
    count,
    estimateSize: () => estimate,
    overscan: 6,
    scrollMargin: margin,
    scrollPaddingStart,
    ...(getItemKey ? { getItemKey } : {}),
  });
  const items = virtualizer.getVirtualItems();
  const lastShown = items.at(-1)?.index ?? -1;
  useEffect(() => {
    if (hasMore && !isFetching && count > 0 && lastShown >= count - FETCH_AHEAD) fetchMore();
  }, [hasMore, isFetching, count, lastShown, fetchMore]);

  const first = items[0];
  const last = items.at(-1);
  const paddingTop = first ? first.start - margin : 0;
  const paddingBottom = last ? Math.max(virtualizer.getTotalSize() - (last.end - margin), 0) : 0;
  return { virtualizer, items, paddingTop, paddingBottom };
}

export type VirtualRows = ReturnType<typeof useVirtualRows>;
export type { Virtualizer };
