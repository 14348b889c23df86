import { bugStatuses } from '@bugtrail/domain/vocabulary';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { createFileRoute, useRouter } from '@tanstack/react-router';
import { Bug as BugIcon, Check, ChevronDown } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { ProgressBar } from '../../components/bug-detail';
import { LoadMore } from '../../components/load-more';
import { PageHeader } from '../../components/page-header';
import { PriorityBadge, SeverityBadge, StatusBadge } from '../../components/ui/badge';
import { Card } from '../../components/ui/card';
import { cx } from '../../components/ui/cx';
import { EmptyState } from '../../components/ui/empty-state';
import { SkeletonRows } from '../../components/ui/skeleton';
import { bugTitle, checklistProgress, formatDate, statusLabel } from '../../lib/format';
import { toggleChecklistItem, useUpdateChecklist, useUpdateStatus } from '../../lib/mutations';
import { bugListQuery, flattenPages } from '../../lib/queries';
import { compact, pickText } from '../../lib/search';
import { profileQuery } from '../../lib/session';
import type { Bug, User } from '../../lib/types';
import { useErrorToast } from '../../lib/use-error-toast';

export const Route = createFileRoute('/developer/update-bugs')({
  validateSearch: (search: Record<string, unknown>) => compact({ open: pickText(search.open, 100) }),
  loader: ({ context }) => {
    void context.queryClient.prefetchInfiniteQuery(bugListQuery({}));
  },
  component: UpdateBugsPage,
});

