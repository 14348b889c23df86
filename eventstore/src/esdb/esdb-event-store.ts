/**
 * EventStoreDB adapter. Deliberately thin: all client calls live in this one file,
 * so that moving to the successor client (KurrentDB) touches nothing else.
 */
import { randomUUID } from 'node:crypto';
import { assertValidEvent, type EventMetadata } from '@bugtrail/domain';
import {
  type AllStreamResolvedEvent,
  type AllStreamSubscription,
  type AppendExpectedRevision,
  EventStoreDBClient,
  excludeSystemEvents,
  jsonEvent,
  type ResolvedEvent,
  StreamNotFoundError,
  WrongExpectedVersionError,
} from '@eventstore/db-client';
import type pg from 'pg';
import { chainHash, GENESIS_HASH } from '../audit/hash-chain.js';
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

function toRecorded(resolved: ResolvedEvent | AllStreamResolvedEvent): RecordedEvent | null {
  const event = resolved.event;
  // System events ($metadata, $statsCollected, ...) and binary events are not ours.
  if (!event?.isJson || event.type.startsWith('$') || event.streamId.startsWith('$')) return null;
  // Reads of $all always carry a position; stream reads do on servers since 20.6.
  const commit = event.position?.commit ?? resolved.commitPosition ?? 0n;
  const prepare = event.position?.prepare ?? commit;
  // The chain's hash and the append's id ride in the stored metadata under keys of their own;
  // the event's metadata is the rest.
  const { [HASH_KEY]: hash, [APPEND_KEY]: _, ...metadata } = (event.metadata ?? {}) as Record<string, unknown>;
  return {
    id: event.id,
    streamId: event.streamId,
    revision: Number(event.revision),
    type: event.type,
    data: event.data,
    metadata: metadata as unknown as EventMetadata,
    position: encodePosition(commit, prepare),
    recordedAt: event.created,
    hash: typeof hash === 'string' ? hash : null,
  };
}

/** Where the hash chain (audit/hash-chain.ts) is kept in an EventStoreDB event's metadata. */
const HASH_KEY = 'bugtrailHash';
/**
 * Which append stored an event (a UUID per call): servers since 21.10 answer a repeated
 * append of stored ids as they answered the first, position and all, so only this tells
 * "we wrote it" from "it was there already".
 */
const APPEND_KEY = 'bugtrailAppend';
/** `any` and `stream_exists` appends pin the revision they chained from; a race retries this often. */
const CHAIN_ATTEMPTS = 8;
/** How many of a stream's newest events an append reads: its predecessor, and earlier tries of it. */
const RECENT = 100;

function toReadPosition(position: Position) {
  if (position === START) return 'start' as const;
  const [commit, prepare] = decodePosition(position);
  return { commit, prepare };
}

/** How many records one read of $all asks for while skipping system events. */
const PAGE = 500;

export class EsdbEventStore implements EventStore {
  private readonly client: EventStoreDBClient;
  private readonly subscriptions = new Set<{ close(): Promise<void> }>();

  /** Appends to one stream run one at a time in this process: they would only race each other. */
  private readonly appending = new Map<string, Promise<unknown>>();

  /**
   * `rows`: the PostgreSQL pool of the write side's own tables, for appends that change rows
   * alongside (ADR 026).
   */
  constructor(
    connectionString: string,
    private readonly options: { rows?: pg.Pool } = {},
  ) {
    this.client = EventStoreDBClient.connectionString(connectionString);
  }

  async append(
    streamId: string,
    events: readonly NewEvent[],
    expected: ExpectedRevision,
    options: AppendOptions = {},
  ): Promise<AppendResult> {
    if (options.alongside) return this.appendAlongside(streamId, events, expected, options.alongside);
    if (events.length === 0) throw new Error('append needs at least one event');
    assertDistinctEventIds(streamId, events);
    for (const event of events) assertValidEvent(event.type, event.data);
    const previous = this.appending.get(streamId) ?? Promise.resolve();
    const result = previous.then(() => this.appendInTurn(streamId, events, expected));
    const settled = result.catch(() => {});
    this.appending.set(streamId, settled);
    void settled.then(() => {
      if (this.appending.get(streamId) === settled) this.appending.delete(streamId);
    });
    return result;
  }

