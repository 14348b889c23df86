import { useQuery } from '@tanstack/react-query';
import { Check, Search } from 'lucide-react';
import { useId, useState } from 'react';
import { developersQuery } from '../lib/queries';
import type { UserRef } from '../lib/types';
import { Avatar } from './ui/avatar';
import { cx } from './ui/cx';
import { PersonName } from './ui/person-name';
import { Skeleton } from './ui/skeleton';

/**
 * A searchable checkbox list of developers; `known` keeps already-assigned people visible;
 * `onlyAmong` narrows the choice (a private project's bug goes only to its members).
 */
export function DeveloperPicker({
  selected,
  onChange,
  known = [],
  hasError,
  labelledBy,
  onlyAmong,
}: {
  selected: string[];
  onChange: (ids: string[]) => void;
  known?: UserRef[];
  hasError?: boolean;
  labelledBy?: string;
  onlyAmong?: ReadonlySet<string> | undefined;
}) {
  const { data, isPending, isError } = useQuery(developersQuery());
  const [filter, setFilter] = useState('');
  const searchId = useId();
  const all = [...(data ?? [])];
  for (const user of known) if (!all.some((dev) => dev._id === user._id)) all.push(user);
  const needle = filter.trim().toLowerCase();
  const shown = all.filter(
    (dev) =>
      (!onlyAmong || onlyAmong.has(dev._id) || selected.includes(dev._id)) &&
      (!needle || dev.name.toLowerCase().includes(needle) || dev.email?.toLowerCase().includes(needle)),
  );
  const toggle = (id: string) => onChange(selected.includes(id) ? selected.filter((x) => x !== id) : [...selected, id]);
  return (
    <div className={cx('rounded-lg border bg-white', hasError ? 'border-rose-400' : 'border-slate-300')}>
      <div className="flex items-center gap-2 border-b border-slate-100 px-3">
        <Search className="size-4 text-slate-400" aria-hidden="true" />
        <label htmlFor={searchId} className="sr-only">
          Search developers
        </label>
        <input
          id={searchId}
          value={filter}
          onChange={(event) => setFilter(event.target.value)}
          placeholder="Search developers"
          className="h-9 flex-1 bg-transparent text-sm focus:outline-none"
        />
        <span className="text-xs text-slate-500">{selected.length} selected</span>
      </div>
      {/* biome-ignore lint/a11y/useSemanticElements: a list of checkboxes, named by the field label */}
      <ul className="max-h-52 overflow-y-auto p-1" role="group" aria-labelledby={labelledBy}>
        {isPending ? (
          <li role="none" className="space-y-2 p-2">
            <Skeleton className="h-8" />
            <Skeleton className="h-8" />
          </li>
        ) : isError && all.length === 0 ? (
          <li role="none" className="p-3 text-sm text-rose-600">
            Failed to load developers
          </li>
        ) : shown.length === 0 ? (
          <li role="none" className="p-3 text-sm text-slate-500">
            No developers found
          </li>
        ) : (
          shown.map((dev) => {
            const isChecked = selected.includes(dev._id);
            return (
              <li key={dev._id} role="none">
                <label
                  className={cx(
                    'flex cursor-pointer items-center gap-3 rounded-md px-2 py-1.5 text-sm focus-within:ring-2 focus-within:ring-brand-300',
                    isChecked ? 'bg-brand-50' : 'hover:bg-slate-50',
                  )}
                >
                  <input type="checkbox" className="sr-only" checked={isChecked} onChange={() => toggle(dev._id)} />
                  <span
                    aria-hidden="true"
                    className={cx(
                      'flex size-4 items-center justify-center rounded border',
                      isChecked ? 'border-brand-600 bg-brand-600 text-white' : 'border-slate-300',
                    )}
                  >
                    {isChecked ? <Check className="size-3" strokeWidth={3} /> : null}
                  </span>
                  <Avatar user={dev} size="xs" />
                  <PersonName name={dev.name} email={dev.email} />
                </label>
              </li>
            );
          })
        )}
      </ul>
    </div>
  );
}
