import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { Bug as BugIcon } from 'lucide-react';
import { type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { projectFieldsQuery } from '../../lib/fields';
import { flattenPages } from '../../lib/queries';
import type { Bug, Role } from '../../lib/types';
import { useErrorToast } from '../../lib/use-error-toast';
import { BugCardGrid, useCardColumns } from '../bug-card-grid';
import { Card } from '../ui/card';
import { EmptyState } from '../ui/empty-state';
import { SkeletonRows } from '../ui/skeleton';
import { BugDataTable } from './bug-data-table';
import { BugListToolbar } from './bug-list-toolbar';
import { BulkActions } from './bulk-actions';
import { bugListPagesQuery, type ListEndpoint } from './list-query';
import { type ListSearch, type ListView, listApiParams, storedView, storeView } from './list-search';
import { LoadingMore } from './loading-more';
import { SaveViewDialog } from './save-view-dialog';
import { useWindowedList } from './use-windowed-list';

/**
 * A bug list people can work in (issue 16): cards or a dense table, filters and order in
 * the URL, cursor pages with the total, j/k/Enter/x from the keyboard, saved views and,
 * for admins, bulk actions on the selection.
 */
export function BugList({
  endpoint,
  viewAs,
  status,
  search,
  onSearch,
  onOpen,
  onDelete,
  bulk = false,
  emptyTitle,
  showAssignee = true,
  showReporter = true,
  failure = 'Failed to load bugs',
  filters,
  defaultView,
  scope,
}: {
  endpoint: ListEndpoint;
  viewAs: Role;
  /** The page's status tab, in its own words (the API reads them all). */
  status?: string | undefined;
  search: ListSearch;
  onSearch: (patch: Partial<ListSearch>) => void;
  onOpen: (bug: Bug) => void;
  onDelete?: ((bug: Bug) => void) | undefined;
  bulk?: boolean;
  emptyTitle: string;
  showAssignee?: boolean;
  showReporter?: boolean;
  failure?: string;
  /** A page's own filter control, shown first in the filter row. */
  filters?: ReactNode;
  /** The view when the URL names none (the spec's tables stay tables); else the last one chosen. */
  defaultView?: ListView;
  /** What the page itself narrows to, beyond the URL's filters (a project's page: `project`, `triage`). */
  scope?: Record<string, string>;
}) {
  const scopeKey = JSON.stringify(scope ?? {});
  const params = useMemo(
    () => ({ ...listApiParams({ ...search, status }), ...(JSON.parse(scopeKey) as Record<string, string>) }),
    [search, status, scopeKey],
  );
  const query = useInfiniteQuery(bugListPagesQuery(endpoint, params));
  useErrorToast(query.error, failure);
  const bugs = flattenPages(query.data);
  const total = query.data?.pages[0]?.total;
  const view: ListView = search.view ?? defaultView ?? storedView();
  // The one project the list shows, when it shows one: its custom fields filter, sort and are columns.
  const projectId = scope?.project ?? (search.project && !search.project.includes(',') ? search.project : undefined);
  const projectFields = useQuery({
    ...projectFieldsQuery(projectId ?? ''),
    enabled: !!projectId && view === 'table',
  });
  const columns = useCardColumns();
  const perRow = view === 'table' ? 1 : columns;
  const tableRef = useRef<HTMLTableSectionElement | null>(null);
  const cardsRef = useRef<HTMLDivElement | null>(null);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [saving, setSaving] = useState(false);
  // The bulk bar stays (with its results) until dismissed, even when deleted bugs leave the selection.
  const [bulkShown, setBulkShown] = useState(false);
  useEffect(() => {
    if (selected.size > 0) setBulkShown(true);
  }, [selected.size]);

  // A selection only holds bugs still in the list.
  useEffect(() => {
    setSelected((current) => {
      const ids = new Set(bugs.map((b) => b._id));
      const kept = [...current].filter((id) => ids.has(id));
      return kept.length === current.size ? current : new Set(kept);
    });
  }, [bugs]);

  const toggle = useCallback((id: string) => {
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  }, []);

  const { rows, activeId, setActiveId, isLoadingMore } = useWindowedList({
    bugs,
    pages: query,
    perRow,
    estimate: view === 'table' ? 45 : 236,
    listRef: view === 'table' ? tableRef : cardsRef,
    onOpen,
    onToggle: bulk ? toggle : undefined,
  });

  const setView = (next: ListView) => {
    storeView(next);
    onSearch({ view: next });
  };

  const selectedBugs = bugs.filter((b) => selected.has(b._id));
  return (
    <>
      <BugListToolbar
        search={search}
        view={view}
        onChange={onSearch}
        onView={setView}
        onSaveView={() => setSaving(true)}
        showAssignee={showAssignee}
        showReporter={showReporter}
        before={filters}
        projectId={projectId}
      />
      {bulk && bulkShown ? (
        <BulkActions
          bugs={selectedBugs}
          onClear={() => {
            setSelected(new Set());
            setBulkShown(false);
          }}
        />
      ) : null}
      <p className="sr-only" aria-live="polite">
        {query.isPending ? '' : `${total ?? bugs.length} bugs`}
      </p>
      {view === 'table' ? (
        <Card className="overflow-hidden">
          {query.isPending ? (
            <SkeletonRows rows={6} />
          ) : bugs.length === 0 ? (
            <EmptyState icon={<BugIcon className="size-6" />} title={emptyTitle} />
          ) : (
            <BugDataTable
              bugs={bugs}
              rows={rows}
              total={total ?? bugs.length}
              listRef={tableRef}
              viewAs={viewAs}
              sort={search.sort}
              onSort={(sort) => onSearch({ sort })}
              activeId={activeId}
              onActivate={setActiveId}
              onOpen={onOpen}
              fields={projectId ? projectFields.data?.fields : undefined}
              selected={bulk ? selected : undefined}
              onToggle={bulk ? toggle : undefined}
              onToggleAll={
                bulk
                  ? () =>
                      setSelected((current) =>
                        bugs.every((b) => current.has(b._id)) ? new Set() : new Set(bugs.map((b) => b._id)),
                      )
                  : undefined
              }
            />
          )}
          <LoadingMore isLoading={isLoadingMore} />
        </Card>
      ) : (
        <>
          <BugCardGrid
            bugs={bugs}
            isPending={query.isPending}
            rows={rows}
            columns={columns}
            listRef={cardsRef}
            total={total ?? bugs.length}
            viewAs={viewAs}
            emptyTitle={emptyTitle}
            onOpen={onOpen}
            onDelete={onDelete}
            activeId={activeId}
            onActivate={setActiveId}
          />
          <LoadingMore isLoading={isLoadingMore} />
        </>
      )}
      {total !== undefined && !query.hasNextPage && bugs.length > 0 ? (
        <p className="mt-3 text-center text-xs text-slate-500">
          {total.toLocaleString('en-US')} {total === 1 ? 'bug' : 'bugs'}
        </p>
      ) : null}
      <SaveViewDialog isOpen={saving} onClose={() => setSaving(false)} />
    </>
  );
}