function UpdateBugsPage() {
  const { open } = Route.useSearch();
  const { data: user } = useQuery(profileQuery());
  const query = useInfiniteQuery(bugListQuery({}));
  useErrorToast(query.error, 'Failed to load assigned bugs', { preferServer: true });
  const bugs = flattenPages(query.data);
  const [expanded, setExpanded] = useState<string | null>(open ?? null);
  // A new deep link on the same page (another ?open=) opens that row instead.
  const [linked, setLinked] = useState(open);
  if (linked !== open) {
    setLinked(open);
    setExpanded(open ?? null);
  }
  const isLinkedLoaded = !open || bugs.some((bug) => bug._id === open);
  const { hasNextPage, isFetchingNextPage, isPending, fetchNextPage } = query;
  // The linked bug may sit on a later page: keep loading until it shows or the list ends.
  useEffect(() => {
    if (!isLinkedLoaded && !isPending && hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [isLinkedLoaded, isPending, hasNextPage, isFetchingNextPage, fetchNextPage]);
  return (
    <>
      <PageHeader title="Update Bug Status" subtitle="Move your bugs forward and tick off checklist items." />
      <Card className="overflow-hidden">
        {query.isPending ? (
          <SkeletonRows rows={6} />
        ) : bugs.length === 0 ? (
          <EmptyState icon={<BugIcon className="size-6" />} title="No bugs assigned to you" />
        ) : (
          <ul className="divide-y divide-slate-100">
            {bugs.map((bug) => (
              <BugRow
                key={bug._id}
                bug={bug}
                user={user}
                isExpanded={expanded === bug._id}
                isLinked={open === bug._id}
                onToggle={() => setExpanded((current) => (current === bug._id ? null : bug._id))}
              />
            ))}
          </ul>
        )}
        <LoadMore
          hasMore={query.hasNextPage}
          isLoading={query.isFetchingNextPage}
          onLoad={() => void query.fetchNextPage()}
          shown={bugs.length}
        />
      </Card>
    </>
  );
}

/**
 * One bug, folded or open. The row a deep link names (`?open=<id>`, from the bug's page)
 * is brought into view under the sticky header, takes the focus and stays highlighted.
 */
function BugRow({
  bug,
  user,
  isExpanded,
  isLinked,
  onToggle,
}: {
  bug: Bug;
  user: User | undefined;
  isExpanded: boolean;
  isLinked: boolean;
  onToggle: () => void;
}) {
  const panelId = useId();
  const router = useRouter();
  const rowRef = useRef<HTMLLIElement>(null);
  const toggleRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!isLinked) return;
    // The page's own scroll behaviour (smooth, or instant under reduced motion), the same
    // as the router's: of two smooth scrolls the later one wins, of two instant ones too.
    const bringIntoView = () => {
      rowRef.current?.scrollIntoView({ block: 'start' });
      toggleRef.current?.focus({ preventScroll: true });
    };
    bringIntoView();
    // When the row is there on the first render, the router then resets (or restores) the
    // page's scroll; come back to the row right after it has.
    const unsubscribe = router.subscribe('onRendered', () => {
      unsubscribe();
      bringIntoView();
    });
    return unsubscribe;
  }, [isLinked, router]);
  const updateStatus = useUpdateStatus();
  const updateChecklist = useUpdateChecklist(user ?? { _id: '', name: '' });
  const done = bug.checklist.filter((item) => item.completed).length;
  return (
    <li
      ref={rowRef}
      data-highlighted={isLinked || undefined}
      className={cx('scroll-mt-20', isLinked && 'bg-brand-50/50 ring-2 ring-brand-300 ring-inset')}
    >
      <button
        ref={toggleRef}
        type="button"
        onClick={onToggle}
        aria-expanded={isExpanded}
        aria-controls={panelId}
        className="flex w-full items-center gap-4 px-5 py-4 text-left hover:bg-slate-50"
      >
        <div className="min-w-0 flex-1">
          <p className="truncate font-semibold text-slate-900">{bugTitle(bug)}</p>
          <p className="mt-0.5 text-xs text-slate-500">Due {formatDate(bug.dueDate)}</p>
        </div>
        <div className="hidden gap-1.5 sm:flex">
          <PriorityBadge priority={bug.priority} />
          <SeverityBadge severity={bug.severity} />
        </div>
        <StatusBadge status={bug.status} viewAs="developer" />
        <ChevronDown
          className={cx('size-5 shrink-0 text-slate-400 transition', isExpanded && 'rotate-180')}
          aria-hidden="true"
        />
      </button>
      {isExpanded ? (
        <div
          id={panelId}
          className="grid grid-cols-1 gap-6 border-t border-slate-100 bg-slate-50/60 px-5 py-5 lg:grid-cols-2"
        >
          <div>
            <p className="text-sm font-semibold text-slate-900">Status</p>
            {/* biome-ignore lint/a11y/useSemanticElements: a segmented control, not a form section */}
            <div
              className="mt-3 inline-flex rounded-lg bg-white p-1 ring-1 ring-slate-200"
              role="group"
              aria-label="Set status"
            >
              {bugStatuses.map((status) => {
                const isCurrent = bug.status === status;
                return (
                  <button
                    key={status}
                    type="button"
                    disabled={isCurrent || updateStatus.isPending}
                    aria-pressed={isCurrent}
                    onClick={() => updateStatus.mutate({ id: bug._id, status })}
                    className={cx(
                      'rounded-md px-3.5 py-1.5 text-sm font-medium transition',
                      isCurrent
                        ? 'bg-brand-600 text-white shadow-sm'
                        : 'text-slate-600 hover:bg-slate-100 disabled:opacity-60',
                    )}
                  >
                    {statusLabel(status, 'developer')}
                  </button>
                );
              })}
            </div>
            <p className="mt-4 text-sm leading-6 text-slate-600">{bug.description}</p>
          </div>
          <div>
            <div className="flex items-center justify-between">
              <p className="text-sm font-semibold text-slate-900">Checklist</p>
              <p className="text-sm text-slate-500">
                {done} of {bug.checklist.length} completed
              </p>
            </div>
            <div className="mt-3">
              <ProgressBar percent={checklistProgress(bug.checklist)} />
            </div>
            {bug.checklist.length === 0 ? (
              <p className="mt-3 text-sm text-slate-500">No checklist items</p>
            ) : (
              <ul className="mt-3 space-y-1.5">
                {bug.checklist.map((item, index) => (
                  <li key={item._id ?? index}>
                    <label className="flex cursor-pointer items-start gap-3 rounded-lg bg-white px-3 py-2.5 ring-1 ring-slate-200 focus-within:ring-2 focus-within:ring-brand-300 hover:ring-brand-200">
                      <input
                        type="checkbox"
                        className="sr-only"
                        checked={item.completed}
                        onChange={() =>
                          user &&
                          updateChecklist.mutate({
                            id: bug._id,
                            checklist: toggleChecklistItem(bug.checklist, index, user, new Date()),
                          })
                        }
                      />
                      <span
                        aria-hidden="true"
                        className={cx(
                          'mt-0.5 flex size-4 shrink-0 items-center justify-center rounded border',
                          item.completed ? 'border-lime-600 bg-lime-600 text-white' : 'border-slate-300 bg-white',
                        )}
                      >
                        {item.completed ? <Check className="size-3" strokeWidth={3} /> : null}
                      </span>
                      <span
                        className={cx('text-sm', item.completed ? 'text-slate-500 line-through' : 'text-slate-800')}
                      >
                        {item.text}
                      </span>
                    </label>
                  </li>
                ))}
              </ul>
            )}
          </div>
        </div>
      ) : null}
    </li>
  );
}