  /**
   * Two systems, so no one transaction: the rows are written first and their transaction stays
   * open while EventStoreDB takes the events, committing after, so what `alongside` throws and a refused append both
   * leave the rows as they were. Only a PostgreSQL commit that fails after the append leaves
   * the events ahead of the rows; the error says so, and nothing pretends to mend it.
   */
  private async appendAlongside(
    streamId: string,
    events: readonly NewEvent[],
    expected: ExpectedRevision,
    alongside: Alongside,
  ): Promise<AppendResult> {
    const pool = this.options.rows;
    if (!pool)
      throw new Error('EventStoreDB appends with rows alongside need the rows pool (EsdbEventStore options.rows)');
    const client = await pool.connect();
    let appended = false;
    try {
      await client.query('begin');
      await alongside(client);
      const result = await this.append(streamId, events, expected);
      appended = true;
      // A retry of an append stored before: its rows were written with it.
      await client.query(result.alreadyAppended ? 'rollback' : 'commit');
      return result;
    } catch (error) {
      await client.query('rollback').catch(() => {});
      if (!appended) throw error;
      throw new Error(`${streamId}: the events are stored, their rows alongside are not`, { cause: error });
    } finally {
      client.release();
    }
  }

  private async appendInTurn(
    streamId: string,
    events: readonly NewEvent[],
    expected: ExpectedRevision,
  ): Promise<AppendResult> {
    for (let attempt = 1; ; attempt++) {
      // The chain needs the stream's last hash, and so the revision it follows (EventStoreDB
      // cannot compute it inside the append); the newest events also show an earlier try of
      // this append. The server would write a retry again at the current revision.
      const recent = await this.readStream(streamId, { direction: 'backwards', limit: RECENT });
      const stored = await this.storedAlready(streamId, events, recent);
      if (stored) return stored;
      const last = recent[0];
      const pinned = typeof expected === 'number' || expected === 'no_stream' || (expected === 'any' && !last);
      let expectedRevision: AppendExpectedRevision;
      if (typeof expected === 'number') expectedRevision = BigInt(expected);
      else if (expected === 'no_stream' || !last) {
        if (expected === 'stream_exists') throw new WrongExpectedRevisionError(streamId, expected, 'no_stream');
        expectedRevision = 'no_stream';
      } else expectedRevision = BigInt(last.revision);
      const start =
        typeof expected === 'number' ? expected + 1 : expectedRevision === 'no_stream' ? 0 : last!.revision + 1;
      const chainedFrom = start === 0 ? GENESIS_HASH : last?.revision === start - 1 ? last.hash : null;
      try {
        return await this.appendChained(streamId, events, expectedRevision, start, chainedFrom, expected);
      } catch (error) {
        // Another process appended between the read and the append: an unpinned append reads again.
        if (error instanceof WrongExpectedRevisionError && !pinned && attempt < CHAIN_ATTEMPTS) {
          await new Promise((resolve) => setTimeout(resolve, Math.random() * 2 ** attempt));
          continue;
        }
        throw error;
      }
    }
  }

  /**
   * These events as stored by an earlier try, from the stream's newest events (or the whole
   * stream when they may reach further back); null when none of them is stored.
   */
  private async storedAlready(
    streamId: string,
    events: readonly NewEvent[],
    recent: readonly RecordedEvent[],
  ): Promise<AppendResult | null> {
    const wanted = new Set(events.map((e) => e.id.toLowerCase()));
    const found = recent.filter((e) => wanted.has(e.id.toLowerCase()));
    if (found.length === 0) return null;
    if (found.length < wanted.size && recent.length === RECENT) return this.findAppended(streamId, events);
    if (found.length < wanted.size) throw new DuplicateEventIdError(streamId, [...wanted]);
    return { nextExpectedRevision: found[0]!.revision, position: found[0]!.position, alreadyAppended: true };
  }

