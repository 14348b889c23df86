import { ApiError } from '../lib/api';
import { Button } from './ui/button';
import { Modal } from './ui/modal';

/**
 * A save refused as stale (409: someone changed the bug since it was loaded): reload the
 * bug and lose this form's changes, or overwrite theirs with this form.
 */
export function StaleEditDialog({
  isOpen,
  isBusy,
  onReload,
  onOverwrite,
  onClose,
}: {
  isOpen: boolean;
  isBusy?: boolean;
  onReload: () => void;
  onOverwrite: () => void;
  onClose: () => void;
}) {
  return (
    <Modal
      isOpen={isOpen}
      onClose={onClose}
      title="This bug changed meanwhile"
      description="Someone saved a change to this bug after you opened it."
      size="sm"
      footer={
        <>
          <Button variant="secondary" onClick={onReload} data-autofocus>
            Reload
          </Button>
          <Button variant="danger" onClick={onOverwrite} isLoading={!!isBusy}>
            Overwrite
          </Button>
        </>
      }
    >
      <p className="text-sm text-slate-600">
        Reload shows the bug as it is now (your changes here are dropped). Overwrite saves your version over theirs.
      </p>
    </Modal>
  );
}

/** The refusal that calls for the dialog above. */
export const isStaleEdit = (error: unknown) => error instanceof ApiError && error.status === 409;
