import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Tag } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import { messageOf } from '../../lib/api';
import { canLabelBug, labelsQuery, useSetBugLabels } from '../../lib/labels';
import { notify } from '../../lib/notify';
import { profileQuery } from '../../lib/session';
import type { Bug } from '../../lib/types';
import { Button, buttonClass } from '../ui/button';
import { cx } from '../ui/cx';
import { LabelChip, LabelChips } from './label-chip';
import { usePopover } from './use-popover';

/**
 * A bug's labels on its page, and for those who may change them (admins, its reporter, its
 * assigned developers) a picker: a group of checkboxes whose choice is saved when it closes.
 */
export function BugLabels({
  bug,
  className,
  isEditable = true,
  onSaved,
}: {
  bug: Bug;
  className?: string;
  /** Hears the answer of a save (the admin's form keeps its own saves from looking like someone else's). */
  onSaved?: (answer: { bug?: Bug }) => void;
  /** False where the page shows the bug as it was (time travel): chips only. */
  isEditable?: boolean;
}) {
  const { data: user } = useQuery(profileQuery());
  const canEdit = isEditable && canLabelBug(user, bug) && !bug.archived;
  if (!canEdit && (bug.labels ?? []).length === 0) return null;
  return (
    <div className={cx('flex min-w-0 flex-wrap items-center gap-2', className)}>
      <LabelChips labels={bug.labels} />
      {canEdit ? <LabelPicker bug={bug} isAdmin={user?.role === 'admin'} onSaved={onSaved} /> : null}
    </div>
  );
}

function LabelPicker({
  bug,
  isAdmin,
  onSaved,
}: {
  bug: Bug;
  isAdmin: boolean;
  onSaved?: ((answer: { bug?: Bug }) => void) | undefined;
}) {
  const labels = useQuery(labelsQuery());
  const save = useSetBugLabels(bug._id);
  const saved = bug.labels.map((label) => label._id);
  const [chosen, setChosen] = useState<string[] | null>(null);
  // The choice as of the last click, for the close that saves it (it runs outside a render).
  const latest = useRef<{ chosen: string[] | null; saved: string[] }>({ chosen: null, saved });
  latest.current = { chosen, saved };
  const panelId = useId();
  const popover = usePopover(() => {
    const { chosen: next, saved: before } = latest.current;
    setChosen(null);
    if (!next || sameSet(next, before)) return;
    save.mutate(next, {
      onSuccess: (answer) => {
        onSaved?.(answer);
        notify.success('Labels updated');
      },
      onError: (error) => notify.error(messageOf(error, 'Could not update the labels')),
    });
  });
  const shown = chosen ?? saved;
  const all = labels.data?.labels ?? [];
  const toggle = (id: string, on: boolean) => {
    const base = chosen ?? saved;
    setChosen(on ? [...base.filter((x) => x !== id), id] : base.filter((x) => x !== id));
  };
  return (
    // With no chips before it, the button lines up with the text above (its padding pulled back).
    <div className="relative first:-ml-3">
      <button
        ref={popover.buttonRef}
        type="button"
        className={buttonClass('ghost', 'sm')}
        aria-expanded={popover.isOpen}
        aria-controls={popover.isOpen ? panelId : undefined}
        aria-busy={save.isPending || undefined}
        onClick={popover.toggle}
      >
        <Tag className="size-4" aria-hidden="true" />
        {bug.labels.length > 0 ? 'Edit labels' : 'Add labels'}
      </button>
      {popover.isOpen ? (
        <div
          ref={popover.panelRef}
          id={panelId}
          className="absolute left-0 z-30 mt-1 w-72 max-w-[calc(100vw-2rem)] rounded-lg border border-slate-200 bg-white p-2 shadow-lg"
        >
          <fieldset>
            <legend className="px-2 pb-1 text-xs font-semibold tracking-wide text-slate-500 uppercase">Labels</legend>
            {labels.isPending ? (
              <p className="px-2 py-1.5 text-sm text-slate-500">Loading…</p>
            ) : all.length === 0 ? (
              <p className="px-2 py-1.5 text-sm text-slate-500">
                No labels yet.{' '}
                {isAdmin ? (
                  <Link to="/admin/labels" className="font-medium text-brand-700 hover:underline">
                    Create one
                  </Link>
                ) : null}
              </p>
            ) : (
              <div className="max-h-64 overflow-y-auto">
                {all.map((label) => (
                  <label
                    key={label._id}
                    className="flex cursor-pointer items-center gap-2 rounded px-2 py-1.5 text-sm hover:bg-slate-50"
                  >
                    <input
                      type="checkbox"
                      checked={shown.includes(label._id)}
                      onChange={(event) => toggle(label._id, event.target.checked)}
                      className="size-4 shrink-0 accent-brand-600"
                    />
                    <LabelChip label={label} />
                    {label.description ? (
                      <span className="min-w-0 truncate text-xs text-slate-500">{label.description}</span>
                    ) : null}
                  </label>
                ))}
              </div>
            )}
          </fieldset>
          <div className="mt-2 flex justify-end border-t border-slate-100 pt-2">
            <Button size="sm" onClick={() => popover.close({ focusButton: true })}>
              Done
            </Button>
          </div>
        </div>
      ) : null}
    </div>
  );
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x) => b.includes(x));
}
