/**
 * EventStoreDB adapter. Deliberately thin: all client calls live in this one file,
 * so that moving to the successor client (KurrentDB) touches nothing else.
 */
import { assertValidEvent, type EventMetadata } from '@bugtrail/domain';
import {
  type AllStreamResolvedEvent,
  type AppendExpectedRevision,
  EventStoreDBClient,
  excludeSystemEvents,
  jsonEvent,
  type ResolvedEvent,
  StreamNotFoundError,
  WrongExpectedVersionError,
} from '@eventstore/db-client';
import {
  type AppendResult,
  decodePosition,
  type EventStore,
  type ExpectedRevision,
  encodePosition,
  type NewEvent,
  type Position,
  type ReadStreamOptions,
  type RecordedEvent,
  START,
  type Subscription,
  WrongExpectedRevisionError,
} from '../port.js';

function toRecorded(resolved: ResolvedEvent | AllStreamResolvedEvent): RecordedEvent | null {
  const event = resolved.event;
  if (!event || !event.isJson || event.type.startsWith('$')) return null;
  const commit = resolved.commitPosition ?? event.position?.commit ?? 0n;
  const prepare = event.position?.prepare ?? commit;
  return {
    id: event.id,
    streamId: event.streamId,
    revision: Number(event.revision),
    type: event.type,
    data: event.data,
    metadata: event.metadata as unknown as EventMetadata,
    position: encodePosition(commit, prepare),
    recordedAt: event.created instanceof Date ? event.created : new Date(Number(event.created) / 10_000),
  };
}

function toReadPosition(position: Position) {
  if (position === START) return 'start' as const;
  const [commit, prepare] = decodePosition(position);
  return { commit, prepare };
}

export class EsdbEventStore implements EventStore {
  private readonly client: EventStoreDBClient;
  private readonly subscriptions = new Set<{ close(): Promise<void> }>();

  constructor(connectionString: string) {
    this.client = EventStoreDBClient.connectionString(connectionString);
  }

  async append(streamId: string, events: readonly NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    for (const event of events) assertValidEvent(event.type, event.data);
    const expectedRevision: AppendExpectedRevision = typeof expected === 'number' ? BigInt(expected) : expected;
    try {
      const result = await this.client.appendToStream(
        streamId,
        events.map((e) =>
          jsonEvent({
            id: e.id,
            type: e.type,
            data: e.data as Record<string, unknown>,
            metadata: e.metadata as unknown as Record<string, unknown>,
          }),
        ),
        { expectedRevision },
      );
      const commit = result.position?.commit ?? 0n;
      return {
        nextExpectedRevision: Number(result.nextExpectedRevision),
        position: encodePosition(commit, result.position?.prepare ?? commit),
        alreadyAppended: false,
      };
    } catch (error) {
      if (error instanceof WrongExpectedVersionError) {
        const actual = typeof error.actualVersion === 'bigint' ? Number(error.actualVersion) : 'no_stream';
        throw new WrongExpectedRevisionError(streamId, expected, actual);
      }
      throw error;
    }
  }

  async readStream(streamId: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const backwards = options.direction === 'backwards';
    const out: RecordedEvent[] = [];
    try {
      const reader = this.client.readStream(streamId, {
        direction: backwards ? 'backwards' : 'forwards',
        fromRevision: options.from === undefined ? (backwards ? 'end' : 'start') : BigInt(options.from),
        ...(options.limit === undefined ? {} : { maxCount: options.limit }),
      });
      for await (const resolved of reader) {
        const recorded = toRecorded(resolved);
        if (recorded) out.push(recorded);
      }
    } catch (error) {
      if (error instanceof StreamNotFoundError) return [];
      throw error;
    }
    return out;
  }

  async readAll(from: Position, limit: number): Promise<RecordedEvent[]> {
    const out: RecordedEvent[] = [];
    // readAll's fromPosition is inclusive; the port's is exclusive.
    const reader = this.client.readAll({ fromPosition: toReadPosition(from), maxCount: limit + 1 });
    for await (const resolved of reader) {
      const recorded = toRecorded(resolved);
      if (recorded && recorded.position > from) out.push(recorded);
      if (out.length >= limit) break;
    }
    return out;
  }

  async headPosition(): Promise<Position> {
    const reader = this.client.readAll({ fromPosition: 'end', direction: 'backwards', maxCount: 50 });
    for await (const resolved of reader) {
      const recorded = toRecorded(resolved);
      if (recorded) return recorded.position;
    }
    return START;
  }

  subscribe(from: Position, options: { batchSize?: number } = {}): Subscription {
    void options;
    let closed = false;
    let position = from;
    let current: { unsubscribe(): Promise<void> } | null = null;
    const client = this.client;
    const handle = {
      close: async () => {
        closed = true;
        this.subscriptions.delete(handle);
        await current?.unsubscribe();
      },
    };
    this.subscriptions.add(handle);
    async function* batches(): AsyncGenerator<readonly RecordedEvent[]> {
      // Resubscribe from the last delivered position whenever the subscription drops.
      while (!closed) {
        const subscription = client.subscribeToAll({
          fromPosition: toReadPosition(position),
          filter: excludeSystemEvents(),
        });
        current = subscription;
        try {
          // The server pushes events one by one; each is delivered as soon as it arrives.
          for await (const resolved of subscription) {
            const recorded = toRecorded(resolved);
            if (!recorded || recorded.position <= position) continue;
            position = recorded.position;
            yield [recorded];
          }
        } catch {
          if (closed) return;
          await new Promise((r) => setTimeout(r, 500));
        }
      }
    }
    return Object.assign(batches(), handle);
  }

  async close(): Promise<void> {
    await Promise.all([...this.subscriptions].map((s) => s.close()));
    await this.client.dispose();
  }
}
