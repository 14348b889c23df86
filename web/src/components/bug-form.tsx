import type { FieldDto } from '@bugtrail/domain/vocabulary';
import { Trash2 } from 'lucide-react';
import { type FormEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import {
  attachmentLinkError,
  type BugFormValues,
  emptyBugForm,
  type FormErrors,
  limits,
  todayDay,
  validateBugForm,
} from '../lib/bug-form';
import { fieldErrors } from '../lib/fields';
import { notify } from '../lib/notify';
import type { UserRef } from '../lib/types';
import { DescriptionField, DueDateField, ModuleField, PriorityField, SeverityField, TitleField } from './bug-fields';
import { BugFormEntries } from './bug-form-entries';
import { ConfirmModal } from './confirm-modal';
import { CustomFieldInputs } from './custom-fields';
import { DeveloperPicker } from './developer-picker';
import { Button } from './ui/button';
import { Card } from './ui/card';

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
  /** Shown first in the form (the report form's project choice). */
  header?: ReactNode;
  /**
   * When set, no developer need be picked (a team project's report waits in triage): the text
   * says so under the picker.
   */
  assigneesOptional?: string | undefined;
  /** Only these may be assigned (a private project's members); anyone when absent. */
  assignableIds?: ReadonlySet<string> | undefined;
  /** Shown under the description (the report form's triage suggestions); `apply` sets fields as one click. */
  renderSuggestions?: (form: { values: BugFormValues; apply: (patch: Partial<BugFormValues>) => void }) => ReactNode;
  /** The project's custom fields (issue 37): an input each, checked by the domain's rules. */
  projectFields?: readonly FieldDto[] | undefined;
  /** Whom a user field may name. */
  fieldPeople?: readonly { _id: string; name: string }[] | undefined;
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
  header,
  assigneesOptional,
  assignableIds,
  renderSuggestions,
  projectFields = [],
  fieldPeople = [],
}: BugFormProps) {
  const [opened] = useState<BugFormValues>(() => initial ?? emptyBugForm());
  const [values, setValues] = useState<BugFormValues>(opened);
  const [errors, setErrors] = useState<FormErrors>({});
  const [customErrors, setCustomErrors] = useState<Record<string, string | undefined>>({});
  const [checklistDraft, setChecklistDraft] = useState('');
  const [attachmentDraft, setAttachmentDraft] = useState('');
  const [isClearOpen, setClearOpen] = useState(false);
  const [failedSubmits, setFailedSubmits] = useState(0);
  const formRef = useRef<HTMLFormElement>(null);
  const developersLabel = useId();

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
  const fields = { values, errors, set };
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
    const found = validateBugForm(submitted, new Date(), {
      dueDateRequired: !!dueDateRequired,
      assigneesOptional: assigneesOptional !== undefined,
    });
    const linkProblem = pendingLink ? attachmentLinkError(pendingLink) : null;
    if (linkProblem) found.attachments = linkProblem;
    const custom = fieldErrors(projectFields, submitted.fields, isEditing);
    setErrors(found);
    setCustomErrors(custom);
    if (Object.values(found).some(Boolean) || Object.values(custom).some(Boolean)) {
      setFailedSubmits((count) => count + 1);
      notify.error(FIX_ERRORS);
      return;
    }
    onSubmit(submitted);
  };

  const clear = () => {
    setValues(emptyBugForm());
    setErrors({});
    setCustomErrors({});
    setChecklistDraft('');
    setAttachmentDraft('');
    setClearOpen(false);
  };

  return (
    <form ref={formRef} onSubmit={submit} noValidate>
      <Card className="divide-y divide-slate-100">
        {/* One column of minmax(0, 1fr): a long developer name truncates instead of widening the page. */}
        <section className="grid grid-cols-1 gap-5 p-6">
          {header}
          <TitleField
            {...fields}
            placeholder="Short summary of the bug"
            hint={`${limits.titleMin}–${limits.titleMax} characters`}
          />
          <DescriptionField
            {...fields}
            rows={5}
            placeholder="What happened, what you expected, and where"
            hint={`At least ${limits.descriptionMin} characters`}
          />
          {renderSuggestions?.({ values, apply })}
          <div className="grid grid-cols-1 gap-5 sm:grid-cols-2">
            <PriorityField {...fields} />
            <SeverityField {...fields} />
            <ModuleField {...fields} placeholder="e.g. Checkout" />
            <DueDateField {...fields} min={todayDay(new Date())} />
          </div>
          <CustomFieldInputs
            fields={projectFields}
            values={values.fields}
            errors={customErrors}
            people={fieldPeople}
            onChange={(key, value) => {
              set('fields', { ...values.fields, [key]: value });
              setCustomErrors((current) => (current[key] ? { ...current, [key]: undefined } : current));
            }}
          />
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
              onlyAmong={assignableIds}
            />
            {errors.assignedTo ? (
              <p role="alert" className="text-sm text-rose-600">
                {errors.assignedTo}
              </p>
            ) : assigneesOptional ? (
              <p className="text-xs text-slate-500">{assigneesOptional}</p>
            ) : null}
          </div>
        </section>

        <BugFormEntries
          {...fields}
          clearError={clearError}
          checklistDraft={checklistDraft}
          setChecklistDraft={setChecklistDraft}
          addChecklist={addChecklist}
          attachmentDraft={attachmentDraft}
          setAttachmentDraft={setAttachmentDraft}
          addAttachment={addAttachment}
        />

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
