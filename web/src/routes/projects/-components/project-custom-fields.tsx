import { type FieldDto, fieldTypes, optionTypes } from '@bugtrail/domain/vocabulary';
import { useQuery } from '@tanstack/react-query';
import { Pencil, Plus, Trash2 } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { ConfirmModal } from '../../../components/confirm-modal';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { SelectField, TextAreaField, TextField } from '../../../components/ui/field';
import { messageOf } from '../../../lib/api';
import { fieldTypeLabels, projectFieldsQuery, useAddField, useChangeField, useRemoveField } from '../../../lib/fields';
import { notify } from '../../../lib/notify';

/** One option per line, blank lines dropped. */
const optionLines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

/**
 * A project's custom fields (issue 37): everyone who sees the project reads them; its admins
 * and leads add one, rename it, edit its options in place (a line changed is an option renamed:
 * its bugs follow), make it required, or remove it (bugs keep its values in their history).
 */
export function ProjectCustomFields({ projectId, canManage }: { projectId: string; canManage: boolean }) {
  const { data } = useQuery(projectFieldsQuery(projectId));
  const fields = data?.fields ?? [];
  const [editing, setEditing] = useState<string | null>(null);
  const [removing, setRemoving] = useState<FieldDto | null>(null);
  const remove = useRemoveField(projectId);
  return (
    <Card>
      <CardHeader
        title="Custom fields"
        subtitle="Asked on every report and edit of this project’s bugs; lists filter and sort by them."
      />
      {fields.length === 0 ? (
        <p className="border-t border-slate-100 px-5 py-4 text-sm text-slate-500">No custom fields yet.</p>
      ) : (
        <ul aria-label="Custom fields" className="divide-y divide-slate-100 border-t border-slate-100">
          {fields.map((field) =>
            editing === field._id ? (
              <li key={field._id} className="px-5 py-4">
                <EditField projectId={projectId} field={field} onDone={() => setEditing(null)} />
              </li>
            ) : (
              <li key={field._id} className="flex flex-wrap items-center gap-x-3 gap-y-2 px-5 py-3">
                <div className="min-w-0 flex-1">
                  <p className="flex flex-wrap items-center gap-2 text-sm font-medium text-slate-900">
                    <span className="break-words">{field.name}</span>
                    <Badge tone="slate">{fieldTypeLabels[field.type]}</Badge>
                    {field.required ? <Badge tone="amber">Required</Badge> : null}
                  </p>
                  <p className="mt-0.5 text-xs text-slate-500">
                    <code className="font-mono">field.{field.key}</code>
                    {field.options.length > 0 ? <span> · {field.options.join(', ')}</span> : null}
                  </p>
                </div>
                {canManage ? (
                  <div className="flex shrink-0 gap-1">
                    <Button
                      variant="ghost"
                      size="sm"
                      icon={<Pencil className="size-4" />}
                      aria-label={`Edit ${field.name}`}
                      onClick={() => setEditing(field._id)}
                    >
                      Edit
                    </Button>
                    <Button
                      variant="ghost"
                      size="sm"
                      icon={<Trash2 className="size-4" />}
                      aria-label={`Remove ${field.name}`}
                      onClick={() => setRemoving(field)}
                    >
                      Remove
                    </Button>
                  </div>
                ) : null}
              </li>
            ),
          )}
        </ul>
      )}
      {canManage ? <AddField projectId={projectId} /> : null}
      <ConfirmModal
        isOpen={removing !== null}
        title={`Remove ${removing?.name ?? 'the field'}?`}
        confirmLabel="Remove field"
        isBusy={remove.isPending}
        onClose={() => setRemoving(null)}
        onConfirm={() =>
          removing &&
          remove.mutate(removing._id, {
            onSuccess: () => {
              notify.success(`${removing.name} removed`);
              setRemoving(null);
            },
            onError: (error) => notify.error(messageOf(error, 'Could not remove the field')),
          })
        }
      >
        Bugs stop showing it. Their histories keep naming the values they had.
      </ConfirmModal>
    </Card>
  );
}

