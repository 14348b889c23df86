import { useQuery } from '@tanstack/react-query';
import { Search } from 'lucide-react';
import { useId, useState } from 'react';
import { bugTitle, statusLabel } from '../../lib/format';
import { bugPickQuery } from '../../lib/planning';
import type { Bug, Role } from '../../lib/types';
import { useDebounced } from '../../lib/use-debounced';
import { StatusBadge } from '../ui/badge';
import { cx } from '../ui/cx';
import { controlClass } from '../ui/field';

/**
 * Finds another bug by its key (`WEB-3`) or words of its title, and picks one of the matches: a
 * search box over a group of radio buttons (arrow keys walk them, as radios do). `exclude` keeps
 * bugs out (the bug itself).
 */
export function BugPicker({
  label,
  chosen,
  onChoose,
  exclude,
  viewAs,
}: {
  label: string;
  chosen: Bug | null;
  onChoose: (bug: Bug | null) => void;
  exclude: readonly string[];
  viewAs: Role;
}) {
  const inputId = useId();
  const groupName = useId();
  const [text, setText] = useState('');
  const wanted = useDebounced(text.trim(), 250);
  const found = useQuery(bugPickQuery(wanted));
  const matches = (found.data ?? []).filter((bug) => !exclude.includes(bug._id)).slice(0, 10);
  return (
    <div className="min-w-0 space-y-2">
      <label htmlFor={inputId} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      <div className="relative">
        <Search className="pointer-events-none absolute top-3 left-3 size-4 text-slate-400" aria-hidden="true" />
        <input
          id={inputId}
          type="search"
          value={text}
          autoComplete="off"
          placeholder="Key or title, e.g. WEB-3"
          onChange={(event) => {
            setText(event.target.value);
            onChoose(null);
          }}
          className={cx(controlClass(), 'h-10 pl-9')}
        />
      </div>
      {wanted ? (
        <fieldset className="min-w-0" aria-busy={found.isFetching || undefined}>
          <legend className="sr-only">Matches for {wanted}</legend>
          {found.isPending ? (
            <p className="px-1 text-sm text-slate-500">Searching…</p>
          ) : matches.length === 0 ? (
            <p className="px-1 text-sm text-slate-500">No bug matches “{wanted}”</p>
          ) : (
            <ul className="max-h-56 space-y-1 overflow-y-auto rounded-lg border border-slate-200 p-1">
              {matches.map((bug) => (
                <li key={bug._id}>
                  <label
                    className={cx(
                      'flex min-w-0 cursor-pointer items-center gap-2 rounded-md px-2 py-1.5 text-sm focus-within:ring-2 focus-within:ring-brand-300',
                      chosen?._id === bug._id ? 'bg-brand-50' : 'hover:bg-slate-50',
                    )}
                  >
                    <input
                      type="radio"
                      name={groupName}
                      checked={chosen?._id === bug._id}
                      onChange={() => onChoose(bug)}
                      className="size-4 shrink-0 accent-brand-600"
                    />
                    <span className="shrink-0 font-mono text-xs font-medium text-slate-600">{bug.key}</span>
                    <span className="min-w-0 flex-1 truncate text-slate-800">{bugTitle(bug)}</span>
                    <span className="sr-only">, {statusLabel(bug.status, viewAs)}</span>
                    <span className="hidden shrink-0 sm:inline" aria-hidden="true">
                      <StatusBadge status={bug.status} viewAs={viewAs} />
                    </span>
                  </label>
                </li>
              ))}
            </ul>
          )}
        </fieldset>
      ) : null}
    </div>
  );
}
