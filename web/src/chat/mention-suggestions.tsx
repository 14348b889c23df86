/** The people an @-mention may name, listed over the composer while one is typed. */
import { Avatar } from '../components/ui/avatar';
import { cx } from '../components/ui/cx';
import { PersonName } from '../components/ui/person-name';
import type { ChatUser } from './types';

export function MentionSuggestions({
  listId,
  suggestions,
  active,
  emails,
  onPick,
}: {
  listId: string;
  suggestions: ChatUser[];
  active: number;
  emails: ReadonlyMap<string, string>;
  onPick: (user: ChatUser) => void;
}) {
  return (
    <div
      id={listId}
      role="listbox"
      aria-label="Mention someone"
      className="absolute bottom-full left-0 z-10 mb-2 max-h-56 w-64 max-w-full overflow-y-auto rounded-xl bg-white py-1 shadow-xl ring-1 ring-slate-200"
    >
      {suggestions.map((user, index) => (
        <div
          key={user._id}
          role="option"
          tabIndex={-1}
          aria-selected={index === active}
          onMouseDown={(event) => {
            event.preventDefault();
            onPick(user);
          }}
          className={cx(
            'flex w-full cursor-pointer items-center gap-2 px-3 py-1.5 text-left text-sm',
            index === active ? 'bg-brand-50 text-brand-800' : 'text-slate-700 hover:bg-slate-50',
          )}
        >
          <Avatar user={user} size="xs" />
          <PersonName name={user.name} email={emails.get(user._id)} />
        </div>
      ))}
    </div>
  );
}
