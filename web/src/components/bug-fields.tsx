import { priorities, severities } from '@bugtrail/domain/vocabulary';
import type { BugFormValues, FormErrors } from '../lib/bug-form';
import { SelectField, TextAreaField, TextField } from './ui/field';

/**
 * A bug's fields, written once for the report/edit form (BugForm) and the admin's View /
 * Update form: each shows its own error under it. The forms lay them out as the spec gives
 * each page; what differs (hints, rows, the earliest due date) is a prop.
 */
export type BugFieldProps = {
  values: BugFormValues;
  errors: FormErrors;
  set: <K extends keyof BugFormValues>(field: K, value: BugFormValues[K]) => void;
};

const priorityOptions = priorities.map((value) => ({ value, label: value }));
const severityOptions = severities.map((value) => ({ value, label: value }));

export function TitleField({
  values,
  errors,
  set,
  placeholder,
  hint,
}: BugFieldProps & { placeholder?: string; hint?: string }) {
  return (
    <TextField
      label="Title"
      name="title"
      placeholder={placeholder}
      value={values.title}
      error={errors.title}
      hint={hint}
      onChange={(event) => set('title', event.target.value)}
    />
  );
}

export function DescriptionField({
  values,
  errors,
  set,
  rows,
  placeholder,
  hint,
}: BugFieldProps & { rows: number; placeholder?: string; hint?: string }) {
  return (
    <TextAreaField
      label="Description"
      name="description"
      rows={rows}
      placeholder={placeholder}
      value={values.description}
      error={errors.description}
      hint={hint}
      onChange={(event) => set('description', event.target.value)}
    />
  );
}

export function PriorityField({ values, set }: BugFieldProps) {
  return (
    <SelectField
      label="Priority"
      name="priority"
      value={values.priority}
      options={priorityOptions}
      onChange={(event) => set('priority', event.target.value)}
    />
  );
}

export function SeverityField({ values, set }: BugFieldProps) {
  return (
    <SelectField
      label="Severity"
      name="severity"
      value={values.severity}
      options={severityOptions}
      onChange={(event) => set('severity', event.target.value)}
    />
  );
}

export function ModuleField({ values, errors, set, placeholder }: BugFieldProps & { placeholder?: string }) {
  return (
    <TextField
      label="Module"
      name="module"
      placeholder={placeholder}
      value={values.module}
      error={errors.module}
      onChange={(event) => set('module', event.target.value)}
    />
  );
}

/** `min`: the earliest day the picker offers (the report form's "not before today"). */
export function DueDateField({ values, errors, set, min }: BugFieldProps & { min?: string }) {
  return (
    <TextField
      label="Due Date"
      name="dueDate"
      type="date"
      min={min}
      value={values.dueDate}
      error={errors.dueDate}
      onChange={(event) => set('dueDate', event.target.value)}
    />
  );
}
