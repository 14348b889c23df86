import { type FormEvent, useState } from 'react';
import { Button } from '../../../../components/ui/button';
import { TextAreaField, TextField } from '../../../../components/ui/field';
import { ApiError, messageOf } from '../../../../lib/api';
import type { Milestone, MilestoneDraft } from '../../../../lib/planning';

type Errors = Partial<Record<keyof MilestoneDraft, string>>;

/** A milestone's fields as the form holds them: dates as the date inputs give them (YYYY-MM-DD or ''). */
export const draftOf = (milestone?: Milestone) => ({
  name: milestone?.name ?? '',
  description: milestone?.description ?? '',
  startDate: milestone?.startDate ?? '',
  dueDate: milestone?.dueDate ?? '',
});
type Values = ReturnType<typeof draftOf>;

/** The server's field messages under their fields; anything else above the buttons. */
function errorsOf(error: unknown): { fields: Errors; other: string } {
  const fields: Errors = {};
  if (error instanceof ApiError)
    for (const detail of error.details)
      if (['name', 'description', 'startDate', 'dueDate'].includes(detail.field))
        fields[detail.field as keyof MilestoneDraft] ??= detail.message;
  return {
    fields,
    other: Object.keys(fields).length > 0 ? '' : messageOf(error, 'Could not save the milestone'),
  };
}

/**
 * A milestone's name, description and dates (api.md "Milestones"): the list's "New milestone" and
 * the milestone page's Edit. The start must not be after the due date (the server says so too).
 */
export function MilestoneForm({
  initial,
  submitLabel,
  onSubmit,
  onCancel,
  isBusy,
}: {
  initial?: Milestone;
  submitLabel: string;
  /** Resolves when saved; a rejection's message shows in the form. */
  onSubmit: (draft: MilestoneDraft) => Promise<unknown>;
  onCancel?: () => void;
  isBusy: boolean;
}) {
  const [values, setValues] = useState<Values>(() => draftOf(initial));
  const [errors, setErrors] = useState<Errors>({});
  const [problem, setProblem] = useState('');
  const set = (field: keyof Values, value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found: Errors = {};
    if (!values.name.trim()) found.name = 'Milestone name is required';
    if (values.startDate && values.dueDate && values.startDate > values.dueDate)
      found.dueDate = 'The due date must not be before the start date';
    setErrors(found);
    setProblem('');
    if (Object.keys(found).length > 0) return;
    try {
      await onSubmit({
        name: values.name.trim(),
        description: values.description.trim(),
        startDate: values.startDate || null,
        dueDate: values.dueDate || null,
      });
      if (!initial) setValues(draftOf());
    } catch (error) {
      const { fields, other } = errorsOf(error);
      setErrors(fields);
      setProblem(other);
    }
  };
  return (
    <form onSubmit={submit} noValidate className="@container grid gap-4">
      <TextField
        label="Name"
        name="name"
        value={values.name}
        error={errors.name}
        maxLength={200}
        placeholder="e.g. Release 2.4"
        onChange={(event) => set('name', event.target.value)}
      />
      <TextAreaField
        label="Description"
        name="description"
        rows={3}
        value={values.description}
        error={errors.description}
        onChange={(event) => set('description', event.target.value)}
      />
      {/* Side by side only where the form is wide (the list page keeps it in a narrow column). */}
      <div className="grid gap-4 @md:grid-cols-2">
        <TextField
          label="Start date"
          name="startDate"
          type="date"
          value={values.startDate}
          error={errors.startDate}
          onChange={(event) => set('startDate', event.target.value)}
        />
        <TextField
          label="Due date"
          name="dueDate"
          type="date"
          value={values.dueDate}
          error={errors.dueDate}
          onChange={(event) => set('dueDate', event.target.value)}
        />
      </div>
      {problem ? (
        <p role="alert" className="text-sm text-rose-600">
          {problem}
        </p>
      ) : null}
      <div className="flex flex-wrap justify-end gap-2">
        {onCancel ? (
          <Button variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
        ) : null}
        <Button type="submit" isLoading={isBusy}>
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}
