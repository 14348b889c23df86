import { ConflictError, ForbiddenError, UnauthorizedError, ValidationError } from '../core/errors.js';
import type { Command, Decider, EventMetadata, ImportSource } from '../core/event.js';
import { type BugEventWithMeta, type BugState, evolveBug, initialBugState } from './bug.js';
import type { BugStatus, Priority, Severity } from './bug.schemas.js';
import type { BugEvent } from './bug-events.js';
import { type DueEvent, dueNotice } from './due.js';
import { importMessages } from './import-vocabulary.js';
import { bugLimits } from './validation.js';

/**
 * An imported bug (api.md "Integrations", docs/import.md): reported, assigned and moved to
 * its status at the times its source recorded, in one append to a stream of its own. The
 * events' metadata carry those times and `importedFrom`, so histories, time travel and flow
 * metrics read as if the bug had always been here, and reactors that tell people (the
 * notifications) know to keep quiet. The rules for new bugs (description length, assignees
 * being developers, a due date in the future) are not asked of the past; an admin alone imports.
 */
export type ImportBug = Command<
  'ImportBug',
  {
    /** Derived from (system, source id) by the caller, so importing again meets the same stream. */
    bugId: string;
    number: number;
    /** The project it goes to (the default one today) and its number there. */
    projectId: string;
    projectNumber: number;
    importedFrom: Readonly<{ system: ImportSource; id: string }>;
    title: string;
    description: string;
    status: BugStatus;
    priority: Priority;
    severity: Severity;
    module: string | null;
    dueDate: string | null;
    reporterId: string;
    assigneeIds: readonly string[];
    /** When it was reported there (ISO 8601). */
    createdAt: string;
    /** When it reached `status` there, if not Open. */
    statusChangedAt: string | null;
  }
>;

export type ImportedBugEvent = BugEvent | DueEvent;

export const importPermissions = {
  canImport: (actor: { role: string }) => actor.role === 'admin',
} as const;

function decideImport(command: ImportBug, state: BugState): ImportedBugEvent[] {
  const actor = command.metadata.actor;
  if (!actor) throw new UnauthorizedError('Not authorized, no token');
  if (!importPermissions.canImport(actor)) throw new ForbiddenError(importMessages.adminsOnly);
  if (state.kind !== 'empty') throw new ConflictError('Bug already exists');
  const d = command.data;
  const title = d.title.trim();
  if (!title) throw ValidationError.field('title', importMessages.titleRequired);
  if (title.length > bugLimits.titleMax || d.description.length > bugLimits.descriptionMax || !d.description.trim()) {
    throw new ValidationError('An imported bug needs a title and a description within the limits of a bug');
  }
  const bugId = d.bugId;
  const events: ImportedBugEvent[] = [
    {
      type: 'BugReported',
      data: {
        bugId,
        title,
        description: d.description,
        priority: d.priority,
        severity: d.severity,
        // Reported Open, as every bug is; the status it has now comes after, at its own time.
        status: 'Open',
        module: d.module,
        dueDate: d.dueDate,
        reporterId: d.reporterId,
        number: d.number,
        projectId: d.projectId,
        projectNumber: d.projectNumber,
      },
    },
  ];
  const assigneeIds = [...new Set(d.assigneeIds)];
  if (assigneeIds.length > 0) events.push({ type: 'DevelopersAssigned', data: { bugId, developerIds: assigneeIds } });
  if (d.status !== 'Open') events.push({ type: 'BugStatusChanged', data: { bugId, from: 'Open', to: d.status } });
  // A due date already near or past when it comes in is noticed now, quietly (the event
  // carries importedFrom): the clock's reminders would otherwise tell everyone at once
  // about every old bug. A later due date is reminded of as any other.
  let after: BugState = state;
  for (const event of events)
    if (event.type !== 'BugDueSoon' && event.type !== 'BugOverdue') after = evolveBug(after, event);
  const notice = dueNotice(after, new Date(command.metadata.now));
  if (notice && d.dueDate) events.push({ type: notice, data: { bugId, dueDate: d.dueDate } });
  return events;
}

/**
 * Each event's metadata beside what every event carries: where it came from, and when it
 * happened there. Times never go backwards within the stream (time travel folds up to the
 * first event after the asked moment); a due notice is of the import's own moment.
 */
export function importedEventMetadata(
  command: ImportBug,
): (event: { type: string }) => Pick<EventMetadata, 'occurredAt' | 'importedFrom'> {
  const { createdAt, statusChangedAt, importedFrom } = command.data;
  const latest = (...times: (string | null)[]) =>
    new Date(Math.max(...times.filter((t): t is string => t !== null).map(Date.parse))).toISOString();
  const reported = latest(createdAt);
  const changed = latest(createdAt, statusChangedAt);
  const noticed = latest(createdAt, statusChangedAt, command.metadata.now);
  return (event) => ({
    occurredAt:
      event.type === 'BugStatusChanged'
        ? changed
        : event.type === 'BugDueSoon' || event.type === 'BugOverdue'
          ? noticed
          : reported,
    importedFrom,
  });
}

/** The decider an import appends through: the bug's own evolve, and the one command. */
export const importBugDecider: Decider<BugState, ImportBug, ImportedBugEvent> = {
  initialState: initialBugState,
  evolve: (state, event) =>
    event.type === 'BugDueSoon' || event.type === 'BugOverdue' ? state : evolveBug(state, event as BugEventWithMeta),
  decide: decideImport,
};
