import { z } from 'zod';
import type { Command, Decider, Event } from '../core/event.js';
import { type BugState, evolveBug } from './bug.js';
import type { BugEvent } from './bug-events.js';
import { commentEventTypes } from './comments.js';

// The SLA's breach events are told on the bug's stream too (sla/sla.schemas.ts).
const slaBreachEventTypes = ['BugSlaBreached'];

/**
 * Due-date reminders (api.md "People", notifications `due_soon` and `overdue`): the clock,
 * not a person, notices that an open bug is due within a day or past due, and says so once
 * per due date as an event of the bug's stream. The notifications projection tells the
 * reporter and the assignees. Like comments, these change none of the bug's fields.
 */
export const dueReminderWindowMs = 24 * 60 * 60 * 1000;

const id = z.string().min(1).max(200);
export const bugDueData = z.object({ bugId: id, dueDate: z.string().min(1) });
export type BugDueData = z.infer<typeof bugDueData>;
export const dueEventSchemas = {
  BugDueSoon: { version: 1, data: bugDueData },
  BugOverdue: { version: 1, data: bugDueData },
} as const;
export const dueEventTypes: ReadonlySet<string> = new Set(Object.keys(dueEventSchemas));

export type BugDueSoon = Event<'BugDueSoon', BugDueData>;
export type BugOverdue = Event<'BugOverdue', BugDueData>;
export type DueEvent = BugDueSoon | BugOverdue;

export type NoticeDue = Command<'NoticeDue', { bugId: string }>;

export type DueState = Readonly<{ bug: BugState; noticed: ReadonlySet<string> }>;

const noticeKey = (type: DueEvent['type'], dueDate: string) => `${type}:${dueDate}`;

/** What the clock says of a bug now: due soon, overdue, or nothing (closed, deleted, no date, far off). */
export function dueNotice(bug: BugState, now: Date): DueEvent['type'] | null {
  if (bug.kind !== 'reported' || bug.deleted || bug.status === 'Closed' || !bug.dueDate) return null;
  const due = Date.parse(bug.dueDate);
  if (Number.isNaN(due)) return null;
  if (due <= now.getTime()) return 'BugOverdue';
  if (due - now.getTime() <= dueReminderWindowMs) return 'BugDueSoon';
  return null;
}

export const dueDecider: Decider<DueState, NoticeDue, DueEvent> = {
  initialState: () => ({ bug: { kind: 'empty' }, noticed: new Set() }),
  evolve(state, event) {
    const e = event as DueEvent | BugEvent;
    if (e.type === 'BugDueSoon' || e.type === 'BugOverdue') {
      const noticed = new Set(state.noticed);
      noticed.add(noticeKey(e.type, e.data.dueDate));
      return { ...state, noticed };
    }
    const bug = evolveBug(state.bug, e as BugEvent);
    return bug === state.bug ? state : { ...state, bug };
  },
  decide(command, state) {
    const type = dueNotice(state.bug, new Date(command.metadata.now));
    if (!type || state.bug.kind !== 'reported' || !state.bug.dueDate) return [];
    const dueDate = state.bug.dueDate;
    // Once per due date: a moved date is due again; an overdue bug was also due soon (or not: skipped).
    if (state.noticed.has(noticeKey(type, dueDate))) return [];
    return [{ type, data: { bugId: state.bug.id, dueDate } }];
  },
};

/**
 * Events of a bug's stream that change none of its fields (comments, due reminders): an
 * If-Match older than them is not stale for that.
 */
export const bugSideEventTypes: ReadonlySet<string> = new Set([
  ...commentEventTypes,
  ...dueEventTypes,
  ...slaBreachEventTypes,
]);
