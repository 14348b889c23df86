import { createTestDatabase, startOwnCluster } from '@bugtrail/testing';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { verifyStream } from '../audit/hash-chain.js';
import {
  describeEventStoreContract,
  type HeldTransaction,
  type HeldTransactionHarness,
  newEvent,
  newEvents,
  uniqueStream,
} from '../contract/event-store.contract.js';
import { DuplicateEventIdError, type ExpectedRevision, type NewEvent } from '../port.js';
import { appendEventsQuery, PostgresEventStore } from './postgres-event-store.js';
import { migrateEventStore } from './schema.js';

async function openStore(url: string) {
  const pool = new pg.Pool({ connectionString: url, max: 24 });
  // Dropping the database (with force) or stopping the cluster cuts idle clients; as
  // in the servers (platform's createPool), that is logged there, not a crash.
  pool.on('error', () => {});
  await migrateEventStore(pool);
  // A short poll so that tests that depend on the fallback (no doorbell) run quickly.
  const store = new PostgresEventStore(pool, { pollIntervalMs: 100 });
  return { pool, store };
}

/**
 * A store on a cluster of its own (another test's open transaction would hold its appends
 * back, and a follower that knows of an append it cannot see yet rightly re-reads until it
 * can), its reads of the table counted. A long fallback poll: every read counted was caused
 * by a ring.
 */
async function openCountedStore(name: string) {
  const cluster = await startOwnCluster();
  const pool = new pg.Pool({ connectionString: await cluster.createDatabase(name), max: 8 });
  pool.on('error', () => {});
  await migrateEventStore(pool);
  const store = new PostgresEventStore(pool, { pollIntervalMs: 60_000 });
  const counted = { reads: 0 };
  const readAll = store.readAll.bind(store);
  store.readAll = (from, limit) => {
    counted.reads++;
    return readAll(from, limit);
  };
  const close = async () => {
    await store.close();
    await pool.end();
    await cluster.stop();
  };
  return { pool, store, counted, close };
}

/** Waits until `done` holds (an event; the test's timeout ends a wait that never comes). */
async function until(done: () => boolean) {
  while (!done()) await new Promise((resolve) => setTimeout(resolve, 10));
}

/**
 * Waits until the store's followers have settled: its doorbell LISTENs (the ring that follows
 * has been read) and `followers` of them wait for the next ring. Not a pause: on a busy machine
 * the LISTEN comes up later, and a read it causes must not land in what is counted after.
 */
async function settled(store: PostgresEventStore, followers: number) {
  const doorbell = (store as unknown as { doorbell: { client: unknown; waiters: Set<unknown> } }).doorbell;
  await until(() => doorbell.client !== null && doorbell.waiters.size >= followers);
}

