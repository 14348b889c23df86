import { useEffect, useId, useState } from 'react';
import type { UserRef } from '../lib/types';
import { DeveloperPicker } from './developer-picker';
import { AvatarStack } from './ui/avatar';
import { Button } from './ui/button';
import { Modal } from './ui/modal';

/**
 * Choose who works on a bug: a picker of developers in a dialog, applied with Done (Cancel
 * keeps the assignees as they were). `known` are people already named on the bug, shown
 * even when the directory has not loaded them; `people` name the avatars.
 */
export function AssignDevelopersDialog({
  isOpen,
  initial,
  known,
  people,
  onClose,
  onDone,
}: {
  isOpen: boolean;
  initial: string[];
  known: UserRef[];
  people: UserRef[];
  onClose: () => void;
  onDone: (ids: string[]) => void;
}) {
  const [draft, setDraft] = useState<string[]>(initial);
  const label = useId();
  // Each opening starts from the assignees as they are.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only an opening resets the draft
  useEffect(() => {
    if (isOpen) setDraft(initial);
  }, [isOpen]);
  return (
    <Modal
      isOpen={isOpen}
      onClose={onClose}
      title="Assign Developers"
      description="Choose who works on this bug."
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={() => onDone(draft)}>Done</Button>
        </>
      }
    >
      <p id={label} className="sr-only">
        Developers
      </p>
      <DeveloperPicker selected={draft} onChange={setDraft} known={known} labelledBy={label} />
      <div className="mt-4 flex items-center gap-3">
        <AvatarStack
          users={draft.map((id) => people.find((p) => p._id === id)).filter((u): u is UserRef => !!u)}
          max={3}
        />
        <span className="text-sm text-slate-500">{draft.length} selected</span>
      </div>
    </Modal>
  );
}
