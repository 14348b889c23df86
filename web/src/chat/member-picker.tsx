import { Search } from 'lucide-react';
import { useState } from 'react';
import { Avatar } from '../components/ui/avatar';
import { controlClass } from '../components/ui/field';
import { PersonName, useKnownEmails } from '../components/ui/person-name';
import { Spinner } from '../components/ui/spinner';
import type { ChatUser } from './types';

/** A searchable checkbox list of users (create dialog). */
export function MemberPicker({
  users,
  isLoading,
  selected,
  onToggle,
  excludeId,
}: {
  users: ChatUser[];
  isLoading: boolean;
  selected: string[];
  onToggle: (id: string, on: boolean) => void;
  excludeId?: string;
}) {
  const [query, setQuery] = useState('');
  const emails = useKnownEmails();
  const shown = users
    .filter((user) => user._id !== excludeId)
    .filter((user) => {
      const needle = query.trim().toLowerCase();
      return user.name.toLowerCase().includes(needle) || Boolean(emails.get(user._id)?.toLowerCase().includes(needle));
    });
  return (
    <fieldset className="space-y-2">
      <legend className="mb-1.5 block text-sm font-medium text-slate-700">
        Participants {selected.length ? <span className="text-slate-500">({selected.length} selected)</span> : null}
      </legend>
      <div className="relative">
        <Search className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-400" />
        <input
          type="search"
          value={query}
          onChange={(event) => setQuery(event.target.value)}
          placeholder="Search people"
          aria-label="Search people"
          className={`${controlClass()} h-9 pl-9`}
        />
      </div>
      <div className="max-h-48 overflow-y-auto rounded-lg border border-slate-200">
        {isLoading ? (
          <div className="flex justify-center p-4 text-brand-600">
            <Spinner className="size-5" label="Loading people" />
          </div>
        ) : shown.length === 0 ? (
          <p className="p-3 text-center text-sm text-slate-500">No people found</p>
        ) : (
          <ul className="divide-y divide-slate-100">
            {shown.map((user) => (
              <li key={user._id}>
                <label className="flex cursor-pointer items-center gap-3 px-3 py-2 text-sm hover:bg-slate-50">
                  <input
                    type="checkbox"
                    checked={selected.includes(user._id)}
                    onChange={(event) => onToggle(user._id, event.target.checked)}
                    className="size-4 rounded border-slate-300 accent-brand-600"
                  />
                  <Avatar user={user} size="xs" />
                  <PersonName name={user.name} email={emails.get(user._id)} />
                </label>
              </li>
            ))}
          </ul>
        )}
      </div>
    </fieldset>
  );
}
