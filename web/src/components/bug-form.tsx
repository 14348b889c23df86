import { priorities, severities } from '@bugtrail/domain/vocabulary';
import { Link as LinkIcon, ListChecks, Plus, Trash2, X } from 'lucide-react';
import { type FormEvent, type KeyboardEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import {
  attachmentLinkError,
  type BugFormValues,
  emptyBugForm,
  type FormErrors,
  limits,
  todayDay,
  validateBugForm,
} from '../lib/bug-form';
import { notify } from '../lib/notify';
import type { UserRef } from '../lib/types';
import { ConfirmModal } from './confirm-modal';
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
  /** Leaves without saving (the page's unsaved-changes guard asks first when the form has changes). */
  onCancel?: () => void;
  /** Told whenever the form starts or stops differing from what it opened with. */
  onDirtyChange?: (isDirty: boolean) => void;
  dueDateRequired?: boolean;
  /** Shown under the description (the report form's triage suggestions); `apply` sets fields as one click. */
  renderSuggestions?: (form: { values: BugFormValues; apply: (patch: Partial<BugFormValues>) => void }) => ReactNode;
};

const sameValues = (a: BugFormValues, b: BugFormValues) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The shared report/edit form (tester report and edit, admin create). Every error shows
 * under its own field (which is marked aria-invalid) and the first one takes the focus;
 * the toast only says that there are some. Clear asks before it wipes anything.
 */