function AddField({ projectId }: { projectId: string }) {
  const add = useAddField(projectId);
  const [name, setName] = useState('');
  const [type, setType] = useState<FieldDto['type']>('text');
  const [options, setOptions] = useState('');
  const [required, setRequired] = useState(false);
  const [error, setError] = useState<{ field: 'name' | 'options'; message: string } | null>(null);
  const hasOptions = optionTypes.includes(type);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    add.mutate(
      { name, type, options: hasOptions ? optionLines(options) : [], required },
      {
        onSuccess: (field) => {
          notify.success(`${(field as FieldDto).name} added`);
          setName('');
          setOptions('');
          setRequired(false);
          setError(null);
        },
        onError: (failure) => {
          const message = messageOf(failure, 'Could not add the field');
          setError({ field: /option/i.test(message) ? 'options' : 'name', message });
        },
      },
    );
  };
  return (
    <form onSubmit={submit} className="grid gap-4 border-t border-slate-100 px-5 py-4 sm:grid-cols-2" noValidate>
      <TextField
        label="New field"
        placeholder="e.g. Customer"
        value={name}
        error={error?.field === 'name' ? error.message : undefined}
        onChange={(event) => setName(event.target.value)}
      />
      <SelectField
        label="Type"
        value={type}
        onChange={(event) => setType(event.target.value as FieldDto['type'])}
        options={fieldTypes.map((t) => ({ value: t, label: fieldTypeLabels[t] }))}
      />
      {hasOptions ? (
        <TextAreaField
          label="Options"
          wrapperClassName="sm:col-span-2"
          rows={3}
          placeholder={'One per line'}
          hint="One per line, in the order they are offered"
          value={options}
          error={error?.field === 'options' ? error.message : undefined}
          onChange={(event) => setOptions(event.target.value)}
        />
      ) : null}
      <label className="inline-flex items-center gap-2 text-sm text-slate-700 sm:col-span-2">
        <input
          type="checkbox"
          className="size-4 rounded border-slate-300 text-brand-600 focus:ring-brand-500"
          checked={required}
          onChange={(event) => setRequired(event.target.checked)}
        />
        Required on every report
      </label>
      <div className="sm:col-span-2">
        <Button type="submit" icon={<Plus className="size-4" />} isLoading={add.isPending}>
          Add field
        </Button>
      </div>
    </form>
  );
}

function EditField({ projectId, field, onDone }: { projectId: string; field: FieldDto; onDone: () => void }) {
  const change = useChangeField(projectId);
  const [name, setName] = useState(field.name);
  const [options, setOptions] = useState(field.options.join('\n'));
  const [required, setRequired] = useState(field.required);
  const [error, setError] = useState<string | null>(null);
  const hasOptions = optionTypes.includes(field.type);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    change.mutate(
      {
        fieldId: field._id,
        change: {
          ...(name !== field.name ? { name } : {}),
          ...(required !== field.required ? { required } : {}),
          // A line edited in place renames that option (its bugs follow); the server reads the list so.
          ...(hasOptions ? { options: optionLines(options) } : {}),
        },
      },
      {
        onSuccess: () => {
          notify.success(`${name.trim() || field.name} saved`);
          onDone();
        },
        onError: (failure) => setError(messageOf(failure, 'Could not save the field')),
      },
    );
  };
  return (
    <form onSubmit={submit} className="grid gap-4 sm:grid-cols-2" noValidate aria-label={`Edit ${field.name}`}>
      <TextField
        label="Name"
        value={name}
        error={error ?? undefined}
        hint={`Its key stays field.${field.key}`}
        onChange={(event) => setName(event.target.value)}
      />
      <div className="flex items-end">
        <label className="inline-flex items-center gap-2 pb-2 text-sm text-slate-700">
          <input
            type="checkbox"
            className="size-4 rounded border-slate-300 text-brand-600 focus:ring-brand-500"
            checked={required}
            onChange={(event) => setRequired(event.target.checked)}
          />
          Required on every report
        </label>
      </div>
      {hasOptions ? (
        <TextAreaField
          label="Options"
          wrapperClassName="sm:col-span-2"
          rows={Math.min(8, Math.max(3, field.options.length + 1))}
          hint="One per line. Change a line to rename that option everywhere; delete a line to stop offering it."
          value={options}
          onChange={(event) => setOptions(event.target.value)}
        />
      ) : null}
      <div className="flex gap-2 sm:col-span-2">
        <Button type="submit" isLoading={change.isPending}>
          Save
        </Button>
        <Button variant="ghost" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
