import type { BugState, ReportedBug } from './bug.js';

/**
 * What an event changed on a bug, field by field: before and after as the state holds them
 * (ids, stored words, ISO times; no names). The audit timeline names the people in them;
 * analysts read them as they are (`analytics.bug_events.changes`).
 */
export type BugFieldChange = Readonly<{ field: BugField; from: unknown; to: unknown }>;

const fieldValues = {
  title: (r: ReportedBug) => r.title,
  description: (r: ReportedBug) => r.description,
  priority: (r: ReportedBug) => r.priority,
  severity: (r: ReportedBug) => r.severity,
  status: (r: ReportedBug) => r.status,
  module: (r: ReportedBug) => r.module,
  dueDate: (r: ReportedBug) => r.dueDate,
  assignedTo: (r: ReportedBug) => r.assigneeIds,
  checklist: (r: ReportedBug) => r.checklist,
  attachments: (r: ReportedBug) => r.attachments,
  deleted: (r: ReportedBug) => r.deleted,
  commits: (r: ReportedBug) => r.code.commits,
  pullRequests: (r: ReportedBug) => r.code.pullRequests,
  labels: (r: ReportedBug) => r.labelIds,
  parent: (r: ReportedBug) => r.parentId,
  milestone: (r: ReportedBug) => r.milestoneId,
  /** Custom field values by field id (option ids for selects): the history names them. */
  fields: (r: ReportedBug) => r.fieldValues,
  estimate: (r: ReportedBug) => r.estimate,
  timeSpentMinutes: (r: ReportedBug) => r.worklog.reduce((sum, e) => sum + e.minutes, 0),
} as const;

/** Fields a report leaves empty and does not list: they change only later (code links). */
const laterOnly: ReadonlySet<BugField> = new Set([
  'commits',
  'pullRequests',
  'labels',
  'parent',
  'milestone',
  'fields',
  'estimate',
  'timeSpentMinutes',
]);

export type BugField = keyof typeof fieldValues;
export const bugFields = Object.keys(fieldValues) as readonly BugField[];

/**
 * The fields that differ between two states of one bug, in a fixed order. A report lists
 * every field (from null). Folds share what an event leaves alone, so the same reference
 * means no change and only changed lists are compared by value.
 */
export function bugFieldChanges(before: BugState, after: BugState): BugFieldChange[] {
  if (after.kind !== 'reported') return [];
  const changes: BugFieldChange[] = [];
  for (const field of bugFields) {
    const value = fieldValues[field];
    const to = value(after);
    if (before.kind !== 'reported') {
      if (laterOnly.has(field)) continue;
      changes.push({ field, from: null, to });
      continue;
    }
    const from = value(before);
    if (from === to) continue;
    if (typeof to === 'object' && JSON.stringify(from) === JSON.stringify(to)) continue;
    changes.push({ field, from, to });
  }
  return changes;
}
