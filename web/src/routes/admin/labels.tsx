import { useQuery } from '@tanstack/react-query';
import { createFileRoute, Link } from '@tanstack/react-router';
import { Pencil, Tag, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { ConfirmModal } from '../../components/confirm-modal';
import { LabelChip } from '../../components/labels/label-chip';
import { PageHeader } from '../../components/page-header';
import { Button } from '../../components/ui/button';
import { Card, CardHeader } from '../../components/ui/card';
import { EmptyState } from '../../components/ui/empty-state';
import { messageOf } from '../../lib/api';
import { labelsQuery, useCreateLabel, useDeleteLabel, useUpdateLabel } from '../../lib/labels';
import { notify } from '../../lib/notify';
import type { Label } from '../../lib/types';
import { type LabelFieldErrors, LabelForm, serverFieldErrors } from './-components/label-form';

export const Route = createFileRoute('/admin/labels')({
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(labelsQuery());
  },
  component: LabelsPage,
});

/**
 * Labels (api.md "Labels"): admins create them, rename and recolour them, and delete them (which
 * takes them off every bug). Everyone picks from them on a bug's page and filters by them.
 */
function LabelsPage() {
  const labels = useQuery(labelsQuery());
  const list = labels.data?.labels ?? [];
  return (
    <>
      <PageHeader
        title="Labels"
        subtitle="Coloured names bugs carry: filter lists and boards by them, and see them on every card."
      />
      <div className="grid max-w-4xl grid-cols-[minmax(0,1fr)] gap-6">
        <NewLabel />
        {labels.isError ? (
          <Card className="px-5 py-4 text-sm text-rose-600">{messageOf(labels.error, 'Could not load labels')}</Card>
        ) : list.length === 0 ? (
          <Card>
            <EmptyState icon={<Tag className="size-6" />} title={labels.isPending ? 'Loading…' : 'No labels yet'}>
              <p className="max-w-sm text-sm text-slate-500">
                Create one above, then put it on bugs from their pages or filter the{' '}
                <Link to="/projects" className="font-medium text-brand-700 hover:underline">
                  project boards
                </Link>{' '}
                by it.
              </p>
            </EmptyState>
          </Card>
        ) : (
          <Card>
            <CardHeader title="All labels" subtitle={`${list.length} ${list.length === 1 ? 'label' : 'labels'}`} />
            <ul aria-label="Labels" className="divide-y divide-slate-100">
              {list.map((label) => (
                <LabelRow key={label._id} label={label} />
              ))}
            </ul>
          </Card>
        )}
      </div>
    </>
  );
}

const blank = { name: '', color: '#1d76db', description: '' };

function NewLabel() {
  const create = useCreateLabel();
  const [errors, setErrors] = useState<LabelFieldErrors>({});
  // A new form after each label made: the fields start empty again.
  const [made, setMade] = useState(0);
  return (
    <Card>
      <CardHeader title="New label" />
      <div className="px-5 py-4">
        <LabelForm
          key={made}
          initial={blank}
          submitLabel="Create label"
          isBusy={create.isPending}
          errors={errors}
          onEdit={() => setErrors({})}
          onSubmit={(draft) => {
            setErrors({});
            create.mutate(draft, {
              onSuccess: (label) => {
                notify.success(`Label ${label.name} created`);
                setMade((n) => n + 1);
              },
              onError: (error) => {
                const fields = serverFieldErrors(error);
                if (fields) setErrors(fields);
                else notify.error(messageOf(error, 'Could not create the label'));
              },
            });
          }}
        />
      </div>
    </Card>
  );
}

function LabelRow({ label }: { label: Label }) {
  const update = useUpdateLabel();
  const remove = useDeleteLabel();
  const [isEditing, setEditing] = useState(false);
  const [isConfirming, setConfirming] = useState(false);
  const [errors, setErrors] = useState<LabelFieldErrors>({});
  if (isEditing)
    return (
      <li className="px-5 py-4">
        <h3 className="sr-only">Edit {label.name}</h3>
        <LabelForm
          initial={{ name: label.name, color: label.color, description: label.description ?? '' }}
          submitLabel="Save label"
          isBusy={update.isPending}
          errors={errors}
          onEdit={() => setErrors({})}
          onCancel={() => {
            setEditing(false);
            setErrors({});
          }}
          onSubmit={(draft) => {
            setErrors({});
            update.mutate(
              { id: label._id, changes: draft },
              {
                onSuccess: () => {
                  notify.success('Label saved');
                  setEditing(false);
                },
                onError: (error) => {
                  const fields = serverFieldErrors(error);
                  if (fields) setErrors(fields);
                  else notify.error(messageOf(error, 'Could not save the label'));
                },
              },
            );
          }}
        />
      </li>
    );
  return (
    <li className="flex flex-col gap-2 px-5 py-3 sm:flex-row sm:items-center sm:justify-between">
      <div className="flex min-w-0 flex-col gap-1 sm:flex-row sm:items-center sm:gap-3">
        <LabelChip label={label} className="self-start sm:self-auto" />
        <span className="font-mono text-xs text-slate-500">{label.color}</span>
        {label.description ? (
          <span className="min-w-0 text-sm wrap-anywhere text-slate-600">{label.description}</span>
        ) : null}
      </div>
      <div className="flex shrink-0 gap-1">
        <Button
          variant="ghost"
          size="sm"
          icon={<Pencil className="size-4" aria-hidden="true" />}
          aria-label={`Edit ${label.name}`}
          onClick={() => setEditing(true)}
        >
          Edit
        </Button>
        <Button
          variant="ghost"
          size="sm"
          className="hover:text-rose-700"
          icon={<Trash2 className="size-4" aria-hidden="true" />}
          aria-label={`Delete ${label.name}`}
          onClick={() => setConfirming(true)}
        >
          Delete
        </Button>
      </div>
      <ConfirmModal
        isOpen={isConfirming}
        title={`Delete the label ${label.name}?`}
        confirmLabel="Delete label"
        isBusy={remove.isPending}
        onClose={() => setConfirming(false)}
        onConfirm={() =>
          remove.mutate(label._id, {
            onSuccess: () => {
              notify.success(`Label ${label.name} deleted`);
              setConfirming(false);
            },
            onError: (error) => notify.error(messageOf(error, 'Could not delete the label')),
          })
        }
      >
        Every bug that carries it loses it. Its past stays in the bugs’ histories.
      </ConfirmModal>
    </li>
  );
}
