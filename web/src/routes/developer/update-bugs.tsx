import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { createFileRoute, useRouter } from '@tanstack/react-router';
import { Bug as BugIcon } from 'lucide-react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { bugListPagesQuery } from '../../components/bug-list/list-query';
import { LoadingMore } from '../../components/bug-list/loading-more';
import type { VirtualRows } from '../../components/bug-list/use-virtual-rows';
import { useWindowedList } from '../../components/bug-list/use-windowed-list';
import { PageHeader } from '../../components/page-header';
import { Card } from '../../components/ui/card';
import { EmptyState } from '../../components/ui/empty-state';
import { SkeletonRows } from '../../components/ui/skeleton';
import { flattenPages } from '../../lib/queries';
import { compact, pickText } from '../../lib/search';
import { profileQuery } from '../../lib/session';
import { useErrorToast } from '../../lib/use-error-toast';
import { BugRow } from './-components/update-bug-row';

/** The developer's scope on GET /api/bugs, unfiltered: the same pages as Assigned Bugs with no filter. */
const assignedBugsQuery = bugListPagesQuery('/api/bugs', {});

export const Route = createFileRoute('/developer/update-bugs')({
  validateSearch: (search: Record<string, unknown>) => compact({ open: pickText(search.open, 100) }),
  loader: ({ context }) => {
    void context.queryClient.prefetchInfiniteQuery(assignedBugsQuery);
  },
  component: UpdateBugsPage,
});

/** A folded row's height (px), before it is measured; an open one is measured as it renders. */
const ROW_ESTIMATE = 75;
/** Room above a row brought to the top of the page: the sticky header (h-16) and a gap. */
const HEADER_ROOM = 80;

function UpdateBugsPage() {
  const { open } = Route.useSearch();
  const { data: user } = useQuery(profileQuery());
  const query = useInfiniteQuery(assignedBugsQuery);
  useErrorToast(query.error, 'Failed to load assigned bugs', { preferServer: true });
  const bugs = useMemo(() => flattenPages(query.data), [query.data]);
  const [expanded, setExpanded] = useState<string | null>(open ?? null);
  // A new deep link on the same page (another ?open=) opens that row instead.
  const [linked, setLinked] = useState(open);
  if (linked !== open) {
    setLinked(open);
    setExpanded(open ?? null);
  }
  const toggle = useCallback((id: string) => setExpanded((current) => (current === id ? null : id)), []);
  const listRef = useRef<HTMLUListElement | null>(null);
  const getItemKey = useCallback((index: number) => bugs[index]?._id ?? index, [bugs]);
  // The lists' own machinery: windowed rows, pages loaded on the way, j/k, Home/End, Enter.
  const { rows, setActiveId, isLoadingMore } = useWindowedList({
    bugs,
    pages: query,
    estimate: ROW_ESTIMATE,
    listRef,
    onOpen: (bug) => toggle(bug._id),
    getItemKey,
    scrollPaddingStart: HEADER_ROOM,
  });
  const linkedIndex = open ? bugs.findIndex((bug) => bug._id === open) : -1;
  const { hasNextPage, isFetchingNextPage, isPending, fetchNextPage } = query;
  // The linked bug may sit on a later page: keep loading until it shows or the list ends.
  useEffect(() => {
    if (open && linkedIndex < 0 && !isPending && hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [open, linkedIndex, isPending, hasNextPage, isFetchingNextPage, fetchNextPage]);
  useBringLinkedRow(open, linkedIndex, rows.virtualizer, setActiveId);
  return (
    <>
      <PageHeader title="Update Bug Status" subtitle="Move your bugs forward and tick off checklist items." />
      <Card className="overflow-hidden">
        {query.isPending ? (
          <SkeletonRows rows={6} />
        ) : bugs.length === 0 ? (
          <EmptyState icon={<BugIcon className="size-6" />} title="No bugs assigned to you" />
        ) : (
          <ul ref={listRef} style={{ paddingTop: rows.paddingTop, paddingBottom: rows.paddingBottom }}>
            {rows.items.map((item) => {
              const bug = bugs[item.index];
              if (!bug) return null;
              return (
                <BugRow
                  key={bug._id}
                  index={item.index}
                  measure={rows.virtualizer.measureElement}
                  bug={bug}
                  user={user}
                  isExpanded={expanded === bug._id}
                  isLinked={open === bug._id}
                  onToggle={() => toggle(bug._id)}
                  onActivate={() => setActiveId(bug._id)}
                />
              );
            })}
          </ul>
        )}
        <LoadingMore isLoading={isLoadingMore} />
      </Card>
    </>
  );
}

/**
 * The row a deep link names (`?open=<id>`, from the bug's page) is brought to the top of
 * the page under the sticky header, once it has loaded, and its toggle takes the focus. The
 * virtualizer scrolls there (rows measured on the way move it: it follows until it is still).
 * When the row is there on the first render, the router then resets (or restores) the
 * page's scroll: come back to the row right after it has. Once per link: scrolling away and
 * back later does not pull the page to it again.
 */
function useBringLinkedRow(
  open: string | undefined,
  index: number,
  virtualizer: VirtualRows['virtualizer'],
  setActiveId: (id: string) => void,
) {
  const router = useRouter();
  const at = useRef(index);
  at.current = index;
  const isLoaded = index >= 0;
  useEffect(() => {
    if (!open || !isLoaded) return;
    let frame = 0;
    const bring = () => {
      cancelAnimationFrame(frame);
      if (at.current < 0) return;
      setActiveId(open);
      // The page's own scroll behaviour (smooth, or instant under reduced motion), the same
      // as the router's: of two smooth scrolls the later one wins, of two instant ones too.
      virtualizer.scrollToIndex(at.current, { align: 'start', behavior: 'auto' });
      let tries = 120;
      const focus = () => {
        const toggle = document.querySelector<HTMLElement>(`[data-bug-row="${CSS.escape(open)}"]`);
        if (!toggle) {
          if (tries-- > 0) frame = requestAnimationFrame(focus);
          return;
        }
        toggle.focus({ preventScroll: true });
        // Rendered, the open row is measured: aim again, now that its height is known (the
        // first aim at the last rows stopped where the estimated list ended).
        virtualizer.scrollToIndex(at.current, { align: 'start', behavior: 'auto' });
      };
      focus();
    };
    bring();
    const unsubscribe = router.subscribe('onRendered', () => {
      unsubscribe();
      bring();
    });
    return () => {
      unsubscribe();
      cancelAnimationFrame(frame);
    };
  }, [open, isLoaded, router, virtualizer, setActiveId]);
}
