import { assertValidEvent, type EventMetadata } from '@bugtrail/domain';
import type pg from 'pg';
import { canonicalParts } from '../audit/hash-chain.js';
import {
  type AppendResult,
  assertDistinctEventIds,
  DuplicateEventIdError,
  decodePosition,
  type EventStore,
  type ExpectedRevision,
  encodePosition,
  type NewEvent,
  type Position,
  type ReadAllBackwardsOptions,
  type ReadStreamOptions,
  type RecordedEvent,
  START,
  type Subscription,
  WrongExpectedRevisionError,
} from '../port.js';
import { Doorbell } from './doorbell.js';

type EventRow = {
  event_id: string;
  stream_id: string;
  stream_revision: string;
  type: string;
  data: unknown;
  metadata: EventMetadata;
  tx: string;
  position: string;
  recorded_at: Date;
  hash: string | null;
};

const SELECT_COLUMNS =
  'event_id, stream_id, stream_revision, type, data, metadata, transaction_id::text as tx, position, recorded_at, hash';

type AppendRow = { revision: string; tx: string; pos: string; replayed: boolean };

function toAppendResult(rows: readonly AppendRow[]): AppendResult {
  const last = rows.at(-1);
  if (!last) throw new Error('append returned no rows');
  return {
    nextExpectedRevision: Number(last.revision),
    position: encodePosition(BigInt(last.tx), BigInt(last.pos)),
    alreadyAppended: last.replayed,
  };
}

/** The one SQL call that appends (the adapter's, and tests' that hold its transaction open). */
export function appendEventsQuery(
  streamId: string,
  events: readonly NewEvent[],
  expected: ExpectedRevision,
): { text: string; values: unknown[] } {
  return {
    text: 'select revision, tx, pos, replayed from eventstore.append_events($1, $2, $3, $4::uuid[], $5::text[], $6::jsonb[], $7::jsonb[], $8::text[], $9::text[])',
    values: [
      streamId,
      typeof expected === 'number' ? 'revision' : expected,
      typeof expected === 'number' ? expected : null,
      events.map((e) => e.id),
      events.map((e) => e.type),
      events.map((e) => JSON.stringify(e.data)),
      events.map((e) => JSON.stringify(e.metadata)),
      ...headsAndTails(streamId, events),
    ],
  };
}

/** The canonical text of each event around its revision, which the append decides. */
function headsAndTails(streamId: string, events: readonly NewEvent[]): [string[], string[]] {
  const parts = events.map((e) =>
    canonicalParts({ stream: streamId, type: e.type, data: e.data, metadata: e.metadata }),
  );
  return [parts.map((p) => p.head), parts.map((p) => p.tail)];
}

function toRecorded(row: EventRow): RecordedEvent {
  return {
    id: row.event_id,
    streamId: row.stream_id,
    revision: Number(row.stream_revision),
    type: row.type,
    data: row.data,
    metadata: row.metadata,
    position: encodePosition(BigInt(row.tx), BigInt(row.position)),
    recordedAt: row.recorded_at,
    hash: row.hash,
  };
}

/** How long after a doorbell or a batch followers keep re-reading quickly, and how often. */
const ACTIVE_WINDOW_MS = 1000;
const ACTIVE_POLL_MS = 8;

export type PostgresEventStoreOptions = {
  /** How often a follower re-reads when no doorbell rang (ms). */
  pollIntervalMs?: number;
  /** Validate each event's data against its registered schema before writing. */
  validate?: boolean;
};

export class PostgresEventStore implements EventStore {
  private readonly doorbell: Doorbell;
  private readonly pollIntervalMs: number;
  private readonly validate: boolean;
  private readonly subscriptions = new Set<{ close(): Promise<void> }>();
  private notifyScheduled = false;

  constructor(
    private readonly pool: pg.Pool,
    options: PostgresEventStoreOptions = {},
  ) {
    this.doorbell = new Doorbell(pool, 'bugtrail_events');
    this.pollIntervalMs = options.pollIntervalMs ?? 500;
    this.validate = options.validate ?? true;
  }

  async append(streamId: string, events: readonly NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    if (events.length === 0) throw new Error('append needs at least one event');
    assertDistinctEventIds(streamId, events);
    if (this.validate) for (const event of events) assertValidEvent(event.type, event.data);
    const query = appendEventsQuery(streamId, events, expected);
    try {
      const { rows } = await this.pool.query<AppendRow>(query.text, query.values);
      const result = toAppendResult(rows);
      if (!result.alreadyAppended) this.announce();
      return result;
    } catch (error) {
      const pgError = error as { code?: string; detail?: string; constraint?: string };
      if (pgError.code === 'BT410')
        throw new DuplicateEventIdError(
          streamId,
          events.map((e) => e.id),
        );
      if (pgError.code === 'BT409' || (pgError.code === '23505' && pgError.constraint === 'events_event_id_key')) {
        // A racing retry with the same ids may have won (it committed while we waited
        // on its row lock or unique key): then answer as it did.
        const replay = await this.findAppended(streamId, events);
        if (replay) return toAppendResult(replay);
        if (pgError.code === 'BT409') {
          const actual = pgError.detail === 'no_stream' || !pgError.detail ? 'no_stream' : Number(pgError.detail);
          throw new WrongExpectedRevisionError(streamId, expected, actual);
        }
        throw new DuplicateEventIdError(
          streamId,
          events.map((e) => e.id),
        );
      }
      if (pgError.code === '23505' && pgError.constraint === 'streams_pkey') {
        throw new WrongExpectedRevisionError(streamId, expected, await this.currentRevision(streamId));
      }
      throw error;
    }
  }

