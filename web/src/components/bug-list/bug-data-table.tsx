import type { FieldDto } from '@bugtrail/domain/vocabulary';
import { useQuery } from '@tanstack/react-query';
import { format } from 'date-fns';
import { ArrowDown, ArrowUp, ArrowUpDown } from 'lucide-react';
import type { RefObject } from 'react';
import { fieldText } from '../../lib/fields';
import { assigneeNames, bugName, bugTitle, formatTableDate } from '../../lib/format';
import { teamQuery } from '../../lib/queries';
import type { Bug, Role } from '../../lib/types';
import { LabelChips } from '../labels/label-chip';
import { PriorityBadge, SeverityBadge, StatusBadge } from '../ui/badge';
import { cx } from '../ui/cx';
import { isOverdue, nextSort, type SortColumn } from './list-search';

/** A field column's next order: up, down, then the list's own. */
const nextFieldSort = (current: string | undefined, key: string) =>
  current === key ? `-${key}` : current === `-${key}` ? undefined : key;

import type { VirtualRows } from './use-virtual-rows';

type Column = { key: SortColumn; label: string; className: string };

/** Widths fit 1280 px with the sidebar (no sideways scroll); lesser columns drop out on narrow boxes. */
const columns: Column[] = [
  { key: 'number', label: 'Key', className: 'w-20' },
  { key: 'title', label: 'Title', className: '' },
  { key: 'status', label: 'Status', className: 'w-28 @lg:w-32' },
  { key: 'priority', label: 'Priority', className: 'hidden w-24 @2xl:table-cell' },
  { key: 'severity', label: 'Severity', className: 'hidden w-24 @3xl:table-cell' },
  { key: 'assignees', label: 'Assignees', className: 'hidden w-32 @4xl:table-cell' },
  { key: 'due', label: 'Due', className: 'hidden w-24 @lg:table-cell' },
  { key: 'updated', label: 'Updated', className: 'hidden w-24 @5xl:table-cell' },
];

/** At most this many of a project's custom fields are columns (issue 37); on wide boxes only. */
export const MAX_FIELD_COLUMNS = 3;
/** The first field column from a wide box on, the others on the widest (the title keeps its room). */
const fieldColumnClass = (index: number) =>
  index === 0 ? 'hidden w-28 @4xl:table-cell' : 'hidden w-28 @6xl:table-cell';
/** Multi-selects and people have no one order: their headers do not sort. */
const sortableField = (field: FieldDto) => field.type !== 'multi_select' && field.type !== 'user';

/** "24 Nov", or "24 Nov 2025" outside this year: fits a narrow column on one line. */
function shortDate(value: string): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '—';
  return format(date, date.getFullYear() === new Date().getFullYear() ? 'd MMM' : 'd MMM yyyy');
}

/**
 * The dense view of a bug list: sortable column headers (the order lives in the URL),
 * an active row the keyboard moves (j/k, Enter opens, x selects) and, for admins, a
 * selection for bulk actions. Overdue due dates are red and say so.
 */
