import { createHash, randomUUID } from 'node:crypto';
import type { BugStatus, EventMetadata, Priority, Role, Severity } from '@bugtrail/domain';
import type { NewEvent } from '@bugtrail/eventstore';

/**
 * Builders for the domain's user and bug events, exactly as write-api appends them.
 * Used by `seed`, the bench and tests that drive the read side without HTTP.
 */

/** A UUID derived from a name: the same name gives the same id (idempotent seeding). */
export function stableUuid(name: string): string {
  const h = createHash('sha256').update(name).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export type EventOptions = { actorId: string | null; at: string; id?: string };

export function metadata(actorId: string | null, at: string): EventMetadata {
  const correlationId = randomUUID();
  return { actorId, correlationId, causationId: null, occurredAt: at, schemaVersion: 1 };
}

export function event(type: string, data: unknown, options: EventOptions): NewEvent {
  return { id: options.id ?? randomUUID(), type, data, metadata: metadata(options.actorId, options.at) };
}

export function userRegistered(
  user: { id: string; name: string; email: string; role: Role; profileImageURL?: string | null },
  options: Omit<EventOptions, 'actorId'>,
): NewEvent {
  return event(
    'UserRegistered',
    {
      userId: user.id,
      name: user.name,
      email: user.email,
      role: user.role,
      profileImageURL: user.profileImageURL ?? null,
    },
    { ...options, actorId: user.id },
  );
}

export type BugReport = {
  bugId: string;
  /** Its number (write-api's BugNumbers gives one to every report); absent, a bug as reported before numbers. */
  number?: number;
  /** Its project and its number there (write-api's ProjectBugNumbers); absent, a bug as reported before projects. */
  project?: { id: string; number: number };
  reporterId: string;
  title: string;
  description: string;
  priority?: Priority;
  severity?: Severity;
  status?: BugStatus;
  module?: string | null;
  dueDate?: string | null;
  assigneeIds: readonly string[];
  checklist?: readonly string[];
  attachments?: readonly string[];
};

/**
 * One report as write-api appends it: BugReported, DevelopersAssigned,
 * ChecklistItemAdded × n, AttachmentLinkAdded × n. With `idPrefix`, event and item
 * ids derive from it (a second run appends nothing new).
 */
export function reportBug(report: BugReport, options: { at: string; idPrefix?: string }): NewEvent[] {
  let n = 0;
  const next = () => (options.idPrefix ? stableUuid(`${options.idPrefix}:${n++}`) : randomUUID());
  const opts = () => ({ actorId: report.reporterId, at: options.at, id: next() });
  const events: NewEvent[] = [
    event(
      'BugReported',
      {
        bugId: report.bugId,
        title: report.title,
        description: report.description,
        priority: report.priority ?? 'Medium',
        severity: report.severity ?? 'Minor',
        status: report.status ?? 'Open',
        module: report.module ?? null,
        dueDate: report.dueDate ?? null,
        reporterId: report.reporterId,
        ...(report.number === undefined ? {} : { number: report.number }),
        ...(report.project === undefined ? {} : { projectId: report.project.id, projectNumber: report.project.number }),
      },
      opts(),
    ),
  ];
  if (report.assigneeIds.length > 0) {
    events.push(event('DevelopersAssigned', { bugId: report.bugId, developerIds: [...report.assigneeIds] }, opts()));
  }
  for (const text of report.checklist ?? []) {
    const id = next();
    events.push(
      event('ChecklistItemAdded', { bugId: report.bugId, itemId: id, text }, { ...opts(), id: stableUuid(`${id}:e`) }),
    );
  }
  for (const url of report.attachments ?? []) {
    events.push(event('AttachmentLinkAdded', { bugId: report.bugId, url }, opts()));
  }
  return events;
}

export function statusChanged(bugId: string, from: BugStatus, to: BugStatus, options: EventOptions): NewEvent {
  return event('BugStatusChanged', { bugId, from, to }, options);
}
