import { Avatar } from '../ui/avatar';
import { cx } from '../ui/cx';
import { PersonName } from '../ui/person-name';
import type { MentionCandidate } from './mentions';

/**
 * The listbox of people to mention, under the comment box while an `@` is typed. The
 * text box keeps the focus and points at the active option (aria-activedescendant), so
 * an option is picked with the mouse down, before the box could lose it.
 */
export function MentionList({
  listId,
  suggestions,
  activeIndex,
  optionId,
  emails,
  pick,
  setActive,
}: {
  listId: string;
  suggestions: readonly MentionCandidate[];
  activeIndex: number;
  optionId: (index: number) => string;
  /** Each person's email where known, shown beside the name. */
  emails: ReadonlyMap<string, string>;
  pick: (person: MentionCandidate) => void;
  setActive: (index: number) => void;
}) {
  return (
    <div
      id={listId}
      role="listbox"
      aria-label="People to mention"
      className="absolute top-full left-0 z-20 mt-1 max-h-64 w-72 max-w-full overflow-y-auto rounded-xl border border-slate-200 bg-white py-1 shadow-xl"
    >
      {suggestions.map((person, index) => (
        <div
          key={person._id}
          id={optionId(index)}
          role="option"
          tabIndex={-1}
          aria-selected={index === activeIndex}
          onMouseDown={(event) => {
            // Keep the focus (and the caret) in the text box.
            event.preventDefault();
            pick(person);
          }}
          onMouseEnter={() => setActive(index)}
          className={cx(
            'flex cursor-pointer items-center gap-2 px-3 py-1.5 text-sm',
            index === activeIndex ? 'bg-brand-50 text-brand-800' : 'text-slate-700',
          )}
        >
          <Avatar user={person} size="xs" />
          <PersonName name={person.name} email={emails.get(person._id)} />
          <span className="shrink-0 text-xs text-slate-600">{person.reason}</span>
        </div>
      ))}
    </div>
  );
}
