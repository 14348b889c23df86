import { NotFoundError, ValidationError } from '@bugtrail/domain';
import type { RecordedEvent } from '@bugtrail/eventstore';
import type { z } from 'zod';
import type { ReadApiDeps } from '../deps.js';
import type { bugAtSchema, bugChangeSchema, bugCompareSchema, historyQuery } from './bugs.schemas.js';
import { bugAt } from './history.js';

/**
 * Two moments of one bug side by side (`GET /api/bugs/{id}/history?from=T1&to=T2`):
 * the bug as it was at each, and the fields that differ, named as the bug form names
 * them so the answer reads like the page the timeline is on.
 */

type BugAt = z.infer<typeof bugAtSchema>;
type BugChange = z.infer<typeof bugChangeSchema>;

/** The bug answer's keys in the bug form's order, each with its label there. */
export const bugFieldLabels = [
  ['title', 'Title'],
  ['description', 'Description'],
  ['priority', 'Priority'],
  ['severity', 'Severity'],
  ['status', 'Status'],
  ['module', 'Module'],
  ['dueDate', 'Due Date'],
  ['assignedTo', 'Assign To'],
  ['checklist', 'Checklist'],
  ['attachments', 'Attachments'],
  ['files', 'Files'],
  // Not on the form, but a difference all the same: the bug was deleted in between.
  ['deleted', 'Deleted'],
] as const satisfies readonly (readonly [keyof BugAt, string])[];

function fieldValue(bug: BugAt | null, key: (typeof bugFieldLabels)[number][0]): unknown {
  if (!bug) return null;
  if (key === 'deleted') return bug.deleted ?? false;
  return bug[key] ?? null;
}

/** The fields that differ between two states of a bug, each as { field, from, to }. */
export function bugChanges(from: BugAt | null, to: BugAt | null): BugChange[] {
  const changes: BugChange[] = [];
  for (const [key, field] of bugFieldLabels) {
    const a = fieldValue(from, key);
    const b = fieldValue(to, key);
    if (JSON.stringify(a) !== JSON.stringify(b)) changes.push({ field, from: a, to: b });
  }
  return changes;
}

/**
 * The comparison the query asks for. `from` and `to` go together and exclude `at`;
 * either moment may precede the bug (that side is null), but not both.
 */
export async function compareBug(
  deps: Pick<ReadApiDeps, 'db'>,
  events: readonly RecordedEvent[],
  query: z.infer<typeof historyQuery>,
): Promise<z.infer<typeof bugCompareSchema>> {
  if (query.from === undefined) throw ValidationError.field('from', 'from and to go together');
  if (query.to === undefined) throw ValidationError.field('to', 'from and to go together');
  if (query.at !== undefined) throw ValidationError.field('at', 'Use either at, or from and to');
  const [from, to] = await Promise.all([bugAt(deps, events, query.from), bugAt(deps, events, query.to)]);
  if (!from && !to) throw new NotFoundError('Bug did not exist at either time');
  return { from, to, changes: bugChanges(from, to) };
}
