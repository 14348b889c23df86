import { type FormEvent, useState } from 'react';
import { messageOf } from '../../lib/api';
import { notify } from '../../lib/notify';
import { useSaveView } from '../../lib/views';
import { Button } from '../ui/button';
import { TextField } from '../ui/field';
import { Modal } from '../ui/modal';

/** Names the list as it is now (its path and query) and keeps it in the sidebar. */
export function SaveViewDialog({ isOpen, onClose }: { isOpen: boolean; onClose: () => void }) {
  const save = useSaveView();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | undefined>();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) {
      setError('Give the view a name');
      return;
    }
    save.mutate(
      { name: trimmed, path: window.location.pathname, query: window.location.search.replace(/^\?/, '') },
      {
        onSuccess: () => {
          notify.success(`Saved view “${trimmed}”`);
          setName('');
          setError(undefined);
          onClose();
        },
        onError: (e) => setError(messageOf(e, 'Failed to save the view')),
      },
    );
  };
  return (
    <Modal
      isOpen={isOpen}
      onClose={onClose}
      title="Save view"
      description="This list with its filters and order, under a name of your choice."
      size="sm"
    >
      <form onSubmit={submit} className="flex flex-col gap-4">
        <TextField
          label="Name"
          value={name}
          maxLength={80}
          onChange={(event) => setName(event.target.value)}
          error={error}
          data-autofocus
        />
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" isLoading={save.isPending}>
            Save view
          </Button>
        </div>
      </form>
    </Modal>
  );
}
