/**
 * The contract every EventStore adapter passes. Each adapter's spec file calls
 * `describeEventStoreContract` with a harness that opens a store.
 *
 * The tests never assume an empty store: they use stream ids of their own and read
 * the global order only after the head they saw when they started, so the suite
 * also runs against a long-lived EventStoreDB.
 */
import { randomUUID } from 'node:crypto';
import { ValidationError } from '@bugtrail/domain';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chainHash, GENESIS_HASH, verifyStream } from '../audit/hash-chain.js';
import {
  DuplicateEventIdError,
  decodePosition,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type Position,
  type RecordedEvent,
  START,
  WrongExpectedRevisionError,
} from '../port.js';

/** An append started in a transaction of its own and not committed yet. */
export type HeldTransaction = { commit(): Promise<void>; rollback(): Promise<void> };

/**
 * Tests that hold a transaction open. They hold back every reader of the whole
 * PostgreSQL cluster, so the harness must give them a cluster of their own.
 */
export type HeldTransactionHarness = {
  store: EventStore;
  /** Appends in a transaction of its own and keeps it open until told. */
  beginAppend(streamId: string, events: readonly NewEvent[], expected: ExpectedRevision): Promise<HeldTransaction>;
  /** Opens a transaction that has a transaction id, in another database of the same cluster. */
  beginUnrelatedTransaction(): Promise<HeldTransaction>;
  close(): Promise<void>;
};

export type EventStoreContractHarness = {
  /**
   * A store to run the general tests on, and the PostgreSQL pool of the write side's own rows
   * that its appends change alongside (ADR 026).
   */
  open(): Promise<{ store: EventStore; rows: pg.Pool; close(): Promise<void> }>;
  /** Either a way to hold transactions open, or why this adapter has none. */
  heldTransactions: { open(): Promise<HeldTransactionHarness> } | { notApplicable: string };
};

let sequence = 0;

/** A valid event of a real type (UserRegistered), numbered so tests can tell them apart. */
export function newEvent(n: number, overrides: Partial<NewEvent> = {}): NewEvent {
  sequence += 1;
  return {
    id: randomUUID(),
    type: 'UserRegistered',
    data: {
      userId: `u${n}`,
      name: `User ${n}`,
      email: `user${n}@example.com`,
      role: 'tester',
      profileImageURL: null,
    },
    metadata: {
      actorId: null,
      correlationId: `c-${sequence}`,
      causationId: null,
      occurredAt: new Date(Date.UTC(2024, 0, 1, 0, 0, 0, n)).toISOString(),
      schemaVersion: 1,
    },
    ...overrides,
  };
}

export function newEvents(count: number, first = 0): NewEvent[] {
  return Array.from({ length: count }, (_, i) => newEvent(first + i));
}

export function uniqueStream(prefix = 'contract'): string {
  return `${prefix}-${randomUUID()}`;
}

const numberOf = (event: RecordedEvent) => Number((event.data as { userId: string }).userId.slice(1));

/**
 * Reads the global order after `from` until `count` events of the given streams
 * arrived. Fails (by the test's timeout) rather than returning fewer.
 */
export async function readAllUntil(
  store: EventStore,
  from: Position,
  streams: ReadonlySet<string>,
  count: number,
  pageSize = 1000,
): Promise<RecordedEvent[]> {
  const out: RecordedEvent[] = [];
  let position = from;
  while (out.length < count) {
    const page = await store.readAll(position, pageSize);
    if (page.length === 0) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      continue;
    }
    position = page[page.length - 1]!.position;
    out.push(...page.filter((e) => streams.has(e.streamId)));
  }
  return out;
}