  private async appendChained(
    streamId: string,
    events: readonly NewEvent[],
    expectedRevision: AppendExpectedRevision,
    start: number,
    chainedFrom: string | null,
    expected: ExpectedRevision,
  ): Promise<AppendResult> {
    // A wrong expected revision (no predecessor hash to chain from) is left to the server to refuse.
    let previous = chainedFrom ?? GENESIS_HASH;
    const hashes = events.map((e, index) => {
      previous = chainHash(previous, {
        stream: streamId,
        revision: start + index,
        type: e.type,
        data: e.data,
        metadata: e.metadata,
      });
      return previous;
    });
    const appendId = randomUUID();
    try {
      const result = await this.client.appendToStream(
        streamId,
        events.map((e, index) =>
          jsonEvent({
            id: e.id,
            type: e.type,
            data: e.data as Record<string, unknown>,
            metadata: {
              ...(e.metadata as unknown as Record<string, unknown>),
              [HASH_KEY]: hashes[index],
              [APPEND_KEY]: appendId,
            },
          }),
        ),
        { expectedRevision },
      );
      const nextExpectedRevision = Number(result.nextExpectedRevision);
      // An idempotent answer (these ids were stored by someone else since the read above):
      // servers before 21.10 send no position; later ones the first append's, as if new.
      if (result.position && (await this.appendIdAt(streamId, nextExpectedRevision)) === appendId) {
        const position = encodePosition(result.position.commit, result.position.prepare);
        return { nextExpectedRevision, position, alreadyAppended: false };
      }
      const replay = await this.findAppended(streamId, events);
      if (replay) return replay;
      throw new Error(`append to ${streamId} answered success, but its events are not in the stream`);
    } catch (error) {
      if (error instanceof WrongExpectedVersionError) {
        // A retry after the stream moved on: the server only checks idempotency at
        // the expected revision, the port promises it for any retry of the same ids.
        const replay = await this.findAppended(streamId, events);
        if (replay) return replay;
        const actual = typeof error.actualVersion === 'bigint' ? Number(error.actualVersion) : 'no_stream';
        throw new WrongExpectedRevisionError(streamId, expected, actual);
      }
      throw error;
    }
  }

  /** The append id stored with a stream's event (APPEND_KEY). The read runs to its end (see readPage). */
  private async appendIdAt(streamId: string, revision: number): Promise<unknown> {
    let appendId: unknown;
    for await (const resolved of this.client.readStream(streamId, { fromRevision: BigInt(revision), maxCount: 1 })) {
      appendId = (resolved.event?.metadata as Record<string, unknown> | undefined)?.[APPEND_KEY];
    }
    return appendId;
  }

  /** These exact events, stored already in this stream (searched from its end). */
  private async findAppended(streamId: string, events: readonly NewEvent[]): Promise<AppendResult | null> {
    const wanted = new Set(events.map((e) => e.id.toLowerCase()));
    const found: RecordedEvent[] = [];
    for (const event of await this.readStream(streamId, { direction: 'backwards', limit: 10_000 })) {
      if (wanted.has(event.id.toLowerCase())) found.push(event);
      if (found.length === wanted.size) break;
    }
    if (found.length === 0) return null;
    if (found.length !== wanted.size) throw new DuplicateEventIdError(streamId, [...wanted]);
    const last = found[0]!;
    return { nextExpectedRevision: last.revision, position: last.position, alreadyAppended: true };
  }

  async readStream(streamId: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const backwards = options.direction === 'backwards';
    if (options.limit !== undefined && options.limit <= 0) return [];
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
    let position = from;
    // $all holds system events too; a page of them must not read as "nothing new". The first
    // page asks for little more than the limit; each read is consumed to its end (see readPage).
    for (let size = Math.min(PAGE, limit + 1); out.length < limit; size = PAGE) {
      // fromPosition is inclusive; the port's `from` is exclusive (hence the filter).
      const page = await this.readPage({ fromPosition: toReadPosition(position), maxCount: size });
      for (const resolved of page) {
        const at = resolved.event?.position;
        if (at) {
          const p = encodePosition(at.commit, at.prepare);
          if (p <= position) continue; // the inclusive start record, seen already
          position = p;
        }
        const recorded = toRecorded(resolved);
        if (recorded) out.push(recorded);
        if (out.length >= limit) break;
      }
      if (page.length < size) break;
    }
    return out;
  }

