import { assertValidEvent, type EventMetadata } from '@bugtrail/domain';
import type pg from 'pg';
import { canonicalParts } from '../audit/hash-chain.js';
import {
  type Alongside,
  type AppendOptions,
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
import { SettledStretch } from './settled-stretch.js';

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

/** Events kept for followers behind the one that read them (a few batches of each). */
const SETTLED_EVENTS_KEPT = 5000;

/** How often a follower re-reads while an append it was told of is not yet visible (ms, at most). */
const HELD_BACK_POLL_MS = 8;

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
  /** The furthest position appended in this tick, announced once to other processes. */
  private pendingNotice: string | null = null;
  /** Followers' reads in flight, by the position they read after (see `followerRead`). */
  private readonly followerReads = new Map<Position, { limit: number; read: Promise<RecordedEvent[]> }>();
  /** The stretch followers read last: those behind it read from here, not from the table. */
  private readonly settled = new SettledStretch(SETTLED_EVENTS_KEPT);

  constructor(
    private readonly pool: pg.Pool,
    options: PostgresEventStoreOptions = {},
  ) {
    this.doorbell = new Doorbell(pool, 'bugtrail_events');
    this.pollIntervalMs = options.pollIntervalMs ?? 500;
    this.validate = options.validate ?? true;
  }

  async append(
    streamId: string,
    events: readonly NewEvent[],
    expected: ExpectedRevision,
    options: AppendOptions = {},
  ): Promise<AppendResult> {
    if (events.length === 0) throw new Error('append needs at least one event');
    assertDistinctEventIds(streamId, events);
    if (this.validate) for (const event of events) assertValidEvent(event.type, event.data);
    const query = appendEventsQuery(streamId, events, expected);
    try {
      const rows = options.alongside
        ? await this.appendAlongside(query, options.alongside)
        : (await this.pool.query<AppendRow>(query.text, query.values)).rows;
      const result = toAppendResult(rows);
      if (!result.alreadyAppended) this.announce(result.position);
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
   * The events, then the rows, in one transaction: both or neither. The events come first: an
   * append must be its transaction's first write (schema.ts: a stream's revisions follow the
   * transaction ids). A retry of an append already stored writes no rows either.
   */
  private async appendAlongside(
    query: { text: string; values: unknown[] },
    alongside: Alongside,
  ): Promise<AppendRow[]> {
    const client = await this.pool.connect();
    try {
      await client.query('begin');
      const { rows } = await client.query<AppendRow>(query.text, query.values);
      if (!toAppendResult(rows).alreadyAppended) await alongside(client);
      await client.query('commit');
      return rows;
    } catch (error) {
      await client.query('rollback').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }

  /**
   * Wakes followers after a commit: at once in this process, and through one NOTIFY
   * per tick for other processes, carrying the furthest position of the tick. (NOTIFY
   * inside the append would take a cluster-wide lock at every commit and serialize all
   * appends; coalesced, a burst costs one.)
   */
  private announce(position: Position): void {
    this.doorbell.ring(position);
    const scheduled = this.pendingNotice !== null;
    if (!scheduled || position > this.pendingNotice!) this.pendingNotice = position;
    if (scheduled) return;
    setImmediate(() => {
      const notice = this.pendingNotice ?? '';
      this.pendingNotice = null;
      this.pool.query("select pg_notify('bugtrail_events', $1)", [notice]).catch(() => {
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

  /**
   * A follower's read: followers woken by the same ring (the projector, the webhook and AI
   * reactors) usually stand at the same position and ask at once, so they share one query
   * instead of each reading the same events (five reads per projector batch before). Those
   * that have drifted apart (a projector batch takes longer than a reactor's) take what the
   * first one read from the settled stretch. The events are shared too (each follower gets
   * its own array): followers only read them.
   */
  private followerRead(from: Position, limit: number): Promise<RecordedEvent[]> {
    const settled = this.settled.after(from, limit);
    if (settled) return Promise.resolve(settled);
    const shared = this.followerReads.get(from);
    if (shared && shared.limit >= limit) return shared.read.then((events) => events.slice(0, limit));
    const read = this.readAll(from, limit).then((events) => {
      this.settled.add(from, events);
      return events;
    });
    const entry = { limit, read };
    this.followerReads.set(from, entry);
    const forget = () => {
      if (this.followerReads.get(from) === entry) this.followerReads.delete(from);
    };
    read.then(forget, forget);
    return read.then((events) => events.slice(0, limit));
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
  async waitForEvents(timeoutMs: number): Promise<void> {
    await this.doorbell.wait(timeoutMs);
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
      // Every append rings the doorbell with its position (here at once, from other
      // processes by NOTIFY). A follower that has read up to the furthest position rung
      // sleeps until the next ring; one that is behind it re-reads every few ms, because
      // an older transaction still open holds the new events back (readAll shows only
      // what no running transaction can precede), and its end rings no bell.
      let delay = 1;
      let mustRead = true;
      while (!closed) {
        const behind: boolean = mustRead || position < store.doorbell.rungHead;
        const batch: RecordedEvent[] = behind ? await store.followerRead(position, batchSize) : [];
        if (closed) return;
        if (batch.length > 0) {
          position = batch[batch.length - 1]!.position;
          mustRead = batch.length >= batchSize;
          delay = 1;
          yield batch;
          continue;
        }
        mustRead = false;
        if (position < store.doorbell.rungHead) {
          await store.doorbell.wait(delay);
          delay = Math.min(delay * 2, HELD_BACK_POLL_MS);
        } else {
          delay = 1;
          // Nothing known to be pending: a ring past our position wakes us to read (this
          // process's own NOTIFY echo is not past it); a ring without a position, or the
          // poll that covers a lost NOTIFY, reads once to see.
          mustRead = (await store.doorbell.wait(store.pollIntervalMs)) === 'blind';
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
