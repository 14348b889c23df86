import { useQuery } from '@tanstack/react-query';
import { Bookmark, LayoutGrid, Search, Table2, X } from 'lucide-react';
import type { ReactNode } from 'react';
import { teamQuery } from '../../lib/queries';
import { useUrlText } from '../../lib/use-url-text';
import { LabelFilter } from '../labels/label-filter';
import { Button } from '../ui/button';
import { cx } from '../ui/cx';
import { controlClass } from '../ui/field';
import { personOptionText } from '../ui/person-name';
import { FieldFilters, useFieldSorts } from './field-filters';
import { FilterSelect, ModuleFilter, MultiFilter } from './list-filters';
import { filterKeys, hasFilters, type ListSearch, type ListView } from './list-search';

const sortLabels: [string, string][] = [
  ['', 'Newest first'],
  ['created', 'Oldest first'],
  ['-updated', 'Recently updated'],
  ['-number', 'Number, high to low'],
  ['number', 'Number, low to high'],
  ['title', 'Title, A to Z'],
  ['-priority', 'Priority, high first'],
  ['-severity', 'Severity, worst first'],
  ['due', 'Due date, soonest first'],
  ['status', 'Status'],
  ['assignees', 'Assignee, A to Z'],
];

/**
 * The controls above a list: text search, filters, the order (for the cards; the table
 * sorts from its headers too), the cards/table switch and "Save view". Every change is
 * a new URL, so the browser's back button and a shared link show the same list.
 */
export function BugListToolbar({
  search,
  view,
  onChange,
  onView,
  onSaveView,
  showAssignee,
  showReporter,
  before,
  projectId,
}: {
  search: ListSearch;
  view: ListView;
  onChange: (next: Partial<ListSearch>) => void;
  onView: (view: ListView) => void;
  onSaveView?: (() => void) | undefined;
  showAssignee: boolean;
  showReporter: boolean;
  /** A page's own filter (the developer's status select), first in the filter row. */
  before?: ReactNode;
  /** The one project the list shows, when it shows one: its custom fields filter and sort it. */
  projectId?: string | undefined;
}) {
  const fieldSorts = useFieldSorts(projectId);
  const team = useQuery({ ...teamQuery(), enabled: showAssignee || showReporter, staleTime: 60_000 });
  const people = team.data ?? [];
  const developers = people.filter((p) => p.role === 'developer');
  const reporters = people.filter((p) => p.role === 'tester' || p.role === 'admin');
  const [text, setText] = useUrlText(search.q ?? '', (q) => onChange({ q: q || undefined }), 250);

  return (
    <div className="mb-4 flex flex-col gap-3">
      <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
        <div className="relative min-w-0 flex-1">
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
            placeholder="Search by title or description, or #42"
            className={cx(controlClass(), 'h-9 pl-9')}
          />
        </div>
        <div className="flex gap-2">
          <fieldset className="inline-flex rounded-lg ring-1 ring-slate-200">
            <legend className="sr-only">View</legend>
            <button
              type="button"
              aria-pressed={view === 'cards'}
              onClick={() => onView('cards')}
              className={cx(
                'inline-flex h-9 items-center gap-1.5 rounded-l-lg px-3 text-sm',
                view === 'cards'
                  ? 'bg-brand-50 font-medium text-brand-700'
                  : 'bg-white text-slate-600 hover:bg-slate-50',
              )}
            >
              <LayoutGrid className="size-4" aria-hidden="true" /> Cards
            </button>
            <button
              type="button"
              aria-pressed={view === 'table'}
              onClick={() => onView('table')}
              className={cx(
                'inline-flex h-9 items-center gap-1.5 rounded-r-lg px-3 text-sm',
                view === 'table'
                  ? 'bg-brand-50 font-medium text-brand-700'
                  : 'bg-white text-slate-600 hover:bg-slate-50',
              )}
            >
              <Table2 className="size-4" aria-hidden="true" /> Table
            </button>
          </fieldset>
          {onSaveView ? (
            <Button
              variant="secondary"
              size="sm"
              className="h-9"
              onClick={onSaveView}
              icon={<Bookmark className="size-4" />}
            >
              Save view
            </Button>
          ) : null}
        </div>
      </div>
      <div className="grid grid-cols-2 gap-2 sm:flex sm:flex-wrap sm:items-center">
        {before}
        <MultiFilter
          label="Priority"
          value={search.priority}
          onChange={(v) => onChange({ priority: v })}
          options={[
            ['High', 'High'],
            ['Medium', 'Medium'],
            ['Low', 'Low'],
          ]}
        />
        <MultiFilter
          label="Severity"
          value={search.severity}
          onChange={(v) => onChange({ severity: v })}
          options={[
            ['Critical', 'Critical'],
            ['Major', 'Major'],
            ['Minor', 'Minor'],
          ]}
        />
        <LabelFilter value={search.label} onChange={(v) => onChange({ label: v })} />
        {showAssignee ? (
          <MultiFilter
            label="Assignee"
            value={search.assignee}
            onChange={(v) => onChange({ assignee: v })}
            options={[['none', 'Unassigned'], ...developers.map((d): [string, string] => [d._id, personOptionText(d)])]}
          />
        ) : null}
        {showReporter ? (
          <MultiFilter
            label="Reporter"
            value={search.reporter}
            onChange={(v) => onChange({ reporter: v })}
            options={reporters.map((r): [string, string] => [r._id, personOptionText(r)])}
          />
        ) : null}
        <FilterSelect
          label="Due"
          value={search.due ?? ''}
          onChange={(v) => onChange({ due: (v || undefined) as ListSearch['due'] })}
          options={[
            ['', 'Any due date'],
            ['overdue', 'Overdue'],
            ['week', 'Due this week'],
            ['none', 'No due date'],
          ]}
        />
        <FilterSelect
          label="SLA"
          value={search.sla ?? ''}
          onChange={(v) => onChange({ sla: (v || undefined) as ListSearch['sla'] })}
          options={[
            ['', 'Any SLA'],
            ['at_risk', 'SLA at risk'],
            ['breached', 'SLA breached'],
          ]}
        />
        <ModuleFilter value={search.module ?? ''} onChange={(v) => onChange({ module: v || undefined })} />
        {projectId ? (
          <FieldFilters projectId={projectId} value={search.field} onChange={(v) => onChange({ field: v })} />
        ) : null}
        <FilterSelect
          label="Sort"
          value={search.sort ?? ''}
          onChange={(v) => onChange({ sort: v || undefined })}
          options={[...sortLabels, ...fieldSorts]}
        />
        {hasFilters(search) ? (
          <Button
            variant="ghost"
            size="sm"
            className="h-9"
            icon={<X className="size-4" />}
            onClick={() => onChange(Object.fromEntries(filterKeys.map((key) => [key, undefined])))}
          >
            Clear filters
          </Button>
        ) : null}
      </div>
    </div>
  );
}