/** Collects a subscription's events of the given streams until `count` arrived. */
export async function subscribeUntil(
  store: EventStore,
  from: Position,
  streams: ReadonlySet<string>,
  count: number,
  batchSize?: number,
): Promise<RecordedEvent[]> {
  const out: RecordedEvent[] = [];
  const subscription = store.subscribe(from, batchSize === undefined ? {} : { batchSize });
  try {
    for await (const batch of subscription) {
      out.push(...batch.filter((e) => streams.has(e.streamId)));
      if (out.length >= count) break;
    }
  } finally {
    await subscription.close();
  }
  return out;
}

/** Runs a promise that must fail, and returns what it failed with. */
async function failureOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure, but it succeeded');
}

export function describeEventStoreContract(name: string, harness: EventStoreContractHarness): void {
  describe(`${name} event store contract`, () => {
    let store: EventStore;
    let rows: pg.Pool;
    let closeStore: () => Promise<void>;
    beforeAll(async () => {
      ({ store, rows, close: closeStore } = await harness.open());
    });
    afterAll(async () => {
      await closeStore?.();
    });

    describe('append and read a stream', () => {
      it('reads back what was appended, in revision order, with data, metadata and ids', async () => {
        const stream = uniqueStream();
        const first = newEvents(3);
        const second = newEvents(2, 3);
        const r1 = await store.append(stream, first, 'no_stream');
        expect(r1).toMatchObject({ nextExpectedRevision: 2, alreadyAppended: false });
        const r2 = await store.append(stream, second, 2);
        expect(r2).toMatchObject({ nextExpectedRevision: 4, alreadyAppended: false });
        expect(r2.position > r1.position).toBe(true);

        const read = await store.readStream(stream);
        expect(read.map((e) => e.revision)).toEqual([0, 1, 2, 3, 4]);
        expect(read.map((e) => e.id)).toEqual([...first, ...second].map((e) => e.id));
        expect(read.map((e) => e.streamId)).toEqual(Array(5).fill(stream));
        for (const [i, event] of read.entries()) {
          const sent = [...first, ...second][i]!;
          expect(event.type).toBe(sent.type);
          expect(event.data).toEqual(sent.data);
          expect(event.metadata).toEqual(sent.metadata);
          expect(event.recordedAt).toBeInstanceOf(Date);
        }
        // The append answers the position of its last event: read-your-writes compares it.
        expect(read[2]!.position).toBe(r1.position);
        expect(read[4]!.position).toBe(r2.position);
      });

      it('reads forwards from a revision, with a limit', async () => {
        const stream = uniqueStream();
        await store.append(stream, newEvents(6), 'no_stream');
        expect((await store.readStream(stream, { from: 2 })).map((e) => e.revision)).toEqual([2, 3, 4, 5]);
        expect((await store.readStream(stream, { from: 1, limit: 2 })).map((e) => e.revision)).toEqual([1, 2]);
        expect((await store.readStream(stream, { limit: 3 })).map((e) => e.revision)).toEqual([0, 1, 2]);
        expect(await store.readStream(stream, { from: 6 })).toEqual([]);
      });

      it('reads backwards from the end or from a revision, with a limit', async () => {
        const stream = uniqueStream();
        await store.append(stream, newEvents(5), 'no_stream');
        const backwards = { direction: 'backwards' } as const;
        expect((await store.readStream(stream, backwards)).map((e) => e.revision)).toEqual([4, 3, 2, 1, 0]);
        expect((await store.readStream(stream, { ...backwards, limit: 2 })).map((e) => e.revision)).toEqual([4, 3]);
        expect((await store.readStream(stream, { ...backwards, from: 2 })).map((e) => e.revision)).toEqual([2, 1, 0]);
        expect((await store.readStream(stream, { ...backwards, from: 3, limit: 2 })).map((e) => e.revision)).toEqual([
          3, 2,
        ]);
      });

      it('reads a stream that does not exist as empty, in both directions', async () => {
        const stream = uniqueStream();
        expect(await store.readStream(stream)).toEqual([]);
        expect(await store.readStream(stream, { direction: 'backwards' })).toEqual([]);
      });

      it('refuses an empty append', async () => {
        await expect(store.append(uniqueStream(), [], 'any')).rejects.toThrow();
      });
    });

    describe('expected revision', () => {
      async function expectConflict(
        stream: string,
        expected: ExpectedRevision,
        actual: number | 'no_stream',
      ): Promise<void> {
        const before = await store.readStream(stream);
        const head = await store.headPosition();
        const refused = newEvents(2, 100);
        const error = await failureOf(store.append(stream, refused, expected));
        expect(error).toBeInstanceOf(WrongExpectedRevisionError);
        expect(error).toMatchObject({ streamId: stream, expected, actual });
        // Nothing was written: not in the stream, not in the global order. (The head read
        // above may trail the stream's own earlier events while other writers are busy, so
        // the global order is searched for the refused events, not for the stream.)
        expect(await store.readStream(stream)).toEqual(before);
        const refusedIds = new Set(refused.map((e) => e.id));
        const after = await store.readAll(head, 1000);
        expect(after.filter((e) => refusedIds.has(e.id))).toEqual([]);
      }

      it('a revision: appends when it is the stream revision', async () => {
        const stream = uniqueStream();
        await store.append(stream, newEvents(2), 'no_stream');
        await expect(store.append(stream, newEvents(1, 2), 1)).resolves.toMatchObject({ nextExpectedRevision: 2 });
      });

      it('a revision: refuses an older or newer one, and writes nothing', async () => {
        const stream = uniqueStream();
        await store.append(stream, newEvents(3), 'no_stream');
        await expectConflict(stream, 1, 2);
        await expectConflict(stream, 3, 2);
        // The stream goes on where it was: no revision was used up by the refusals.
        await expect(store.append(stream, newEvents(1, 3), 2)).resolves.toMatchObject({ nextExpectedRevision: 3 });
      });

      it('a revision: refuses when the stream does not exist', async () => {
        await expectConflict(uniqueStream(), 0, 'no_stream');
      });

      it("'no_stream': appends to a new stream from revision 0", async () => {
        const stream = uniqueStream();
        await expect(store.append(stream, newEvents(2), 'no_stream')).resolves.toMatchObject({
          nextExpectedRevision: 1,
        });
      });

      it("'no_stream': refuses an existing stream, and writes nothing", async () => {
        const stream = uniqueStream();
        await store.append(stream, newEvents(3), 'no_stream');
        await expectConflict(stream, 'no_stream', 2);
      });

      it("'stream_exists': appends to an existing stream", async () => {
        const stream = uniqueStream();
        await store.append(stream, newEvents(2), 'no_stream');
        await expect(store.append(stream, newEvents(2, 2), 'stream_exists')).resolves.toMatchObject({
          nextExpectedRevision: 3,
        });
        expect((await store.readStream(stream)).map((e) => e.revision)).toEqual([0, 1, 2, 3]);
      });

      it("'stream_exists': refuses a stream that does not exist, and writes nothing", async () => {
        await expectConflict(uniqueStream(), 'stream_exists', 'no_stream');
      });

      it("'any': appends to a new stream and to an existing one", async () => {
        const stream = uniqueStream();
        await expect(store.append(stream, newEvents(2), 'any')).resolves.toMatchObject({ nextExpectedRevision: 1 });
        await expect(store.append(stream, newEvents(3, 2), 'any')).resolves.toMatchObject({ nextExpectedRevision: 4 });
        expect((await store.readStream(stream)).map((e) => e.revision)).toEqual([0, 1, 2, 3, 4]);
      });

      it("racing 'no_stream' appends: exactly one wins, the others conflict", async () => {
        const stream = uniqueStream();
        const attempts = Array.from({ length: 12 }, (_, i) => newEvents(2, i * 10));
        const results = await Promise.allSettled(attempts.map((events) => store.append(stream, events, 'no_stream')));
        const won = results.flatMap((r, i) => (r.status === 'fulfilled' ? [i] : []));
        expect(won).toHaveLength(1);
        for (const r of results) {
          if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(WrongExpectedRevisionError);
        }
        const read = await store.readStream(stream);
        expect(read.map((e) => e.id)).toEqual(attempts[won[0]!]!.map((e) => e.id));
      });

      it('racing appends at the same revision: exactly one wins, the others conflict', async () => {
        const stream = uniqueStream();
        await store.append(stream, newEvents(1), 'no_stream');
        const attempts = Array.from({ length: 12 }, (_, i) => newEvents(1, 100 + i));
        const results = await Promise.allSettled(attempts.map((events) => store.append(stream, events, 0)));
        expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
        for (const r of results) {
          if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(WrongExpectedRevisionError);
        }
        expect((await store.readStream(stream)).map((e) => e.revision)).toEqual([0, 1]);
      });
    });

    describe('idempotent retries and duplicate ids', () => {
      it('a retry with the same event ids writes nothing and answers as the first append did', async () => {
        const stream = uniqueStream();
        const events = newEvents(3);
        const first = await store.append(stream, events, 'no_stream');
        const retry = await store.append(stream, events, 'no_stream');
        expect(retry).toEqual({ ...first, alreadyAppended: true });
        expect(await store.readStream(stream)).toHaveLength(3);
      });

      it('a retry after the stream moved on still answers as the first append did', async () => {
        const stream = uniqueStream();
        await store.append(stream, newEvents(1), 'no_stream');
        const events = newEvents(2, 1);
        const first = await store.append(stream, events, 0);
        await store.append(stream, newEvents(1, 3), 2);
        const retry = await store.append(stream, events, 0);
        expect(retry).toEqual({ ...first, alreadyAppended: true });
        expect((await store.readStream(stream)).map((e) => e.id)).toHaveLength(4);
      });

      it('racing retries of one append write it once', async () => {
        const stream = uniqueStream();
        const events = newEvents(2);
        const results = await Promise.all(Array.from({ length: 8 }, () => store.append(stream, events, 'any')));
        expect(results.filter((r) => !r.alreadyAppended)).toHaveLength(1);
        const { alreadyAppended: _, ...answer } = results[0]!;
        for (const r of results) expect(r).toMatchObject(answer);
        expect((await store.readStream(stream)).map((e) => e.id)).toEqual(events.map((e) => e.id));
      });

      it('refuses one event id twice in one append, and writes nothing', async () => {
        const stream = uniqueStream();
        const [a, b] = newEvents(2);
        const error = await failureOf(store.append(stream, [a!, { ...b!, id: a!.id }], 'any'));
        expect(error).toBeInstanceOf(DuplicateEventIdError);
        expect(await store.readStream(stream)).toEqual([]);
      });

      it('refuses a batch that is only partly a retry, and writes nothing', async () => {
        const stream = uniqueStream();
        const stored = newEvents(2);
        await store.append(stream, stored, 'no_stream');
        const error = await failureOf(store.append(stream, [stored[0]!, newEvent(9)], 'any'));
        expect(error).toBeDefined();
        expect((await store.readStream(stream)).map((e) => e.id)).toEqual(stored.map((e) => e.id));
      });
    });

    describe('rows alongside an append (ADR 026)', () => {
      beforeAll(async () => {
        await rows.query('create table if not exists public.contract_alongside (stream_id text not null)');
      });
      const rowsOf = async (streamId: string) =>
        (await rows.query('select 1 from public.contract_alongside where stream_id = $1', [streamId])).rowCount;
      const writeRow = (streamId: string) => async (tx: pg.ClientBase) => {
        await tx.query('insert into public.contract_alongside (stream_id) values ($1)', [streamId]);
      };

      it('writes the rows with the events', async () => {
        const stream = uniqueStream();
        await store.append(stream, newEvents(2), 'no_stream', { alongside: writeRow(stream) });
        expect(await store.readStream(stream)).toHaveLength(2);
        expect(await rowsOf(stream)).toBe(1);
      });

      it('appends nothing and keeps no row when alongside throws', async () => {
        const stream = uniqueStream();
        const refused = store.append(stream, newEvents(1), 'no_stream', {
          alongside: async (tx) => {
            await writeRow(stream)(tx);
            throw new ValidationError('refused alongside');
          },
        });
        await expect(refused).rejects.toThrow('refused alongside');
        expect(await store.readStream(stream)).toEqual([]);
        expect(await rowsOf(stream)).toBe(0);
      });

      it('keeps none of its rows when the append is refused', async () => {
        const stream = uniqueStream();
        await store.append(stream, newEvents(1), 'no_stream');
        const refused = store.append(stream, newEvents(1), 'no_stream', { alongside: writeRow(stream) });
        await expect(refused).rejects.toBeInstanceOf(WrongExpectedRevisionError);
        expect(await store.readStream(stream)).toHaveLength(1);
        expect(await rowsOf(stream)).toBe(0);
      });

      it('writes no rows again for a retry of a stored append', async () => {
        const stream = uniqueStream();
        const events = newEvents(2);
        await store.append(stream, events, 'no_stream', { alongside: writeRow(stream) });
        const retried = await store.append(stream, events, 'no_stream', { alongside: writeRow(stream) });
        expect(retried.alreadyAppended).toBe(true);
        expect(await rowsOf(stream)).toBe(1);
      });
    });

    describe('bad input', () => {
      it('refuses an event that fails its schema before writing anything', async () => {
        const stream = uniqueStream();
        const head = await store.headPosition();
        const malformed = newEvent(1, { data: { userId: 'u1', name: '', email: 'not-an-email', role: 'boss' } });
        const error = await failureOf(store.append(stream, [newEvent(0), malformed], 'any'));
        expect(error).toBeInstanceOf(ValidationError);
        expect(await store.readStream(stream)).toEqual([]);
        expect((await store.readAll(head, 100)).filter((e) => e.streamId === stream)).toEqual([]);
      });

      it('refuses an event of an unknown type', async () => {
        const stream = uniqueStream();
        const error = await failureOf(store.append(stream, [newEvent(0, { type: 'NoSuchThingHappened' })], 'any'));
        expect(error).toBeInstanceOf(ValidationError);
        expect(await store.readStream(stream)).toEqual([]);
      });
    });

    describe('the global order', () => {
      it('readAll delivers appends in order, after `from` (exclusive), `limit` at a time', async () => {
        const head = await store.headPosition();
        const stream = uniqueStream();
        const other = uniqueStream();
        await store.append(stream, newEvents(3), 'no_stream');
        await store.append(other, newEvents(2, 3), 'no_stream');
        await store.append(stream, newEvents(2, 5), 2);
        const mine = new Set([stream, other]);
        const all = await readAllUntil(store, head, mine, 7);
        expect(all.map(numberOf)).toEqual([0, 1, 2, 3, 4, 5, 6]);
        const positions = all.map((e) => e.position);
        expect([...positions].sort()).toEqual(positions);
        expect(new Set(positions).size).toBe(7);

        // Exclusive: from the third event's position, the fourth comes first.
        expect((await readAllUntil(store, all[2]!.position, mine, 4)).map(numberOf)).toEqual([3, 4, 5, 6]);
        // Paging with any limit gives the same sequence.
        expect((await readAllUntil(store, head, mine, 7, 2)).map((e) => e.id)).toEqual(all.map((e) => e.id));
        const limited = await store.readAll(head, 3);
        expect(limited.length).toBeLessThanOrEqual(3);
      });

      it('readAllBackwards gives the newest first, before `before` (exclusive), by stream prefix', async () => {
        const prefix = `${uniqueStream()}-`;
        const head = await store.headPosition();
        await store.append(`${prefix}a`, newEvents(2), 'no_stream');
        const other = uniqueStream();
        await store.append(other, newEvents(1, 2), 'no_stream');
        await store.append(`${prefix}b`, newEvents(2, 3), 'no_stream');
        const mine = await readAllUntil(store, head, new Set([`${prefix}a`, `${prefix}b`]), 4);
        let newest = await store.readAllBackwards({ limit: 4, streamPrefix: prefix });
        // Readers may lag behind other open transactions; never behind a committed append for long.
        while (newest.length < 4) {
          await new Promise((resolve) => setTimeout(resolve, 20));
          newest = await store.readAllBackwards({ limit: 4, streamPrefix: prefix });
        }
        expect(newest.map(numberOf)).toEqual([4, 3, 1, 0]);
        expect(newest.map((e) => e.id)).toEqual([...mine].reverse().map((e) => e.id));
        const older = await store.readAllBackwards({ before: newest[1]!.position, limit: 10, streamPrefix: prefix });
        expect(older.map(numberOf)).toEqual([1, 0]);
        expect(await store.readAllBackwards({ before: newest[3]!.position, limit: 10, streamPrefix: prefix })).toEqual(
          [],
        );
        // Without a prefix the other stream's event is there too, in its place.
        const ours = new Set([`${prefix}a`, `${prefix}b`, other]);
        const all = await store.readAllBackwards({ before: newest[0]!.position, limit: 10_000 });
        expect(all.filter((e) => ours.has(e.streamId)).map(numberOf)).toEqual([3, 2, 1, 0]);
      });

      it('headPosition is the newest readable event, START only when there is none', async () => {
        const stream = uniqueStream();
        const before = await store.headPosition();
        const { position } = await store.append(stream, newEvents(2), 'no_stream');
        // Readers (headPosition too) may lag while other transactions in the cluster
        // are open, but never stay behind a committed append.
        let head = await store.headPosition();
        while (head < position) {
          await new Promise((resolve) => setTimeout(resolve, 20));
          head = await store.headPosition();
        }
        expect(head).not.toBe(START);
        expect(head > before).toBe(true);
        expect((await store.readAll(before, 10_000)).map((e) => e.position)).toContain(position);
      });

      it('a subscription from a checkpoint starts right after it and follows new appends', async () => {
        const head = await store.headPosition();
        const stream = uniqueStream();
        await store.append(stream, newEvents(5), 'no_stream');
        const mine = new Set([stream]);
        const stored = await readAllUntil(store, head, mine, 5);
        const checkpoint = stored[1]!.position;

        const subscription = store.subscribe(checkpoint, { batchSize: 2 });
        const received: RecordedEvent[] = [];
        let appendedLive = false;
        try {
          for await (const batch of subscription) {
            expect(batch.length).toBeGreaterThan(0);
            received.push(...batch.filter((e) => mine.has(e.streamId)));
            if (received.length >= 3 && !appendedLive) {
              appendedLive = true;
              await store.append(stream, newEvents(2, 5), 4);
            }
            if (received.length >= 5) break;
          }
        } finally {
          await subscription.close();
        }
        expect(received.map(numberOf)).toEqual([2, 3, 4, 5, 6]);
      });

      it('a subscription from START delivers what readAll delivers, in the same order', async () => {
        const stream = uniqueStream();
        await store.append(stream, newEvents(3), 'no_stream');
        const mine = new Set([stream]);
        const [viaSubscription, viaRead] = await Promise.all([
          subscribeUntil(store, START, mine, 3),
          readAllUntil(store, START, mine, 3),
        ]);
        expect(viaSubscription).toEqual(viaRead);
      });

      it('a closed subscription ends', async () => {
        const subscription = store.subscribe(await store.headPosition());
        const ended = (async () => {
          for await (const _ of subscription) {
            // nothing new is appended to these streams
          }
          return 'ended';
        })();
        await subscription.close();
        await expect(ended).resolves.toBe('ended');
      });

      it('2,000 concurrent appends over 50 streams are delivered exactly once each, in a stable order', async () => {
        const head = await store.headPosition();
        const streams = Array.from({ length: 50 }, () => uniqueStream('load'));
        const mine = new Set(streams);
        const sent = Array.from({ length: 2000 }, (_, i) => ({ stream: streams[i % 50]!, event: newEvent(i) }));
        const subscribed = subscribeUntil(store, head, mine, 2000, 300);
        const results = await Promise.all(sent.map(({ stream, event }) => store.append(stream, [event], 'any')));
        expect(results.every((r) => !r.alreadyAppended)).toBe(true);

        const [first, second, live] = await Promise.all([
          readAllUntil(store, head, mine, 2000, 1000),
          readAllUntil(store, head, mine, 2000, 137),
          subscribed,
        ]);
        // Exactly once: every id, no id twice, nothing else.
        expect(first).toHaveLength(2000);
        expect(new Set(first.map((e) => e.id))).toEqual(new Set(sent.map((s) => s.event.id)));
        // Stable: two readers with different page sizes, and a live subscription, agree.
        expect(second.map((e) => e.id)).toEqual(first.map((e) => e.id));
        expect(live.map((e) => e.id)).toEqual(first.map((e) => e.id));
        const positions = first.map((e) => e.position);
        expect([...positions].sort()).toEqual(positions);
        // Within each stream the global order follows the revisions, with no gap.
        for (const stream of streams) {
          const revisions = first.filter((e) => e.streamId === stream).map((e) => e.revision);
          expect(revisions).toEqual(Array.from({ length: 40 }, (_, i) => i));
        }
        // Each append's answer names the position the event is read back at.
        const byId = new Map(first.map((e) => [e.id, e.position]));
        sent.forEach(({ event }, i) => {
          expect(results[i]!.position).toBe(byId.get(event.id));
        });
      });
    });

    describe('the hash chain (api.md "Audit trail")', () => {
      it('chains every event to its predecessor, across appends of one or many events', async () => {
        const stream = uniqueStream();
        await store.append(stream, newEvents(1), 'no_stream');
        await store.append(stream, newEvents(3, 1), 0);
        await store.append(stream, newEvents(2, 4), 'any');
        await store.append(stream, newEvents(1, 6), 'stream_exists');
        const events = await store.readStream(stream);
        expect(events.map((e) => e.revision)).toEqual([0, 1, 2, 3, 4, 5, 6]);
        expect(verifyStream(events)).toEqual({ ok: true, events: 7, brokenAt: null, reason: null });
        // Recomputable from what a reader sees alone.
        expect(events[0]!.hash).toBe(
          chainHash(GENESIS_HASH, {
            stream,
            revision: 0,
            type: events[0]!.type,
            data: events[0]!.data,
            metadata: events[0]!.metadata,
          }),
        );
        expect(events[3]!.hash).toBe(
          chainHash(events[2]!.hash!, {
            stream,
            revision: 3,
            type: events[3]!.type,
            data: events[3]!.data,
            metadata: events[3]!.metadata,
          }),
        );
      });

      it('racing `any` appends to one stream still form one chain', async () => {
        const stream = uniqueStream();
        await Promise.all(Array.from({ length: 12 }, (_, i) => store.append(stream, [newEvent(i)], 'any')));
        const events = await store.readStream(stream);
        expect(events).toHaveLength(12);
        expect(verifyStream(events).ok).toBe(true);
      });

      it('a retried append answers as the first and leaves the chain as it was', async () => {
        const stream = uniqueStream();
        const batch = newEvents(2);
        await store.append(stream, batch, 'no_stream');
        await store.append(stream, batch, 'no_stream');
        await store.append(stream, newEvents(1, 2), 1);
        expect(verifyStream(await store.readStream(stream)).ok).toBe(true);
      });
    });

    describeHeldTransactions(harness.heldTransactions);
  });
}