  /**
   * Wakes followers after a commit: at once in this process, and through one NOTIFY
   * per tick for other processes. (NOTIFY inside the append would take a cluster-wide
   * lock at every commit and serialize all appends; coalesced, a burst costs one.)
   */
  private announce(): void {
    this.doorbell.ring();
    if (this.notifyScheduled) return;
    this.notifyScheduled = true;
    setImmediate(() => {
      this.notifyScheduled = false;
      this.pool.query("select pg_notify('bugtrail_events', '')").catch(() => {
        // Followers poll as a fallback; a lost doorbell only delays them.
      });
    });
  }

  /** These exact events, stored by an earlier append to this stream; null when not all are. */
  private async findAppended(streamId: string, events: readonly NewEvent[]): Promise<AppendRow[] | null> {
    const { rows } = await this.pool.query<AppendRow & { stream_id: string }>(
      'select stream_id, stream_revision as revision, transaction_id::text as tx, position as pos, true as replayed from eventstore.events where event_id = any($1::uuid[]) order by position',
      [events.map((e) => e.id)],
    );
    if (rows.length === 0) return null;
    if (rows.length !== events.length || rows.some((r) => r.stream_id !== streamId)) {
      throw new DuplicateEventIdError(
        streamId,
        events.map((e) => e.id),
      );
    }
    return rows;
  }

  private async currentRevision(streamId: string): Promise<number | 'no_stream'> {
    const { rows } = await this.pool.query<{ revision: string }>(
      'select revision from eventstore.streams where stream_id = $1',
      [streamId],
    );
    return rows[0] ? Number(rows[0].revision) : 'no_stream';
  }

  async readStream(streamId: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const backwards = options.direction === 'backwards';
    const limit = options.limit ?? 2 ** 31 - 1;
    const from = options.from ?? (backwards ? Number.MAX_SAFE_INTEGER : 0);
    const { rows } = await this.pool.query<EventRow>(
      `select ${SELECT_COLUMNS} from eventstore.events
       where stream_id = $1 and stream_revision ${backwards ? '<=' : '>='} $2
       order by stream_revision ${backwards ? 'desc' : 'asc'} limit $3`,
      [streamId, from, limit],
    );
    return rows.map(toRecorded);
  }

  async readAll(from: Position, limit: number): Promise<RecordedEvent[]> {
    const [tx, pos] = decodePosition(from);
    const { rows } = await this.pool.query<EventRow>(
      `select ${SELECT_COLUMNS} from eventstore.events
       where (transaction_id, position) > ($1::text::xid8, $2::bigint)
         and transaction_id < pg_snapshot_xmin(pg_current_snapshot())
       order by transaction_id, position
       limit $3`,
      [tx.toString(), pos.toString(), limit],
    );
    return rows.map(toRecorded);
  }

  async readAllBackwards({ before, limit, streamPrefix }: ReadAllBackwardsOptions): Promise<RecordedEvent[]> {
    const [tx, pos] = before === undefined ? [null, null] : decodePosition(before);
    const prefix = streamPrefix === undefined ? null : `${streamPrefix.replace(/[\\%_]/g, '\\$&')}%`;
    const { rows } = await this.pool.query<EventRow>(
      `select ${SELECT_COLUMNS} from eventstore.events
       where ($1::text is null or (transaction_id, position) < ($1::text::xid8, $2::bigint))
         and ($3::text is null or stream_id like $3::text)
         and transaction_id < pg_snapshot_xmin(pg_current_snapshot())
       order by transaction_id desc, position desc
       limit $4`,
      [tx?.toString() ?? null, pos?.toString() ?? null, prefix, limit],
    );
    return rows.map(toRecorded);
  }

  async headPosition(): Promise<Position> {
    const { rows } = await this.pool.query<{ tx: string; position: string }>(
      `select transaction_id::text as tx, position from eventstore.events
       where transaction_id < pg_snapshot_xmin(pg_current_snapshot())
       order by transaction_id desc, position desc limit 1`,
    );
    const row = rows[0];
    return row ? encodePosition(BigInt(row.tx), BigInt(row.position)) : START;
  }

  /** Waits for the next doorbell (an append anywhere) or the timeout. */
  waitForEvents(timeoutMs: number): Promise<void> {
    return this.doorbell.wait(timeoutMs);
  }

  subscribe(from: Position, options: { batchSize?: number } = {}): Subscription {
    const batchSize = options.batchSize ?? 500;
    let closed = false;
    let position = from;
    const store = this;
    const handle = {
      async close() {
        closed = true;
        store.doorbell.ring();
        store.subscriptions.delete(handle);
      },
    };
    this.subscriptions.add(handle);
    async function* batches(): AsyncGenerator<readonly RecordedEvent[]> {
      // After a doorbell or a batch, a held-back transaction may clear any moment (and
      // its end rings no bell when it is not an append): re-read every few ms for a
      // while, then back off to the poll interval.
      let delay = 1;
      let lastActivity = Date.now();
      while (!closed) {
        const batch = await store.readAll(position, batchSize);
        if (closed) return;
        if (batch.length > 0) {
          position = batch[batch.length - 1]!.position;
          delay = 1;
          lastActivity = Date.now();
          yield batch;
          continue;
        }
        const started = Date.now();
        await store.doorbell.wait(delay);
        if (Date.now() - started < delay) {
          delay = 1;
          lastActivity = Date.now();
        } else {
          const cap = Date.now() - lastActivity < ACTIVE_WINDOW_MS ? ACTIVE_POLL_MS : store.pollIntervalMs;
          delay = Math.min(delay * 2, cap);
        }
      }
    }
    return Object.assign(batches(), handle);
  }

  async close(): Promise<void> {
    await Promise.all([...this.subscriptions].map((s) => s.close()));
    await this.doorbell.close();
  }
}
