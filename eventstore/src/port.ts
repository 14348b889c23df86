/**
 * The event store port. Two adapters implement it (PostgreSQL, EventStoreDB) and
 * both pass one contract suite (`contract/`).
 *
 * Positions are opaque strings that sort, as strings, in processing order. The
 * projector keeps them as checkpoints; read-your-writes compares them.
 */
import type { EventMetadata } from '@bugtrail/domain';
import type pg from 'pg';

export type Position = string;
/** Before every event: the checkpoint of a projection that has seen nothing. */
export const START: Position = '0'.repeat(32);

export type ExpectedRevision = number | 'no_stream' | 'stream_exists' | 'any';

export type NewEvent = Readonly<{
  /** A UUID. Derive it from an idempotency key to make a retried append a no-op. */
  id: string;
  type: string;
  data: unknown;
  metadata: EventMetadata;
}>;

export type RecordedEvent = Readonly<{
  id: string;
  streamId: string;
  revision: number;
  type: string;
  data: unknown;
  metadata: EventMetadata;
  position: Position;
  recordedAt: Date;
  /** The stream's hash chain at this event (audit/hash-chain.ts); null only before it was chained. */
  hash: string | null;
}>;

export type AppendResult = Readonly<{
  /** The revision of the stream's last event after the append. */
  nextExpectedRevision: number;
  /** The position of the last appended event. */
  position: Position;
  /** True when every event id was already stored: nothing new was written. */
  alreadyAppended: boolean;
}>;

export type ReadStreamOptions = Readonly<{
  /** Revision to start from (inclusive). Forwards default 0; backwards default the end. */
  from?: number;
  direction?: 'forwards' | 'backwards';
  limit?: number;
}>;

export type ReadAllBackwardsOptions = Readonly<{
  before?: Position;
  limit: number;
  streamPrefix?: string;
}>;

/**
 * Rows of the write side's own PostgreSQL tables that change with an append (a user's
 * credentials: ADR 026). They change in one transaction with the events: what `alongside`
 * throws appends nothing, and an append that is refused keeps none of its rows. A retry of an
 * append already stored runs nothing.
 */
export type Alongside = (tx: pg.ClientBase) => Promise<void>;

export type AppendOptions = Readonly<{ alongside?: Alongside }>;

export type Subscription = AsyncIterable<readonly RecordedEvent[]> & { close(): Promise<void> };

export interface EventStore {
  append(
    streamId: string,
    events: readonly NewEvent[],
    expected: ExpectedRevision,
    options?: AppendOptions,
  ): Promise<AppendResult>;
  /** The events of one stream; an empty array when the stream does not exist. */
  readStream(streamId: string, options?: ReadStreamOptions): Promise<RecordedEvent[]>;
  /** Events after `from` (exclusive) in global processing order, at most `limit`. */
  readAll(from: Position, limit: number): Promise<RecordedEvent[]>;
  /**
   * The newest events first: before `before` (exclusive; from the head without it), at
   * most `limit`, only streams whose name starts with `streamPrefix` when given.
   */
  readAllBackwards(options: ReadAllBackwardsOptions): Promise<RecordedEvent[]>;
  /** Batches of events after `from` (exclusive), live, until closed. */
  subscribe(from: Position, options?: { batchSize?: number }): Subscription;
  /** The position of the newest event that readAll can deliver now (START when none). */
  headPosition(): Promise<Position>;
  close(): Promise<void>;
}

/** A wrong expected revision. Nothing was written. */
export class WrongExpectedRevisionError extends Error {
  override readonly name = 'WrongExpectedRevisionError';
  constructor(
    readonly streamId: string,
    readonly expected: ExpectedRevision,
    readonly actual: number | 'no_stream',
  ) {
    super(`Wrong expected revision for ${streamId}: expected ${String(expected)}, actual ${String(actual)}`);
  }
}

/**
 * An event id that is stored already, but not as this append: in another stream,
 * or as part of a different batch. A retry must resend exactly the same events.
 */
export class DuplicateEventIdError extends Error {
  override readonly name = 'DuplicateEventIdError';
  constructor(
    readonly streamId: string,
    readonly eventIds: readonly string[],
  ) {
    super(`Event id already used by another append: ${eventIds.join(', ')} (appending to ${streamId})`);
  }
}

/** Refuses a batch that names one event id twice, before anything is sent. */
export function assertDistinctEventIds(streamId: string, events: readonly NewEvent[]): void {
  const seen = new Set<string>();
  const repeated = new Set<string>();
  for (const event of events) {
    const id = event.id.toLowerCase();
    if (seen.has(id)) repeated.add(event.id);
    seen.add(id);
  }
  if (repeated.size > 0) throw new DuplicateEventIdError(streamId, [...repeated]);
}

export function comparePositions(a: Position, b: Position): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function maxPosition(a: Position, b: Position): Position {
  return a >= b ? a : b;
}

/** Two non-negative 64-bit numbers as one sortable token (16 hex digits each). */
export function encodePosition(major: bigint, minor: bigint): Position {
  return major.toString(16).padStart(16, '0') + minor.toString(16).padStart(16, '0');
}

export function decodePosition(position: Position): [bigint, bigint] {
  if (!/^[0-9a-f]{32}$/.test(position)) throw new Error(`Bad position token: ${position}`);
  return [BigInt(`0x${position.slice(0, 16)}`), BigInt(`0x${position.slice(16)}`)];
}

export function isPosition(value: unknown): value is Position {
  return typeof value === 'string' && /^[0-9a-f]{32}$/.test(value);
}