function describeHeldTransactions(option: EventStoreContractHarness['heldTransactions']): void {
  if ('notApplicable' in option) {
    describe.skip(`held transactions — not applicable: ${option.notApplicable}`, () => {
      it('a transaction that starts first and commits last is still delivered', () => {});
    });
    return;
  }
  describe('held transactions (on a cluster of their own)', () => {
    let h: HeldTransactionHarness;
    beforeAll(async () => {
      h = await option.open();
    });
    afterAll(async () => {
      await h?.close();
    });

    it('a transaction that starts first and commits last is still delivered, before the later one', async () => {
      const head = await h.store.headPosition();
      const early = uniqueStream('early');
      const late = uniqueStream('late');
      const mine = new Set([early, late]);
      const held = await h.beginAppend(early, [newEvent(1)], 'no_stream');
      // Started before the late append and following live: it must not pass the held one.
      const subscribed = subscribeUntil(h.store, head, mine, 2);
      try {
        const lateAnswer = await h.store.append(late, [newEvent(2)], 'no_stream');
        // The late event is committed, but the reader must not pass the open transaction.
        expect((await h.store.readStream(late)).map((e) => e.position)).toEqual([lateAnswer.position]);
        expect(await h.store.readAll(head, 100)).toEqual([]);
        expect(await h.store.headPosition()).toBe(head);
      } finally {
        await held.commit();
      }
      const read = await readAllUntil(h.store, head, mine, 2);
      expect(read.map((e) => e.streamId)).toEqual([early, late]);
      expect((await subscribed).map((e) => e.id)).toEqual(read.map((e) => e.id));
    });

    it('a rolled-back append leaves a hole in the positions: nothing lost, nothing duplicated', async () => {
      const head = await h.store.headPosition();
      const stream = uniqueStream('holes');
      const mine = new Set([stream]);
      const subscribed = subscribeUntil(h.store, head, mine, 3);
      await h.store.append(stream, [newEvent(0)], 'no_stream');
      const held = await h.beginAppend(stream, [newEvent(99)], 0);
      await held.rollback();
      // The failed append used no revision: the next one continues at 1.
      await h.store.append(stream, [newEvent(1)], 0);
      const rolledBackConcurrently = await h.beginAppend(uniqueStream('holes-other'), [newEvent(98)], 'no_stream');
      await h.store.append(stream, [newEvent(2)], 1);
      await rolledBackConcurrently.rollback();

      const read = await readAllUntil(h.store, head, mine, 3);
      expect(read.map(numberOf)).toEqual([0, 1, 2]);
      expect(read.map((e) => e.revision)).toEqual([0, 1, 2]);
      const [, first] = decodePosition(read[0]!.position);
      const [, second] = decodePosition(read[1]!.position);
      expect(second - first).toBeGreaterThan(1n);
      expect((await subscribed).map((e) => e.id)).toEqual(read.map((e) => e.id));
      expect((await h.store.readAll(head, 100)).filter((e) => e.streamId !== stream)).toEqual([]);
    });

    it('a long-open transaction in another database delays readers but loses nothing', async () => {
      const head = await h.store.headPosition();
      const stream = uniqueStream('delayed');
      const mine = new Set([stream]);
      const subscribed = subscribeUntil(h.store, head, mine, 20, 7);
      const unrelated = await h.beginUnrelatedTransaction();
      try {
        for (let i = 0; i < 20; i++) await h.store.append(stream, [newEvent(i)], i === 0 ? 'no_stream' : i - 1);
        expect(await h.store.readStream(stream)).toHaveLength(20);
        // Held back: the open transaction could still be writing (in any database).
        expect(await h.store.readAll(head, 100)).toEqual([]);
      } finally {
        await unrelated.commit();
      }
      // Nobody rings the doorbell when the unrelated transaction ends: polling finds them.
      const received = await subscribed;
      expect(received.map(numberOf)).toEqual(Array.from({ length: 20 }, (_, i) => i));
      expect((await readAllUntil(h.store, head, mine, 20)).map((e) => e.id)).toEqual(received.map((e) => e.id));
    });
  });
}
