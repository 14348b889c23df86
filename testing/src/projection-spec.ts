/**
 * Given/when/then over a projection's handlers (projector/src/runtime/handlers.ts), as the
 * deciders' specs read: no database, only what a batch of events changes. Imported as
 * `@bugtrail/testing/projections`, not from the package's index: it names the event store's
 * types, which the domain's and the browser tests' imports of the index must not reach.
 *
 *   const { given } = projectionSpec(viewsProjection);
 *   given(recorded('ViewSaved', {...})).when(recorded('ViewDeleted', {...})).then(expected);
 */
import { randomUUID } from 'node:crypto';
import type { EventData, EventMetadata, EventType } from '@bugtrail/domain';
import type { RecordedEvent } from '@bugtrail/eventstore';
import { expect } from 'vitest';

export function projectionSpec<Changes, Loaded = undefined>(
  projection: { fold(events: readonly RecordedEvent[], loaded?: Loaded): Changes },
  /** What the projection's `load` would have read from the tables, for projections that read rows. */
  stored?: () => Loaded,
) {
  return {
    given(...earlier: RecordedEvent[]) {
      return {
        when(...events: RecordedEvent[]) {
          const changes = () => projection.fold([...earlier, ...events], stored?.());
          return {
            // biome-ignore lint/suspicious/noThenProperty: given/when/then, as house style reads; never awaited.
            then(expected: Changes) {
              expect(changes()).toEqual(expected);
            },
            /** The changes themselves, for assertions `then` cannot say. */
            changes,
          };
        },
      };
    },
  };
}

/** A `BugReported`'s data, as projections' specs start a bug (`overrides` change what the test is about). */
export function bugReportedData(overrides: Partial<EventData<'BugReported'>> = {}): EventData<'BugReported'> {
  return {
    bugId: 'b1',
    title: 'Login button broken',
    description: 'Clicking login does nothing at all',
    priority: 'Medium',
    severity: 'Minor',
    status: 'Open',
    module: null,
    dueDate: null,
    reporterId: 't1',
    ...overrides,
  };
}

let lastPosition = 0;

/**
 * An event as the store hands it to projections, with its data typed by its type. Each call
 * gets the next position; the rest can be given.
 */
export function recorded<Type extends EventType>(
  type: Type,
  data: EventData<Type>,
  options: Partial<{
    streamId: string;
    revision: number;
    actorId: string | null;
    occurredAt: string;
    position: string;
    /** More of the envelope (`suggestions`, `importedFrom`, …). */
    metadata: Partial<EventMetadata>;
  }> = {},
): RecordedEvent {
  const occurredAt = options.occurredAt ?? '2026-11-29T12:00:00.000Z';
  return {
    id: randomUUID(),
    streamId: options.streamId ?? `test-${type}`,
    revision: options.revision ?? 0,
    type,
    data,
    metadata: {
      actorId: options.actorId === undefined ? 'actor-1' : options.actorId,
      correlationId: randomUUID(),
      causationId: null,
      occurredAt,
      schemaVersion: 1,
      ...options.metadata,
    },
    position: options.position ?? String(++lastPosition).padStart(32, '0'),
    recordedAt: new Date(occurredAt),
    hash: null,
  };
}
