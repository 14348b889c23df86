import { Link as LinkIcon, Plus, X } from 'lucide-react';
import { type KeyboardEvent, type ReactNode, useId } from 'react';
import { Button } from './ui/button';
import { controlClass, FieldShell } from './ui/field';

/**
 * A list the form builds one entry at a time (the report form's steps and attachment links):
 * a box and an Add button (Enter adds too), its error or hint under it (FieldShell, as every
 * field), and the entries, each
 * with a button that removes it. `ordered` numbers the entries (steps), else each shows a
 * link mark (links, cut to one line).
 */
export function EntriesField({
  icon,
  label,
  placeholder,
  type,
  draft,
  onDraft,
  onAdd,
  error,
  hint,
  ordered = false,
  entries,
  removeLabel,
  onRemove,
}: {
  icon: ReactNode;
  label: string;
  placeholder: string;
  type?: 'url';
  draft: string;
  onDraft: (text: string) => void;
  onAdd: () => void;
  error: string | undefined;
  hint?: string;
  ordered?: boolean;
  entries: { key: string; text: string }[];
  removeLabel: (index: number) => string;
  onRemove: (index: number) => void;
}) {
  const id = useId();
  const onEnter = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    onAdd();
  };
  const describedBy = error ? `${id}-error` : hint ? `${id}-hint` : undefined;
  const items = entries.map((entry, index) => (
    <li key={entry.key} className="flex items-center gap-2 rounded-lg bg-slate-50 px-3 py-2 text-sm">
      {ordered ? (
        <span className="flex size-5 shrink-0 items-center justify-center rounded-full bg-white text-xs font-semibold text-slate-500 ring-1 ring-slate-200">
          {index + 1}
        </span>
      ) : (
        <LinkIcon className="size-4 shrink-0 text-slate-400" />
      )}
      <span
        className={ordered ? 'min-w-0 flex-1 break-words text-slate-700' : 'min-w-0 flex-1 truncate text-brand-700'}
      >
        {entry.text}
      </span>
      <button
        type="button"
        aria-label={removeLabel(index)}
        onClick={() => onRemove(index)}
        className="rounded p-1 text-slate-400 hover:bg-white hover:text-rose-600"
      >
        <X className="size-4" />
      </button>
    </li>
  ));
  return (
    <div className="space-y-2">
      <FieldShell
        id={id}
        label={
          <span className="flex items-center gap-2">
            {icon} {label}
          </span>
        }
        error={error}
        hint={hint}
      >
        <div className="flex gap-2">
          <input
            id={id}
            {...(type ? { type, inputMode: type } : {})}
            value={draft}
            onChange={(event) => onDraft(event.target.value)}
            onKeyDown={onEnter}
            placeholder={placeholder}
            aria-invalid={!!error || undefined}
            aria-describedby={describedBy}
            className={`${controlClass(!!error)} h-10`}
          />
          <Button variant="secondary" onClick={onAdd} icon={<Plus className="size-4" />}>
            Add
          </Button>
        </div>
      </FieldShell>
      {ordered ? <ol className="space-y-1.5">{items}</ol> : <ul className="space-y-1.5">{items}</ul>}
    </div>
  );
}
