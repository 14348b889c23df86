import { bugDefaults } from '@bugtrail/domain/vocabulary';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { ApiError } from '../lib/api';
import { type BugFormValues, describeServerDetails, isoToDay, toBugPayload } from '../lib/bug-form';
import { useCreateBug, useDeleteBug, useUpdateBug } from '../lib/mutations';
import { notify } from '../lib/notify';
import type { Bug } from '../lib/types';
import { BugForm } from './bug-form';
import { ConfirmModal } from './confirm-modal';

export const CREATE_FAILED = 'Failed to create bug. Please try again.';

/** The create-failure toast text: server details, else the server's message, else the default. */
export function createFailureText(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.details.length > 0) return describeServerDetails(error.details);
    if (error.hasServerMessage) return error.message;
  }
  return CREATE_FAILED;
}

export function ReportBugForm({ afterCreate }: { afterCreate: string }) {
  const navigate = useNavigate();
  const create = useCreateBug();
  return (
    <BugForm
      isEditing={false}
      isSaving={create.isPending}
      onSubmit={(values) =>
        create.mutate(toBugPayload(values), {
          onSuccess: () => {
            notify.success('Bug Reported Successfully');
            void navigate({ to: afterCreate });
          },
          onError: (error) => notify.error(createFailureText(error)),
        })
      }
    />
  );
}

export function bugToForm(bug: Bug): BugFormValues {
  return {
    title: bug.title ?? '',
    description: bug.description ?? '',
    priority: bug.priority ?? bugDefaults.priority,
    severity: bug.severity ?? bugDefaults.severity,
    status: bug.status ?? bugDefaults.status,
    module: bug.module ?? '',
    dueDate: isoToDay(bug.dueDate),
    assignedTo: (bug.assignedTo ?? []).map((user) => user._id),
    checklist: (bug.checklist ?? []).map((item) => ({
      ...(item._id ? { _id: item._id } : {}),
      text: item.text,
      completed: item.completed,
    })),
    attachments: [...(bug.attachments ?? [])],
  };
}

/** The tester's edit form for one loaded bug: Update Bug and Delete Bug. */
export function EditBugForm({ bug, afterSave, afterDelete }: { bug: Bug; afterSave: string; afterDelete: string }) {
  const navigate = useNavigate();
  const update = useUpdateBug(bug._id);
  const remove = useDeleteBug();
  const [isConfirmOpen, setConfirmOpen] = useState(false);
  return (
    <>
      <BugForm
        key={bug._id}
        initial={bugToForm(bug)}
        knownDevelopers={bug.assignedTo}
        isEditing
        dueDateRequired
        isSaving={update.isPending}
        isDeleting={remove.isPending}
        onDelete={() => setConfirmOpen(true)}
        onSubmit={(values) =>
          update.mutate(
            { payload: toBugPayload(values), version: bug.version },
            {
              onSuccess: () => {
                notify.success('Bug Updated Successfully');
                void navigate({ to: afterSave });
              },
              onError: (error) =>
                notify.error(
                  error instanceof ApiError && error.status === 409 ? error.message : 'Failed to update bug',
                ),
            },
          )
        }
      />
      <ConfirmModal
        isOpen={isConfirmOpen}
        title="Delete Bug"
        confirmLabel="Delete Bug"
        isBusy={remove.isPending}
        onClose={() => setConfirmOpen(false)}
        onConfirm={() =>
          remove.mutate(bug._id, {
            onSuccess: () => {
              notify.success('Bug deleted successfully');
              setConfirmOpen(false);
              void navigate({ to: afterDelete });
            },
            onError: () => notify.error('Failed to delete bug'),
          })
        }
      >
        Are you sure you want to delete “{bug.title}”? This cannot be undone.
      </ConfirmModal>
    </>
  );
}
