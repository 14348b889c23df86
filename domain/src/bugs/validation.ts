import type { FieldIssue } from '../core/errors.js';
import { bugMessages } from './permissions.js';

/**
 * The bug form's rules (spec section 5) with their exact messages, in the spec's
 * order. The web form shows them under its fields; the server answers them as 400
 * details. Pure: "now" is an argument.
 */

/** Limits the spec does not state but the events need (and a form should show). */
export const bugLimits = {
  titleMin: 5,
  titleMax: 100,
  descriptionMin: 10,
  descriptionMax: 20_000,
  moduleMax: 50,
  checklistItemMax: 500,
  checklistItems: 100,
  attachmentMax: 2048,
  attachments: 50,
  assignees: 50,
} as const;

export const bugLimitMessages = {
  descriptionTooLong: `Description cannot exceed ${bugLimits.descriptionMax} characters`,
  dueDateInvalid: 'Due date must be a valid date',
  checklistItemTooLong: `Checklist items cannot exceed ${bugLimits.checklistItemMax} characters`,
  tooManyChecklistItems: `A checklist cannot have more than ${bugLimits.checklistItems} items`,
  attachmentScheme: 'Attachment must be an http or https URL',
  tooManyAttachments: `A bug cannot have more than ${bugLimits.attachments} attachment links`,
  tooManyAssignees: `A bug cannot have more than ${bugLimits.assignees} assigned developers`,
  unknownDevelopers: 'Assigned users must be existing developers',
} as const;

export type BugFormValues = Readonly<{
  title: string;
  description: string;
  assigneeIds: readonly string[];
  /** As typed or sent: an ISO date-time, a `YYYY-MM-DD` day, or null/blank for none. */
  dueDate: string | null;
  module: string | null;
  checklist?: readonly string[];
  attachments?: readonly string[];
}>;

export type BugFormOptions = Readonly<{
  /** The current time (ISO 8601 or Date). */
  now: string | Date;
  /** Validate the due date (on edit: only when it changes). Default true. */
  checkDueDate?: boolean;
  /** No assignee is fine: a team project's report waits in triage (api.md "Projects"). Default false. */
  assigneesOptional?: boolean;
}>;

/** Checklist and attachment entries are trimmed; blank ones are dropped. */
export function cleanEntries(entries: readonly unknown[] | null | undefined): string[] {
  if (!entries) return [];
  return entries.flatMap((entry) => {
    const text = typeof entry === 'string' ? entry.trim() : '';
    return text ? [text] : [];
  });
}

/** Midnight (UTC) that starts the day `now` falls in. */
export function startOfUtcDay(now: string | Date): Date {
  const d = new Date(now);
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
}

/** The due date as stored (ISO 8601, UTC); null for blank; undefined when it is not a date. */
export function normaliseDueDate(value: string | null | undefined): string | null | undefined {
  if (value === null || value === undefined) return null;
  const text = value.trim();
  if (!text) return null;
  // Only real date forms: a day, or a day with a time (and zone); never a bare number.
  if (!/^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/i.test(text)) return undefined;
  // A date or time without a zone is read as UTC, never as the server's local time.
  const withZone = text.length === 10 ? `${text}T00:00:00Z` : /(Z|[+-]\d{2}:?\d{2})$/i.test(text) ? text : `${text}Z`;
  const time = Date.parse(withZone.replace(' ', 'T'));
  return Number.isNaN(time) ? undefined : new Date(time).toISOString();
}

/**
 * A due date is acceptable when it is not before the start of the current UTC day,
 * so the picker's "today" passes (api.md).
 */
export function isDueDateAcceptable(dueDate: string, now: string | Date): boolean {
  const iso = normaliseDueDate(dueDate);
  if (!iso) return false;
  return Date.parse(iso) >= startOfUtcDay(now).getTime();
}

/** A link a browser may open: http(s), or no scheme at all (a plain note or path). */
export function isSafeLink(link: string): boolean {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(link.trim());
  if (!scheme) return true;
  const name = scheme[1]!.toLowerCase();
  return name === 'http' || name === 'https';
}

/**
 * An attachment link as stored: after trimming, an absolute http: or https: URL with a host
 * and no control characters anywhere (so `java\tscript:` and "not a url" are refused).
 */
