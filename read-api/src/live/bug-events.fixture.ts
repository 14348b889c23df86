import { randomUUID } from 'node:crypto';
import type { EventStore, ExpectedRevision } from '@bugtrail/eventstore';

/**
 * Appends bug events straight to the store, as write-api would after deciding:
 * the live stream is tested against the real bug projection without depending on
 * the command endpoints.
 */
export function bugEvents(store: EventStore) {
  const append = (bugId: string, actorId: string, type: string, data: object, expected: ExpectedRevision) =>
    store.append(
      `bug-${bugId}`,
      [
        {
          id: randomUUID(),
          type,
          data: { bugId, ...data },
          metadata: {
            actorId,
            correlationId: randomUUID(),
            causationId: null,
            occurredAt: new Date().toISOString(),
            schemaVersion: 1,
          },
        },
      ],
      expected,
    );
  return {
    report: (bugId: string, reporterId: string) =>
      append(
        bugId,
        reporterId,
        'BugReported',
        {
          title: 'Live update test bug',
          description: 'A bug reported by the live-update tests.',
          priority: 'High',
          severity: 'Major',
          status: 'Open',
          module: null,
          dueDate: null,
          reporterId,
        },
        'no_stream',
      ),
    assign: (bugId: string, actorId: string, developerIds: string[]) =>
      append(bugId, actorId, 'DevelopersAssigned', { developerIds }, 'stream_exists'),
    unassign: (bugId: string, actorId: string, developerIds: string[]) =>
      append(bugId, actorId, 'DevelopersUnassigned', { developerIds }, 'stream_exists'),
    changeStatus: (bugId: string, actorId: string, from: string, to: string) =>
      append(bugId, actorId, 'BugStatusChanged', { from, to }, 'stream_exists'),
    delete: (bugId: string, actorId: string) => append(bugId, actorId, 'BugDeleted', {}, 'stream_exists'),
  };
}
