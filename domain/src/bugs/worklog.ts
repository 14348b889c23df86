import { z } from 'zod';
import { ForbiddenError, NotFoundError, ValidationError } from '../core/errors.js';
import type { Command } from '../core/event.js';
import { isCalendarDay } from '../projects/field-values.js';
import type { BugState } from './bug.js';
import type { BugEvent } from './bug-events.js';
import { actorOf, existingBug, refuse } from './guards.js';
import { bugPermissions } from './permissions.js';
import { worklogLimits, worklogMessages } from './worklog-vocabulary.js';

export * from './worklog-vocabulary.js';

/**
 * Time (api.md "Custom fields, workflow states and time", issue 37): an estimate on each bug
 * (hours, or none), and worklog entries (minutes on a day, with a note) by the bug's assigned
 * developers and admins, each an event of the bug's stream; an entry is deleted by whoever
 * logged it (and by admins). Reports for any past day are the entries as they were.
 */
const id = z.string().min(1).max(100);
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
export const worklogEventSchemas = {
  WorkLogged: {
    version: 1,
    data: z.object({
      bugId: id,
      entryId: id,
      userId: id,
      minutes: z.number().int().min(1).max(worklogLimits.minutesMax),
      on: day,
      note: z.string().max(worklogLimits.noteMax),
    }),
  },
  WorkLogDeleted: { version: 1, data: z.object({ bugId: id, entryId: id }) },
  /** `hours` null: no estimate. */
  BugEstimated: {
    version: 1,
    data: z.object({ bugId: id, hours: z.number().min(0).max(worklogLimits.estimateMax).nullable() }),
  },
} as const;

export type WorkEntry = Readonly<{ id: string; userId: string; minutes: number; on: string; note: string }>;

export type LogWork = Command<'LogWork', { bugId: string; entryId: string; minutes: number; on: string; note: string }>;
export type DeleteWorkEntry = Command<'DeleteWorkEntry', { bugId: string; entryId: string }>;
export type EstimateBug = Command<'EstimateBug', { bugId: string; hours: number | null }>;
export type WorklogCommand = LogWork | DeleteWorkEntry | EstimateBug;

export function decideWorklog(command: WorklogCommand, state: BugState): BugEvent[] {
  const actor = actorOf(command);
  const bug = existingBug(state, actor);
  switch (command.type) {
    case 'LogWork': {
      // Admins, and the developers it is assigned to (api.md).
      if (!(actor.role === 'admin' || (actor.role === 'developer' && bugPermissions.canWorkOn(actor, bug)))) {
        refuse(actor, bug, worklogMessages.cannotLog);
      }
      const d = command.data;
      if (bug.worklog.some((e) => e.id === d.entryId)) return [];
      if (!Number.isInteger(d.minutes) || d.minutes < 1 || d.minutes > worklogLimits.minutesMax) {
        throw ValidationError.field('minutes', worklogMessages.minutes);
      }
      if (!isCalendarDay(d.on)) throw ValidationError.field('on', worklogMessages.on);
      if (d.on > command.metadata.now.slice(0, 10)) throw ValidationError.field('on', worklogMessages.future);
      const note = d.note.trim();
      if (note.length > worklogLimits.noteMax) throw ValidationError.field('note', worklogMessages.noteTooLong);
      return [
        {
          type: 'WorkLogged',
          data: { bugId: bug.id, entryId: d.entryId, userId: actor.id, minutes: d.minutes, on: d.on, note },
        },
      ];
    }
    case 'DeleteWorkEntry': {
      const entry = bug.worklog.find((e) => e.id === command.data.entryId);
      if (!entry) throw new NotFoundError(worklogMessages.notFound);
      if (entry.userId !== actor.id && actor.role !== 'admin') throw new ForbiddenError(worklogMessages.notYours);
      return [{ type: 'WorkLogDeleted', data: { bugId: bug.id, entryId: entry.id } }];
    }
    case 'EstimateBug': {
      if (!bugPermissions.canEdit(actor, bug) && !bugPermissions.canWorkOn(actor, bug)) {
        refuse(actor, bug, worklogMessages.cannotEstimate);
      }
      return estimateEvents(bug.id, bug.estimate, command.data.hours);
    }
  }
}

/** The estimate's event when it changes (hours to the hundredth); refused when it is no number of hours. */
export function estimateEvents(bugId: string, current: number | null, hours: number | null): BugEvent[] {
  if (hours !== null && (!Number.isFinite(hours) || hours < 0 || hours > worklogLimits.estimateMax)) {
    throw ValidationError.field('estimate', worklogMessages.estimate);
  }
  const rounded = hours === null ? null : Math.round(hours * 100) / 100;
  return rounded === current ? [] : [{ type: 'BugEstimated', data: { bugId, hours: rounded } }];
}

/** The entries after `event`. */
export function evolveWorklog(entries: readonly WorkEntry[], event: BugEvent): readonly WorkEntry[] {
  if (event.type === 'WorkLogged') {
    const d = event.data;
    if (entries.some((e) => e.id === d.entryId)) return entries;
    return [...entries, { id: d.entryId, userId: d.userId, minutes: d.minutes, on: d.on, note: d.note }];
  }
  if (event.type === 'WorkLogDeleted') return entries.filter((e) => e.id !== event.data.entryId);
  return entries;
}

export const minutesOf = (entries: readonly WorkEntry[]) => entries.reduce((sum, e) => sum + e.minutes, 0);

/** `POST /api/bugs/{id}/worklog`. */
export const logWorkBody = z.object({
  minutes: z.number({ error: worklogMessages.minutes }),
  on: z.string({ error: worklogMessages.on }).max(40),
  note: z
    .string({ error: worklogMessages.noteTooLong })
    .max(worklogLimits.noteMax * 4)
    .nullish(),
});