export function isAttachmentUrl(link: string): boolean {
  const text = link.trim();
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it looks for
  if (/[\u0000-\u001f\u007f-\u009f]/.test(text)) return false;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return false;
  }
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
}

/** The create/update form's rules, in the spec's order. */
export function validateBugForm(values: BugFormValues, options: BugFormOptions): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const add = (field: string, message: string) => issues.push({ field, message });

  const title = values.title.trim();
  if (!title) add('title', bugMessages.titleRequired);
  else if (title.length < bugLimits.titleMin) add('title', bugMessages.titleTooShort);
  else if (title.length > bugLimits.titleMax) add('title', bugMessages.titleTooLong);

  const description = values.description.trim();
  if (!description) add('description', bugMessages.descriptionRequired);
  else if (description.length < bugLimits.descriptionMin) add('description', bugMessages.descriptionTooShort);
  else if (description.length > bugLimits.descriptionMax) add('description', bugLimitMessages.descriptionTooLong);

  const assignees = values.assigneeIds.filter((id) => id.trim());
  if (assignees.length === 0) {
    if (!options.assigneesOptional) add('assignedTo', bugMessages.developerRequired);
  } else if (new Set(assignees).size > bugLimits.assignees) add('assignedTo', bugLimitMessages.tooManyAssignees);

  if (options.checkDueDate !== false && values.dueDate !== null && values.dueDate.trim() !== '') {
    const iso = normaliseDueDate(values.dueDate);
    if (iso === undefined) add('dueDate', bugLimitMessages.dueDateInvalid);
    else if (iso !== null && !isDueDateAcceptable(iso, options.now)) add('dueDate', bugMessages.dueDateInFuture);
  }

  if ((values.module ?? '').trim().length > bugLimits.moduleMax) add('module', bugMessages.moduleTooLong);

  if (values.checklist) issues.push(...validateChecklistTexts(values.checklist));
  if (values.attachments) issues.push(...validateAttachmentLinks(values.attachments));
  return issues;
}

/** Checklist entries (after trimming): length and count. */
export function validateChecklistTexts(texts: readonly string[]): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const clean = cleanEntries(texts);
  if (clean.length > bugLimits.checklistItems) {
    issues.push({ field: 'checklist', message: bugLimitMessages.tooManyChecklistItems });
  }
  clean.forEach((text, index) => {
    if (text.length > bugLimits.checklistItemMax) {
      issues.push({ field: `checklist.${index}.text`, message: bugLimitMessages.checklistItemTooLong });
    }
  });
  return issues;
}

/** Attachment links (after trimming): length, count, and absolute http(s) URLs only. */
export function validateAttachmentLinks(links: readonly string[]): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const clean = [...new Set(cleanEntries(links))];
  if (clean.length > bugLimits.attachments) {
    issues.push({ field: 'attachments', message: bugLimitMessages.tooManyAttachments });
  }
  clean.forEach((link, index) => {
    // api.md: one answer for every link that is not an http(s) URL of at most 2,048 characters.
    if (link.length > bugLimits.attachmentMax || !isAttachmentUrl(link)) {
      issues.push({ field: `attachments.${index}`, message: bugLimitMessages.attachmentScheme });
    }
  });
  return issues;
}

export type AdminBugUpdateValues = Readonly<{
  title: string;
  description: string;
  dueDate: string | null;
  assigneeIds: readonly string[];
}>;

/**
 * The admin View/Update screen's checks, in its own order (spec section 5): title,
 * description, due date, assignees — each only "required". The server applies the
 * general form rules; this is for the admin form.
 */
export function validateAdminBugUpdate(values: AdminBugUpdateValues): FieldIssue[] {
  const issues: FieldIssue[] = [];
  if (!values.title.trim()) issues.push({ field: 'title', message: bugMessages.titleRequired });
  if (!values.description.trim()) issues.push({ field: 'description', message: bugMessages.descriptionRequired });
  if (!values.dueDate?.trim()) issues.push({ field: 'dueDate', message: bugMessages.dueDateRequired });
  if (values.assigneeIds.filter((id) => id.trim()).length === 0) {
    issues.push({ field: 'assignedTo', message: bugMessages.assignedRequired });
  }
  return issues;
}
