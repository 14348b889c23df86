import { priorities, severities } from '@bugtrail/domain/vocabulary';
import { Link as LinkIcon, ListChecks, Plus, Trash2, X } from 'lucide-react';
import { type FormEvent, type KeyboardEvent, useId, useState } from 'react';
import { type BugFormValues, emptyBugForm, type FormErrors, limits, todayDay, validateBugForm } from '../lib/bug-form';
import { notify } from '../lib/notify';
import type { UserRef } from '../lib/types';
import { DeveloperPicker } from './developer-picker';
import { Button } from './ui/button';
import { Card } from './ui/card';
import { controlClass, SelectField, TextAreaField, TextField } from './ui/field';

const priorityOptions = priorities.map((value) => ({ value, label: value }));
const severityOptions = severities.map((value) => ({ value, label: value }));

export const FIX_ERRORS = 'Please fix the errors in the form';

type BugFormProps = {
  initial?: BugFormValues;
  knownDevelopers?: UserRef[];
  isEditing: boolean;
  isSaving: boolean;
  isDeleting?: boolean;
  onSubmit: (values: BugFormValues) => void;
  onDelete?: () => void;
  dueDateRequired?: boolean;
};

/** The shared report/edit form (tester report and edit, admin create). */
export function BugForm({
  initial,
  knownDevelopers,
  isEditing,
  isSaving,
  isDeleting,
  onSubmit,
  onDelete,
  dueDateRequired,
}: BugFormProps) {
  const [values, setValues] = useState<BugFormValues>(() => initial ?? emptyBugForm());
  const [errors, setErrors] = useState<FormErrors>({});
  const [checklistDraft, setChecklistDraft] = useState('');
  const [attachmentDraft, setAttachmentDraft] = useState('');
  const developersLabel = useId();
  const checklistId = useId();
  const attachmentId = useId();

  const set = <K extends keyof BugFormValues>(field: K, value: BugFormValues[K]) => {
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => (current[field] ? { ...current, [field]: undefined } : current));
  };

  const addChecklist = () => {
    const text = checklistDraft.trim();
    if (!text) return;
    set('checklist', [...values.checklist, { text, completed: false }]);
    setChecklistDraft('');
  };
  const addAttachment = () => {
    const link = attachmentDraft.trim();
    if (!link) return;
    set('attachments', [...values.attachments, link]);
    setAttachmentDraft('');
  };
  const onEnter = (add: () => void) => (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      add();
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = validateBugForm(values, new Date(), { dueDateRequired: !!dueDateRequired });
    setErrors(found);
    if (Object.values(found).some(Boolean)) {
      notify.error(FIX_ERRORS);
      return;
    }
    onSubmit(values);
  };

  const clear = () => {
    setValues(emptyBugForm());
    setErrors({});
    setChecklistDraft('');
    setAttachmentDraft('');
  };

  return (
    <form onSubmit={submit} noValidate>
      <Card className="divide-y divide-slate-100">
        <section className="grid gap-5 p-6">
          <TextField
            label="Title"
            name="title"
            placeholder="Short summary of the bug"
            value={values.title}
            error={errors.title}
            hint={`${limits.titleMin}–${limits.titleMax} characters`}
            onChange={(event) => set('title', event.target.value)}
          />
          <TextAreaField
            label="Description"
            name="description"
            rows={5}
            placeholder="What happened, what you expected, and where"
            value={values.description}
            error={errors.description}
            hint={`At least ${limits.descriptionMin} characters`}
            onChange={(event) => set('description', event.target.value)}
          />
          <div className="grid grid-cols-1 gap-5 sm:grid-cols-2">
            <SelectField
              label="Priority"
              name="priority"
              value={values.priority}
              options={priorityOptions}
              onChange={(event) => set('priority', event.target.value)}
            />
            <SelectField
              label="Severity"
              name="severity"
              value={values.severity}
              options={severityOptions}
              onChange={(event) => set('severity', event.target.value)}
            />
            <TextField
              label="Module"
              name="module"
              placeholder="e.g. Checkout"
              value={values.module}
              error={errors.module}
              onChange={(event) => set('module', event.target.value)}
            />
            <TextField
              label="Due Date"
              name="dueDate"
              type="date"
              min={todayDay(new Date())}
              value={values.dueDate}
              error={errors.dueDate}
              onChange={(event) => set('dueDate', event.target.value)}
            />
          </div>
          <div className="space-y-1.5">
            <p id={developersLabel} className="text-sm font-medium text-slate-700">
              Assign Developers
            </p>
            <DeveloperPicker
              selected={values.assignedTo}
              onChange={(ids) => set('assignedTo', ids)}
              known={knownDevelopers ?? []}
              hasError={!!errors.assignedTo}
              labelledBy={developersLabel}
            />
            {errors.assignedTo ? (
              <p role="alert" className="text-sm text-rose-600">
                {errors.assignedTo}
              </p>
            ) : null}
          </div>
        </section>

        <section className="grid grid-cols-1 gap-6 p-6 lg:grid-cols-2">
          <div className="space-y-2">
            <label htmlFor={checklistId} className="flex items-center gap-2 text-sm font-medium text-slate-700">
              <ListChecks className="size-4 text-slate-400" /> Checklist (steps to reproduce)
            </label>
            <div className="flex gap-2">
              <input
                id={checklistId}
                value={checklistDraft}
                onChange={(event) => setChecklistDraft(event.target.value)}
                onKeyDown={onEnter(addChecklist)}
                placeholder="Add a step and press Enter"
                className={`${controlClass()} h-10`}
              />
              <Button variant="secondary" onClick={addChecklist} icon={<Plus className="size-4" />}>
                Add
              </Button>
            </div>
            {errors.checklist ? (
              <p role="alert" className="text-sm text-rose-600">
                {errors.checklist}
              </p>
            ) : null}
            <ol className="space-y-1.5">
              {values.checklist.map((item, index) => (
                <li
                  key={item._id ?? `${index}-${item.text}`}
                  className="flex items-center gap-2 rounded-lg bg-slate-50 px-3 py-2 text-sm"
                >
                  <span className="flex size-5 shrink-0 items-center justify-center rounded-full bg-white text-xs font-semibold text-slate-500 ring-1 ring-slate-200">
                    {index + 1}
                  </span>
                  <span className="min-w-0 flex-1 break-words text-slate-700">{item.text}</span>
                  <button
                    type="button"
                    aria-label={`Remove step ${index + 1}`}
                    onClick={() =>
                      set(
                        'checklist',
                        values.checklist.filter((_, i) => i !== index),
                      )
                    }
                    className="rounded p-1 text-slate-400 hover:bg-white hover:text-rose-600"
                  >
                    <X className="size-4" />
                  </button>
                </li>
              ))}
            </ol>
          </div>
          <div className="space-y-2">
            <label htmlFor={attachmentId} className="flex items-center gap-2 text-sm font-medium text-slate-700">
              <LinkIcon className="size-4 text-slate-400" /> Attachment links
            </label>
            <div className="flex gap-2">
              <input
                id={attachmentId}
                value={attachmentDraft}
                onChange={(event) => setAttachmentDraft(event.target.value)}
                onKeyDown={onEnter(addAttachment)}
                placeholder="https://…"
                className={`${controlClass()} h-10`}
              />
              <Button variant="secondary" onClick={addAttachment} icon={<Plus className="size-4" />}>
                Add
              </Button>
            </div>
            {errors.attachments ? (
              <p role="alert" className="text-sm text-rose-600">
                {errors.attachments}
              </p>
            ) : null}
            <ul className="space-y-1.5">
              {values.attachments.map((link, index) => (
                <li
                  // biome-ignore lint/suspicious/noArrayIndexKey: the same link may be listed twice
                  key={`${index}-${link}`}
                  className="flex items-center gap-2 rounded-lg bg-slate-50 px-3 py-2 text-sm"
                >
                  <LinkIcon className="size-4 shrink-0 text-slate-400" />
                  <span className="min-w-0 flex-1 truncate text-brand-700">{link}</span>
                  <button
                    type="button"
                    aria-label={`Remove link ${index + 1}`}
                    onClick={() =>
                      set(
                        'attachments',
                        values.attachments.filter((_, i) => i !== index),
                      )
                    }
                    className="rounded p-1 text-slate-400 hover:bg-white hover:text-rose-600"
                  >
                    <X className="size-4" />
                  </button>
                </li>
              ))}
            </ul>
          </div>
        </section>

        <div className="flex flex-col-reverse gap-2 p-6 sm:flex-row sm:items-center">
          {isEditing && onDelete ? (
            <Button variant="danger" onClick={onDelete} isLoading={!!isDeleting} icon={<Trash2 className="size-4" />}>
              Delete Bug
            </Button>
          ) : null}
          <div className="flex flex-col-reverse gap-2 sm:ml-auto sm:flex-row">
            <Button variant="secondary" onClick={clear}>
              Clear
            </Button>
            <Button type="submit" isLoading={isSaving}>
              {isEditing ? 'Update Bug' : 'Report Bug'}
            </Button>
          </div>
        </div>
      </Card>
    </form>
  );
}