export function BugDataTable({
  bugs,
  rows,
  total,
  listRef,
  viewAs,
  sort,
  onSort,
  activeId,
  onActivate,
  onOpen,
  selected,
  onToggle,
  onToggleAll,
  fields = [],
}: {
  bugs: Bug[];
  /** The window of rows in the DOM (use-virtual-rows). */
  rows: VirtualRows;
  /** Every bug of the list, all pages (aria-rowcount). */
  total: number;
  listRef: RefObject<HTMLTableSectionElement | null>;
  viewAs: Role;
  sort: string | undefined;
  onSort: (sort: string | undefined) => void;
  activeId: string | null;
  onActivate: (id: string) => void;
  onOpen: (bug: Bug) => void;
  selected?: ReadonlySet<string> | undefined;
  onToggle?: ((id: string) => void) | undefined;
  onToggleAll?: (() => void) | undefined;
  /** The custom fields of the one project the list shows: a column each (the first MAX_FIELD_COLUMNS). */
  fields?: readonly FieldDto[] | undefined;
}) {
  const selectable = selected !== undefined && onToggle !== undefined;
  const shownFields = fields.slice(0, MAX_FIELD_COLUMNS);
  const team = useQuery({ ...teamQuery(), enabled: shownFields.some((f) => f.type === 'user'), staleTime: 60_000 });
  const names = new Map((team.data ?? []).map((p) => [p._id, p.name]));
  const columnCount = columns.length + shownFields.length + (selectable ? 1 : 0);
  const allSelected = selectable && bugs.length > 0 && bugs.every((b) => selected.has(b._id));
  return (
    <div className="@container">
      <table className="w-full table-fixed text-left text-sm" aria-rowcount={total + 1}>
        <thead className="border-b border-slate-200 bg-slate-50/70 text-xs font-semibold tracking-wide text-slate-500 uppercase">
          <tr aria-rowindex={1}>
            {selectable ? (
              <th scope="col" className="w-10 py-2 pl-4">
                <input
                  type="checkbox"
                  aria-label="Select all shown bugs"
                  checked={allSelected}
                  onChange={onToggleAll}
                  className="size-4 accent-brand-600"
                />
              </th>
            ) : null}
            {columns.map((column) => {
              const direction = sort === column.key ? 'ascending' : sort === `-${column.key}` ? 'descending' : null;
              const Icon = direction === 'ascending' ? ArrowUp : direction === 'descending' ? ArrowDown : ArrowUpDown;
              return (
                <th
                  key={column.key}
                  scope="col"
                  aria-sort={direction ?? 'none'}
                  className={cx('px-3 py-2', column.className)}
                >
                  <button
                    type="button"
                    onClick={() => onSort(nextSort(sort, column.key))}
                    className="inline-flex items-center gap-1 rounded uppercase hover:text-slate-900"
                  >
                    {column.label}
                    <span className="sr-only">, sort</span>
                    <Icon
                      className={cx('size-3', direction ? 'text-brand-600' : 'text-slate-300')}
                      aria-hidden="true"
                    />
                  </button>
                </th>
              );
            })}
            {shownFields.map((field, index) => {
              const key = `field.${field.key}`;
              const direction = sort === key ? 'ascending' : sort === `-${key}` ? 'descending' : null;
              const Icon = direction === 'ascending' ? ArrowUp : direction === 'descending' ? ArrowDown : ArrowUpDown;
              return (
                <th
                  key={field._id}
                  scope="col"
                  aria-sort={sortableField(field) ? (direction ?? 'none') : undefined}
                  className={cx('truncate px-3 py-2', fieldColumnClass(index))}
                  title={field.name}
                >
                  {sortableField(field) ? (
                    <button
                      type="button"
                      onClick={() => onSort(nextFieldSort(sort, key))}
                      className="inline-flex max-w-full items-center gap-1 rounded uppercase hover:text-slate-900"
                    >
                      <span className="truncate">{field.name}</span>
                      <span className="sr-only">, sort</span>
                      <Icon
                        className={cx('size-3 shrink-0', direction ? 'text-brand-600' : 'text-slate-300')}
                        aria-hidden="true"
                      />
                    </button>
                  ) : (
                    field.name
                  )}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody ref={listRef} className="divide-y divide-slate-100">
          {rows.paddingTop > 0 ? (
            // biome-ignore lint/a11y/noAriaHiddenOnFocusable: a spacer row (no tabIndex), the height of the rows not rendered
            <tr aria-hidden="true">
              <td colSpan={columnCount} style={{ height: rows.paddingTop, padding: 0 }} />
            </tr>
          ) : null}
          {rows.items.map((item) => {
            const bug = bugs[item.index];
            if (!bug) return null;
            const active = bug._id === activeId;
            const overdue = isOverdue(bug);
            return (
              <tr
                key={bug._id}
                ref={rows.virtualizer.measureElement}
                data-index={item.index}
                aria-rowindex={item.index + 2}
                data-bug-row={bug._id}
                data-active={active || undefined}
                aria-selected={selectable ? selected.has(bug._id) : undefined}
                tabIndex={active ? 0 : -1}
                onFocus={() => onActivate(bug._id)}
                onClick={() => onOpen(bug)}
                className={cx(
                  'cursor-pointer outline-none hover:bg-slate-50 focus-visible:bg-brand-50/60 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand-500',
                  active && 'bg-brand-50/60 shadow-[inset_3px_0_0_var(--color-brand-500)]',
                )}
              >
                {selectable ? (
                  <td className="py-2 pl-4">
                    <input
                      type="checkbox"
                      aria-label={`Select ${bugName(bug)} ${bugTitle(bug)}`}
                      checked={selected.has(bug._id)}
                      onClick={(event) => event.stopPropagation()}
                      onChange={() => onToggle(bug._id)}
                      className="size-4 accent-brand-600"
                    />
                  </td>
                ) : null}
                <td className="px-3 py-2 font-mono text-xs text-slate-600 tabular-nums">{bugName(bug) || '—'}</td>
                <td className="truncate px-3 py-2 font-medium text-slate-900" title={bugTitle(bug)}>
                  {bug.labels?.length ? (
                    <span className="flex min-w-0 items-center gap-2">
                      <span className="min-w-0 truncate">{bugTitle(bug)}</span>
                      <LabelChips labels={bug.labels} max={2} className="shrink-0 flex-nowrap" />
                    </span>
                  ) : (
                    bugTitle(bug)
                  )}
                </td>
                <td className="px-3 py-2">
                  <StatusBadge status={bug.status} viewAs={viewAs} />
                </td>
                <td className="hidden px-3 py-2 @2xl:table-cell">
                  <PriorityBadge priority={bug.priority} />
                </td>
                <td className="hidden px-3 py-2 @3xl:table-cell">
                  <SeverityBadge severity={bug.severity} />
                </td>
                <td
                  className="hidden truncate px-3 py-2 text-slate-600 @3xl:table-cell"
                  title={assigneeNames(bug.assignedTo)}
                >
                  {assigneeNames(bug.assignedTo)}
                </td>
                <td
                  className={cx(
                    'hidden px-3 py-2 @lg:table-cell',
                    overdue ? 'font-medium text-rose-700' : 'text-slate-600',
                  )}
                >
                  {bug.dueDate ? shortDate(bug.dueDate) : '—'}
                  {overdue ? <span className="block text-xs">Overdue</span> : null}
                  <SlaNote sla={bug.sla} />
                </td>
                <td
                  className="hidden px-3 py-2 whitespace-nowrap text-slate-600 @5xl:table-cell"
                  title={formatTableDate(bug.updatedAt ?? bug.createdAt)}
                >
                  {shortDate(bug.updatedAt ?? bug.createdAt)}
                </td>
                {shownFields.map((field, index) => {
                  const text = fieldText(field, bug.fields?.[field.key], names);
                  return (
                    <td
                      key={field._id}
                      className={cx('truncate px-3 py-2 text-slate-600', fieldColumnClass(index))}
                      title={text}
                    >
                      {text || '—'}
                    </td>
                  );
                })}
              </tr>
            );
          })}
          {rows.paddingBottom > 0 ? (
            // biome-ignore lint/a11y/noAriaHiddenOnFocusable: a spacer row (no tabIndex), the height of the rows not rendered
            <tr aria-hidden="true">
              <td colSpan={columnCount} style={{ height: rows.paddingBottom, padding: 0 }} />
            </tr>
          ) : null}
        </tbody>
      </table>
    </div>
  );
}

/** A row's SLA when it needs attention: breached (red) or at risk (amber); nothing otherwise. */
function SlaNote({ sla }: { sla: Bug['sla'] | undefined }) {
  if (!sla || (sla.breached.length === 0 && !sla.atRisk)) return null;
  const breached = sla.breached.length > 0;
  return (
    <span
      className={cx('block text-xs font-medium', breached ? 'text-rose-700' : 'text-amber-700')}
      title={`SLA ${sla.policy.name}`}
    >
      {breached ? 'SLA breached' : 'SLA at risk'}
    </span>
  );
}
