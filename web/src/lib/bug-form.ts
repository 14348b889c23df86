import type { FieldDto } from '@bugtrail/domain/vocabulary';
import {
  bugDefaults,
  bugMessages,
  validateAdminBugUpdate,
  validateAttachmentLinks,
  validateBugForm as validateDomainBugForm,
} from '@bugtrail/domain/vocabulary';
import type { FieldDetail } from './api';
import { type FieldFormValues, fieldsPayload } from './fields';

/**
 * The report/edit form's rules with the spec's messages. The server holds the same
 * rules (domain); these run first so the user sees them under the fields.
 */
export type BugFormValues = {
  title: string;
  description: string;
  priority: string;
  severity: string;
  status: string;
  module: string;
  /** yyyy-MM-dd from the date input, or ''. */
  dueDate: string;
  assignedTo: string[];
  checklist: { _id?: string; text: string; completed: boolean }[];
  attachments: string[];
  /** The project's custom fields by key (issue 37). */
  fields: FieldFormValues;
};

export type FormErrors = Partial<Record<keyof BugFormValues, string>>;

export const emptyBugForm = (): BugFormValues => ({
  title: '',
  description: '',
  priority: bugDefaults.priority,
  severity: bugDefaults.severity,
  status: bugDefaults.status,
  module: '',
  dueDate: '',
  assignedTo: [],
  checklist: [],
  attachments: [],
  fields: {},
});

export { bugLimits as limits } from '@bugtrail/domain/vocabulary';

/** The date input gives a calendar day; it is "in the future" unless it is before today. */
export function isDueDateAllowed(day: string, now: Date): boolean {
  const [y, m, d] = day.split('-').map(Number);
  if (!y || !m || !d) return false;
  const due = new Date(y, m - 1, d);
  const today = new Date(now.getFullYear(), now.getMonth(), now.getDate());
  return due.getTime() >= today.getTime();
}

const fieldOf = (path: string): keyof BugFormValues | undefined => {
  const head = path.split('.')[0];
  return head && head in emptyBugForm() ? (head as keyof BugFormValues) : undefined;
};

/**
 * Domain's form rules (the server runs the same), first message per field. The day
 * from the picker goes in as the end of that local day, which is also what is sent.
 */
export function validateBugForm(
  values: BugFormValues,
  now: Date,
  options: { dueDateRequired?: boolean; assigneesOptional?: boolean } = {},
) {
  const errors: FormErrors = {};
  const issues = validateDomainBugForm(
    {
      title: values.title,
      description: values.description,
      assigneeIds: values.assignedTo,
      dueDate: dueDateToIso(values.dueDate),
      module: values.module,
      checklist: values.checklist.map((item) => item.text),
      attachments: values.attachments,
    },
    { now, assigneesOptional: options.assigneesOptional ?? false },
  );
  for (const issue of issues) {
    const field = fieldOf(issue.field);
    if (field && !errors[field]) errors[field] = issue.message;
  }
  // A picked day before today fails here even where UTC has already moved on.
  if (values.dueDate && !errors.dueDate && !isDueDateAllowed(values.dueDate, now))
    errors.dueDate = bugMessages.dueDateInFuture;
  if (!values.dueDate && options.dueDateRequired) errors.dueDate = bugMessages.dueDateRequired;
  return errors;
}

/**
 * The admin's update checks, in the spec's order, first message per field. The due date
 * is not among them: api.md ("Web conventions") lifts the spec's "Due date is required"
 * for the admin's form, and the server takes a null due date.
 */
export function validateAdminUpdateFields(values: BugFormValues): FormErrors {
  const errors: FormErrors = {};
  const issues = validateAdminBugUpdate({
    title: values.title,
    description: values.description,
    dueDate: values.dueDate || null,
    assigneeIds: values.assignedTo,
  });
  for (const issue of issues) {
    const field = fieldOf(issue.field);
    if (field && field !== 'dueDate' && !errors[field]) errors[field] = issue.message;
  }
  return errors;
}

/** The admin's update checks as one message: the first failure wins. */
export function validateAdminUpdate(values: BugFormValues): string | null {
  return Object.values(validateAdminUpdateFields(values)).find(Boolean) ?? null;
}

/**
 * Why a link cannot be attached (not an absolute http(s) URL, too long), or null. The
 * form refuses such links when they are added; the server's own rule is the same one.
 */
export function attachmentLinkError(link: string): string | null {
  return validateAttachmentLinks([link])[0]?.message ?? null;
}

/** Checklist and attachment entries are trimmed; blank ones are dropped. */
export function cleanEntries(entries: string[]): string[] {
  return entries.map((entry) => entry.trim()).filter(Boolean);
}

/** A calendar day from the form as an ISO instant (end of that local day), or null. */
export function dueDateToIso(day: string): string | null {
  if (!day) return null;
  const [y, m, d] = day.split('-').map(Number);
  if (!y || !m || !d) return null;
  return new Date(y, m - 1, d, 23, 59, 59).toISOString();
}

/** An ISO instant as the date input's yyyy-MM-dd (local), or ''. */
export function isoToDay(iso: string | null | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

export function todayDay(now: Date): string {
  return isoToDay(now.toISOString());
}

/** The create-failure toast: one 'field: message' line per server detail. */
export function describeServerDetails(details: FieldDetail[]): string {
  return details.map((detail) => (detail.field ? `${detail.field}: ${detail.message}` : detail.message)).join('\n');
}

/** `fields`: the project's custom fields, when the form showed them (an edit clears those left blank). */
export function toBugPayload(values: BugFormValues, fields?: { defs: readonly FieldDto[]; editing: boolean }) {
  const custom = fields && fields.defs.length > 0 ? fieldsPayload(fields.defs, values.fields, fields.editing) : null;
  return {
    ...(custom && Object.keys(custom).length > 0 ? { fields: custom } : {}),
    title: values.title.trim(),
    description: values.description.trim(),
    priority: values.priority,
    severity: values.severity,
    module: values.module.trim() || null,
    dueDate: dueDateToIso(values.dueDate),
    assignedTo: values.assignedTo,
    checklist: values.checklist
      .map((item) => ({ ...item, text: item.text.trim() }))
      .filter((item) => item.text)
      .map((item) => ({ ...(item._id ? { _id: item._id } : {}), text: item.text, completed: item.completed })),
    attachments: cleanEntries(values.attachments),
  };
}
