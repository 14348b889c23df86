import { useQuery } from '@tanstack/react-query';
import { Rows3, Search, X } from 'lucide-react';
import { MultiFilter } from '../../../../components/bug-list/list-filters';
import { LabelFilter } from '../../../../components/labels/label-filter';
import { Button } from '../../../../components/ui/button';
import { cx } from '../../../../components/ui/cx';
import { controlClass } from '../../../../components/ui/field';
import { personOptionText } from '../../../../components/ui/person-name';
import { developersQuery } from '../../../../lib/queries';
import { useUrlText } from '../../../../lib/use-url-text';
import { type BoardSearch, boardFilterKeys } from './board-search';

export { type BoardSearch, boardFilterKeys } from './board-search';

/** The filters above the board, as the lists have them (api.md "Board": "Filters as in lists"), and the lanes switch. */
export function BoardToolbar({
  search,
  onChange,
}: {
  search: BoardSearch;
  onChange: (patch: Partial<BoardSearch>) => void;
}) {
  const developers = useQuery(developersQuery());
  const [text, setText] = useUrlText(search.q ?? '', (q) => onChange({ q: q || undefined }), 250);
  const hasFilters = boardFilterKeys.some((key) => Boolean(search[key]));
  const isSwimlanes = search.lanes === 'assignee';
  return (
    <div className="mb-4 flex flex-col gap-2 lg:flex-row lg:flex-wrap lg:items-center">
      <div className="relative min-w-0 lg:w-72">
        <Search
          className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-400"
          aria-hidden="true"
        />
        <label htmlFor="board-search" className="sr-only">
          Search bugs
        </label>
        <input
          id="board-search"
          type="search"
          value={text}
          onChange={(event) => setText(event.target.value)}
          placeholder="Search the board"
          className={cx(controlClass(), 'h-9 pl-9')}
        />
      </div>
      <div className="grid grid-cols-2 gap-2 sm:flex sm:flex-wrap sm:items-center">
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
        <MultiFilter
          label="Assignee"
          value={search.assignee}
          onChange={(v) => onChange({ assignee: v })}
          options={[
            ['none', 'Unassigned'],
            ...(developers.data ?? []).map((d): [string, string] => [d._id, personOptionText(d)]),
          ]}
        />
        <LabelFilter value={search.label} onChange={(v) => onChange({ label: v })} />
        <button
          type="button"
          aria-pressed={isSwimlanes}
          onClick={() => onChange({ lanes: isSwimlanes ? undefined : 'assignee' })}
          className={cx(
            'col-span-2 inline-flex h-9 items-center justify-center gap-1.5 rounded-lg px-3 text-sm whitespace-nowrap ring-1 sm:col-span-1',
            isSwimlanes
              ? 'bg-brand-50 font-medium text-brand-700 ring-brand-300'
              : 'bg-white text-slate-600 ring-slate-200 hover:bg-slate-50',
          )}
        >
          <Rows3 className="size-4" aria-hidden="true" /> Swimlanes by assignee
        </button>
        {hasFilters ? (
          <Button
            variant="ghost"
            size="sm"
            className="h-9"
            icon={<X className="size-4" />}
            onClick={() => onChange(Object.fromEntries(boardFilterKeys.map((key) => [key, undefined])))}
          >
            Clear filters
          </Button>
        ) : null}
      </div>
    </div>
  );
}