  async readAllBackwards({ before, limit, streamPrefix }: ReadAllBackwardsOptions): Promise<RecordedEvent[]> {
    const out: RecordedEvent[] = [];
    let from: ReturnType<typeof toReadPosition> | 'end' = before === undefined ? 'end' : toReadPosition(before);
    // Backwards reads of $all hold system events (and, should a server include it, `from`): page past both.
    for (let size = Math.min(PAGE, limit + 1); out.length < limit; size = PAGE) {
      const page = await this.readPage({ fromPosition: from, direction: 'backwards', maxCount: size });
      for (const resolved of page) {
        const recorded = toRecorded(resolved);
        if (!recorded || (before !== undefined && recorded.position >= before)) continue;
        if (streamPrefix !== undefined && !recorded.streamId.startsWith(streamPrefix)) continue;
        out.push(recorded);
        if (out.length >= limit) break;
      }
      const last = page.findLast((resolved) => resolved.event?.position)?.event?.position;
      if (page.length < size || !last) break;
      from = last;
    }
    return out;
  }

  /**
   * One read of $all, consumed to its end: a read broken off early never finishes (its gRPC
   * stream keeps the unread messages), and the client's dispose() waits for every stream.
   */
  private async readPage(options: Parameters<EventStoreDBClient['readAll']>[0]): Promise<AllStreamResolvedEvent[]> {
    const page: AllStreamResolvedEvent[] = [];
    for await (const resolved of this.client.readAll(options)) page.push(resolved);
    return page;
  }

  async headPosition(): Promise<Position> {
    // The newest event the store recorded: the first of a backwards read (past system events).
    const [newest] = await this.readAllBackwards({ limit: 1 });
    return newest?.position ?? START;
  }

  subscribe(from: Position, options: { batchSize?: number } = {}): Subscription {
    const batchSize = options.batchSize ?? 500;
    const client = this.client;
    let closed = false;
    let position = from;
    let current: AllStreamSubscription | null = null;
    // Events pushed by the server wait here until the consumer asks for a batch.
    let buffer: RecordedEvent[] = [];
    let failure: Error | null = null;
    let wake: (() => void) | null = null;
    const ring = () => {
      wake?.();
      wake = null;
    };
    const handle = {
      close: async () => {
        closed = true;
        this.subscriptions.delete(handle);
        ring();
        await current?.unsubscribe().catch(() => {});
      },
    };
    this.subscriptions.add(handle);

    const open = () => {
      // Resubscribe from the last event handed to the consumer, not the last received.
      const subscription = client.subscribeToAll({
        fromPosition: toReadPosition(position),
        filter: excludeSystemEvents(),
      });
      subscription.on('data', (resolved: AllStreamResolvedEvent) => {
        const recorded = toRecorded(resolved);
        const newest = buffer.at(-1)?.position ?? position;
        if (recorded && recorded.position > newest) buffer.push(recorded);
        // Backpressure: the server waits while the consumer is behind.
        if (buffer.length >= batchSize * 4) subscription.pause();
        ring();
      });
      subscription.on('error', (error: Error) => {
        failure = error;
        ring();
      });
      subscription.on('end', () => {
        failure ??= new Error('subscription ended');
        ring();
      });
      current = subscription;
    };

    async function* batches(): AsyncGenerator<readonly RecordedEvent[]> {
      let retryDelay = 100;
      open();
      while (!closed) {
        if (buffer.length > 0) {
          const batch = buffer.slice(0, batchSize);
          buffer = buffer.slice(batch.length);
          position = batch[batch.length - 1]!.position;
          if (current?.isPaused()) current.resume();
          retryDelay = 100;
          yield batch;
          continue;
        }
        if (failure) {
          // Dropped (server restart, leader change): resubscribe from our checkpoint.
          failure = null;
          buffer = [];
          await current?.unsubscribe().catch(() => {});
          await new Promise((resolve) => setTimeout(resolve, retryDelay));
          retryDelay = Math.min(retryDelay * 2, 5_000);
          if (!closed) open();
          continue;
        }
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
      }
    }
    return Object.assign(batches(), handle);
  }

  async close(): Promise<void> {
    await Promise.all([...this.subscriptions].map((s) => s.close()));
    await this.client.dispose();
  }
}