export function BugForm({
  initial,
  knownDevelopers,
  isEditing,
  isSaving,
  isDeleting,
  onSubmit,
  onDelete,
  onCancel,
  onDirtyChange,
  dueDateRequired,
  renderSuggestions,
}: BugFormProps) {
  const [opened] = useState<BugFormValues>(() => initial ?? emptyBugForm());
  const [values, setValues] = useState<BugFormValues>(opened);
  const [errors, setErrors] = useState<FormErrors>({});
  const [checklistDraft, setChecklistDraft] = useState('');
  const [attachmentDraft, setAttachmentDraft] = useState('');
  const [isClearOpen, setClearOpen] = useState(false);
  const [failedSubmits, setFailedSubmits] = useState(0);
  const formRef = useRef<HTMLFormElement>(null);
  const developersLabel = useId();
  const checklistId = useId();
  const attachmentId = useId();

  const hasDrafts = checklistDraft.trim() !== '' || attachmentDraft.trim() !== '';
  const isDirty = hasDrafts || !sameValues(values, opened);
  const hasContent = hasDrafts || !sameValues(values, emptyBugForm());
  useEffect(() => {
    onDirtyChange?.(isDirty);
  }, [isDirty, onDirtyChange]);

  // After a refused submit, the first field in error (in page order) takes the focus.
  useEffect(() => {
    if (failedSubmits === 0) return;
    formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"], [data-invalid="true"] input')?.focus();
  }, [failedSubmits]);

  const set = <K extends keyof BugFormValues>(field: K, value: BugFormValues[K]) => {
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => (current[field] ? { ...current, [field]: undefined } : current));
  };
  const apply = (patch: Partial<BugFormValues>) => {
    for (const [field, value] of Object.entries(patch)) set(field as keyof BugFormValues, value as never);
  };
  const clearError = (field: keyof BugFormValues) =>
    setErrors((current) => (current[field] ? { ...current, [field]: undefined } : current));

  const addChecklist = () => {
    const text = checklistDraft.trim();
    if (!text) return;
    set('checklist', [...values.checklist, { text, completed: false }]);
    setChecklistDraft('');
  };
  /** A link is listed only when it is an absolute http(s) URL; otherwise it stays in the box, with the reason. */
  const addAttachment = () => {
    const link = attachmentDraft.trim();
    if (!link) return;
    const problem = attachmentLinkError(link);
    if (problem) {
      setErrors((current) => ({ ...current, attachments: problem }));
      return;
    }
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
    // A step or link typed but not yet added goes in with the rest (a link only if it is one).
    const pendingStep = checklistDraft.trim();
    const pendingLink = attachmentDraft.trim();
    const submitted: BugFormValues = {
      ...values,
      checklist: pendingStep ? [...values.checklist, { text: pendingStep, completed: false }] : values.checklist,
      attachments: pendingLink ? [...values.attachments, pendingLink] : values.attachments,
    };
    const found = validateBugForm(submitted, new Date(), { dueDateRequired: !!dueDateRequired });
    const linkProblem = pendingLink ? attachmentLinkError(pendingLink) : null;
    if (linkProblem) found.attachments = linkProblem;
    setErrors(found);
    if (Object.values(found).some(Boolean)) {
      setFailedSubmits((count) => count + 1);
      notify.error(FIX_ERRORS);
      return;
    }
    onSubmit(submitted);
  };

  const clear = () => {
    setValues(emptyBugForm());
    setErrors({});
    setChecklistDraft('');
    setAttachmentDraft('');
    setClearOpen(false);
  };

  return (
    <form ref={formRef} onSubmit={submit} noValidate>
      <Card className="divide-y divide-slate-100">
        {/* One column of minmax(0, 1fr): a long developer name truncates instead of widening the page. */}
        <section className="grid grid-cols-1 gap-5 p-6">
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
          {renderSuggestions?.({ values, apply })}
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
          <div className="space-y-1.5" data-invalid={!!errors.assignedTo || undefined}>
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
                onChange={(event) => {
                  setChecklistDraft(event.target.value);
                  clearError('checklist');
                }}
                onKeyDown={onEnter(addChecklist)}
                placeholder="Add a step and press Enter"
                aria-invalid={!!errors.checklist || undefined}
                aria-describedby={errors.checklist ? `${checklistId}-error` : undefined}
                className={`${controlClass(!!errors.checklist)} h-10`}
              />
              <Button variant="secondary" onClick={addChecklist} icon={<Plus className="size-4" />}>
                Add
              </Button>
            </div>
            {errors.checklist ? (
              <p id={`${checklistId}-error`} role="alert" className="text-sm text-rose-600">
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
                type="url"
                inputMode="url"
                value={attachmentDraft}
                onChange={(event) => {
                  setAttachmentDraft(event.target.value);
                  clearError('attachments');
                }}
                onKeyDown={onEnter(addAttachment)}
                placeholder="https://…"
                aria-invalid={!!errors.attachments || undefined}
                aria-describedby={errors.attachments ? `${attachmentId}-error` : `${attachmentId}-hint`}
                className={`${controlClass(!!errors.attachments)} h-10`}
              />
              <Button variant="secondary" onClick={addAttachment} icon={<Plus className="size-4" />}>
                Add
              </Button>
            </div>
            {errors.attachments ? (
              <p id={`${attachmentId}-error`} role="alert" className="text-sm text-rose-600">
                {errors.attachments}
              </p>
            ) : (
              <p id={`${attachmentId}-hint`} className="text-xs text-slate-500">
                A full link, starting with https:// or http://
              </p>
            )}
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
            {onCancel ? (
              <Button variant="ghost" onClick={onCancel}>
                Cancel
              </Button>
            ) : null}
            <Button variant="secondary" onClick={() => (hasContent ? setClearOpen(true) : clear())}>
              Clear
            </Button>
            <Button type="submit" isLoading={isSaving}>
              {isEditing ? 'Update Bug' : 'Report Bug'}
            </Button>
          </div>
        </div>
      </Card>
      <ConfirmModal
        isOpen={isClearOpen}
        title="Clear the form?"
        confirmLabel="Clear"
        onClose={() => setClearOpen(false)}
        onConfirm={clear}
      >
        {isEditing
          ? 'Every field of this form will be emptied. The bug itself changes only if you then save.'
          : 'Everything you have entered in this form will be removed.'}
      </ConfirmModal>
    </form>
  );
}