async function hold(client: pg.Client): Promise<HeldTransaction> {
  let done = false;
  const finish = async (sql: string) => {
    if (done) return;
    done = true;
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  return { commit: () => finish('commit'), rollback: () => finish('rollback') };
}

/** The held-transaction tests get a cluster of their own: they hold back every reader in it. */
async function openHeldTransactions(): Promise<HeldTransactionHarness> {
  const cluster = await startOwnCluster();
  const eventsUrl = await cluster.createDatabase('events');
  const otherUrl = await cluster.createDatabase('unrelated');
  const { pool, store } = await openStore(eventsUrl);
  const clients = new Set<pg.Client>();
  const connect = async (url: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    clients.add(client);
    return client;
  };
  return {
    store,
    async beginAppend(streamId: string, events: readonly NewEvent[], expected: ExpectedRevision) {
      const client = await connect(eventsUrl);
      await client.query('begin');
      // The adapter's own SQL surface, in a transaction that the test controls.
      const query = appendEventsQuery(streamId, events, expected);
      await client.query(query.text, query.values);
      return hold(client);
    },
    async beginUnrelatedTransaction() {
      const client = await connect(otherUrl);
      await client.query('begin');
      // A transaction id makes it count for every snapshot's xmin, in every database.
      await client.query('select pg_current_xact_id()');
      return hold(client);
    },
    async close() {
      await store.close();
      await pool.end();
      for (const client of clients) await client.end().catch(() => {});
      await cluster.stop();
    },
  };
}

describeEventStoreContract('PostgreSQL', {
  async open() {
    const database = await createTestDatabase();
    const { pool, store } = await openStore(database.url);
    return {
      store,
      rows: pool,
      async close() {
        await store.close();
        await pool.end();
        await database.drop();
      },
    };
  },
  heldTransactions: { open: openHeldTransactions },
});

describe('PostgreSQL event store specifics', () => {
  it('enforces the expected revision and unique ids in SQL, not only in the adapter', async () => {
    const database = await createTestDatabase();
    const { pool, store } = await openStore(database.url);
    try {
      const call = (stream: string, mode: string, expected: number | null, events: NewEvent[]) => {
        const query = appendEventsQuery(stream, events, mode === 'revision' ? expected! : (mode as ExpectedRevision));
        return pool.query(query.text, query.values);
      };
      const stream = uniqueStream();
      await call(stream, 'no_stream', null, [newEvent(0)]);
      await expect(call(stream, 'no_stream', null, [newEvent(1)])).rejects.toMatchObject({ code: 'BT409' });
      await expect(call(uniqueStream(), 'stream_exists', null, [newEvent(1)])).rejects.toMatchObject({
        code: 'BT409',
      });
      await expect(call(stream, 'revision', 5, [newEvent(1)])).rejects.toMatchObject({ code: 'BT409', detail: '0' });
      const twice = newEvent(2);
      await expect(call(stream, 'any', null, [twice, twice])).rejects.toMatchObject({ code: 'BT410' });
      const { rows } = await pool.query('select count(*)::int as n from eventstore.events');
      expect(rows[0].n).toBe(1);
    } finally {
      await store.close();
      await pool.end();
      await database.drop();
    }
  });

  it('refuses an event id that another stream already used, instead of answering "done"', async () => {
    const database = await createTestDatabase();
    const { pool, store } = await openStore(database.url);
    try {
      const event = newEvent(0);
      await store.append(uniqueStream(), [event], 'no_stream');
      const other = uniqueStream();
      await expect(store.append(other, [event], 'any')).rejects.toBeInstanceOf(DuplicateEventIdError);
      expect(await store.readStream(other)).toEqual([]);
    } finally {
      await store.close();
      await pool.end();
      await database.drop();
    }
  });

  it('chains events stored before the chain existed, at the next start, as appends would have', async () => {
    const database = await createTestDatabase();
    const { pool, store } = await openStore(database.url);
    try {
      const streams = [uniqueStream(), uniqueStream()];
      for (const stream of streams) {
        await store.append(stream, newEvents(3), 'no_stream');
        await store.append(stream, newEvents(2, 3), 2);
      }
      const before = await pool.query('select event_id, hash from eventstore.events order by position');
      // As an older version left them: no hashes at all.
      await pool.query('update eventstore.events set hash = null');
      await migrateEventStore(pool);
      const after = await pool.query('select event_id, hash from eventstore.events order by position');
      expect(after.rows).toEqual(before.rows);
      // And appends go on from the chained hashes.
      await store.append(streams[0]!, [newEvent(9)], 'any');
      expect(verifyStream(await store.readStream(streams[0]!)).ok).toBe(true);
    } finally {
      await store.close();
      await pool.end();
      await database.drop();
    }
  });

  it('one byte changed in a stored event breaks the chain at its revision', async () => {
    const database = await createTestDatabase();
    const { pool, store } = await openStore(database.url);
    try {
      const stream = uniqueStream();
      await store.append(stream, newEvents(5), 'no_stream');
      await pool.query(
        `update eventstore.events set data = jsonb_set(data, '{name}', '"User 3!"')
          where stream_id = $1 and stream_revision = 3`,
        [stream],
      );
      expect(verifyStream(await store.readStream(stream))).toMatchObject({ ok: false, events: 5, brokenAt: 3 });
      // Metadata counts too.
      const other = uniqueStream();
      await store.append(other, newEvents(2), 'no_stream');
      await pool.query(
        `update eventstore.events set metadata = jsonb_set(metadata, '{actorId}', '"someone"')
          where stream_id = $1 and stream_revision = 0`,
        [other],
      );
      expect(verifyStream(await store.readStream(other))).toMatchObject({ ok: false, brokenAt: 0 });
    } finally {
      await store.close();
      await pool.end();
      await database.drop();
    }
  });

  it('a follower behind another reads from what the first one read, not from the table', async () => {
    // The projector's batch takes longer than a reactor's: they stand at different places.
    const { store, counted, close } = await openCountedStore('drift');
    const stream = uniqueStream();
    const head = await store.headPosition();
    const fast = store.subscribe(head);
    const slow = store.subscribe(head);
    const seenFast: string[] = [];
    const seenSlow: string[] = [];
    const following = Promise.all([
      (async () => {
        for await (const batch of fast) seenFast.push(...batch.map((e) => e.id));
      })(),
      (async () => {
        for await (const batch of slow) {
          await new Promise((resolve) => setTimeout(resolve, 25));
          seenSlow.push(...batch.map((e) => e.id));
        }
      })(),
    ]);
    try {
      await settled(store, 2);
      const settledReads = counted.reads;
      const appended: string[] = [];
      for (let i = 0; i < 20; i++) {
        const event = newEvent(i);
        appended.push(event.id);
        await store.append(stream, [event], i === 0 ? 'no_stream' : i - 1);
        await until(() => seenFast.length === i + 1);
      }
      await until(() => seenSlow.length === 20);
      expect(seenFast).toEqual(appended);
      expect(seenSlow).toEqual(appended);
      // One read per append (the fast follower's); the slow one, always behind, read none of its
      // own. Each read it made would add one, so a slow follower reading the table fails this.
      expect(counted.reads - settledReads).toBeGreaterThanOrEqual(20);
      expect(counted.reads - settledReads).toBeLessThanOrEqual(23);
    } finally {
      await fast.close();
      await slow.close();
      await following;
      await close();
    }
  });

  it('followers read once per append they are told of (together), and not on a timer while caught up', async () => {
    const { pool, store, counted, close } = await openCountedStore('follower');
    const other = new PostgresEventStore(pool, { pollIntervalMs: 60_000 });
    const stream = uniqueStream();
    // Three followers at the same place (the projector and two reactors in one process) share each read.
    const head = await store.headPosition();
    const subscriptions = [store.subscribe(head), store.subscribe(head), store.subscribe(head)];
    const seenBy: string[][] = subscriptions.map(() => []);
    const seen = seenBy[0]!;
    const following = Promise.all(
      subscriptions.map(async (subscription, i) => {
        for await (const batch of subscription) seenBy[i]!.push(...batch.map((e) => e.id));
      }),
    );
    try {
      // The first read, and one more when the doorbell's LISTEN is up (what rang meanwhile).
      await settled(store, subscriptions.length);
      const settledReads = counted.reads;
      expect(settledReads).toBeLessThanOrEqual(2);
      // Caught up and idle: no read at all in the next 300 ms.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(counted.reads).toBe(settledReads);
      for (let i = 0; i < 5; i++) {
        await store.append(stream, [newEvent(i)], i === 0 ? 'no_stream' : i - 1);
        await until(() => seen.length === i + 1);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(seen).toHaveLength(5);
      // One read per append rung in this process (a server-side transaction, an autoanalyze,
      // may hold one back for a moment: a few re-reads then, never a poll every few ms).
      expect(counted.reads - settledReads).toBeGreaterThanOrEqual(5);
      expect(counted.reads - settledReads).toBeLessThanOrEqual(8);
      const afterLocal = counted.reads;
      // Another process's append arrives by NOTIFY, with its position: still one read.
      await other.append(stream, [newEvent(5)], 4);
      await until(() => seen.length === 6);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(seen).toHaveLength(6);
      expect(counted.reads - afterLocal).toBeGreaterThanOrEqual(1);
      expect(counted.reads - afterLocal).toBeLessThanOrEqual(3);
      await until(() => seenBy.every((ids) => ids.length === 6));
      for (const ids of seenBy) expect(ids).toEqual(seen);
    } finally {
      for (const subscription of subscriptions) await subscription.close();
      await following;
      await other.close();
      await close();
    }
  });
});
