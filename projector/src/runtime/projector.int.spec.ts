import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Position, type RecordedEvent, START } from '@bugtrail/eventstore';
import { CHANGES_CHANNEL, type ChangeNotice, decodeChangeNotice, silentLogger } from '@bugtrail/platform';
import { createTestDatabase } from '@bugtrail/testing';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { usersProjection } from '../users/users.projection.js';
import { countingProjection, openProjectorDatabase, userEvent, userNumber } from './counting-projection.fixture.js';
import type { Projection } from './projection.js';
import { Projector } from './projector.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

type Env = Awaited<ReturnType<typeof openProjectorDatabase>> & { url: string };

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function openEnv(): Promise<Env> {
  const database = await createTestDatabase();
  const env = await openProjectorDatabase(database.url);
  cleanups.push(async () => {
    await env.close();
    await database.drop();
  });
  return { ...env, url: database.url };
}

function newProjector(env: Env, projections: readonly Projection[], batchSize = 50): Projector {
  const projector = new Projector(env.store, env.pool, env.db, projections, { logger: silentLogger, batchSize });
  cleanups.push(() => projector.stop());
  return projector;
}

/** Appends `count` events over `streams` streams, one append each; answers the last position. */
async function appendUsers(env: Env, first: number, count: number, streams = 5): Promise<Position> {
  let last: Position = START;
  for (let i = first; i < first + count; i++) {
    const result = await env.store.append(`user-s${i % streams}`, [userEvent(i)], 'any');
    last = result.position;
  }
  return last;
}

/** Polls until `check` holds; the test's timeout bounds the wait. */
async function eventually(check: () => Promise<boolean> | boolean): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 25));
}

async function checkpointOf(env: Env, name = 'counting'): Promise<{ position: string; version: number } | undefined> {
  const { rows } = await env.pool.query('select position, version from projector.checkpoints where name = $1', [name]);
  return rows[0];
}

async function countedRows(env: Env, schema = 'rm') {
  const { rows } = await env.pool.query<{ event_id: string; position: string; handled_by_version: number }>(
    `select event_id, position, handled_by_version from ${schema}.counted order by position, event_id`,
  );
  return rows;
}

/**
 * Every event through `last` (an append's answer). Readers are held back while any
 * transaction in the cluster is open (other test files share it), so an empty page
 * does not mean the end: `last` does.
 */
async function allEvents(env: Env, last: Position, from: Position = START): Promise<RecordedEvent[]> {
  const out: RecordedEvent[] = [];
  let position = from;
  while (position < last) {
    const page = await env.store.readAll(position, 1000);
    if (page.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    out.push(...page);
    position = page.at(-1)?.position ?? position;
  }
  return out;
}

async function caughtUp(env: Env, last: Position, name = 'counting'): Promise<void> {
  await eventually(async () => ((await checkpointOf(env, name))?.position ?? START) >= last);
}

/** Every stored event is in the read model exactly once. */
async function expectExactlyOnce(env: Env, last: Position): Promise<void> {
  const events = await allEvents(env, last);
  const rows = await countedRows(env);
  expect(rows).toHaveLength(events.length);
  expect(new Set(rows.map((r) => r.event_id))).toEqual(new Set(events.map((e) => e.id)));
}

describe('projector runtime', () => {
  describe('a batch', () => {
    it('commits its read-model rows and checkpoint together, or neither (exactly-once effect)', async () => {
      const env = await openEnv();
      const batch = await allEvents(env, await appendUsers(env, 0, 10));
      expect(batch).toHaveLength(10);

      const failing = newProjector(env, [countingProjection({ failOnUser: 7 })]);
      await failing.prepare();
      await expect(failing.applyBatch(batch)).rejects.toThrow('projection failed mid-batch');
      // The rows it wrote before failing went with the transaction; the checkpoint did not move.
      expect(await countedRows(env)).toEqual([]);
      expect((await checkpointOf(env))?.position).toBe(START);

      const projector = newProjector(env, [countingProjection()]);
      await projector.applyBatch(batch);
      expect(await countedRows(env)).toHaveLength(10);
      expect((await checkpointOf(env))?.position).toBe(batch[9]!.position);

      // A batch delivered again (a new leader, a retry) changes nothing; an overlapping
      // one applies only what lies past the checkpoint.
      await projector.applyBatch(batch);
      expect(await countedRows(env)).toHaveLength(10);
      const overlapping = await allEvents(env, await appendUsers(env, 10, 5), batch[4]!.position);
      expect(overlapping).toHaveLength(10);
      await projector.applyBatch(overlapping);
      await expectExactlyOnce(env, overlapping[9]!.position);
      expect((await checkpointOf(env))?.position).toBe(overlapping[9]!.position);
    });

    it('moves only the checkpoints of its own projections', async () => {
      const env = await openEnv();
      const last = await appendUsers(env, 0, 3);
      await newProjector(env, [countingProjection({ name: 'elsewhere' })]).prepare();
      const projector = newProjector(env, [countingProjection()]);
      await projector.prepare();
      await projector.applyBatch(await allEvents(env, last));
      expect((await checkpointOf(env))?.position).toBe(last);
      expect((await checkpointOf(env, 'elsewhere'))?.position).toBe(START);
    });

    it('NOTIFYs after commit with its position and topics, and a failed batch announces nothing', async () => {
      const env = await openEnv();
      const listener = new pg.Client({ connectionString: env.url });
      await listener.connect();
      cleanups.push(() => listener.end());
      const received: { notice: ChangeNotice; bytes: number; checkpoint: Promise<string> }[] = [];
      listener.on('notification', (message) => {
        if (message.channel !== CHANGES_CHANNEL || !message.payload) return;
        const notice = decodeChangeNotice(message.payload);
        if (!notice) return;
        // Read the checkpoint from another connection the moment the notice arrives.
        const checkpoint = env.pool
          .query("select position from projector.checkpoints where name = 'counting'")
          .then((r) => r.rows[0].position as string);
        received.push({ notice, bytes: Buffer.byteLength(message.payload), checkpoint });
      });
      await listener.query(`listen ${CHANGES_CHANNEL}`);

      // Enough distinct streams that the topics do not fit in one NOTIFY payload.
      let last = START;
      for (let i = 0; i < 300; i++) {
        ({ position: last } = await env.store.append(`user-${'x'.repeat(30)}-${i}`, [userEvent(i)], 'any'));
      }
      const batch = await allEvents(env, last);
      const failing = newProjector(env, [countingProjection({ failOnUser: 1 })], 300);
      await failing.prepare();
      await expect(failing.applyBatch(batch)).rejects.toThrow();
      const projector = newProjector(env, [countingProjection()], 300);
      await projector.applyBatch(batch);
      const expectedTopics = new Set(batch.map((e) => `count:${e.streamId}`));
      await eventually(async () => {
        const topics = new Set(received.flatMap((r) => r.notice.topics));
        return topics.size >= expectedTopics.size;
      });

      expect(received.length).toBeGreaterThan(1);
      expect(new Set(received.flatMap((r) => r.notice.topics))).toEqual(expectedTopics);
      for (const r of received) {
        expect(r.notice.position).toBe(batch[299]!.position);
        expect(r.bytes).toBeLessThan(8000);
        // Delivered after the commit: the checkpoint is already visible to others.
        expect(await r.checkpoint).toBe(r.notice.position);
      }
    });
  });

  describe('leadership', () => {
    it('elects one leader per database; the standby takes over when the leader stops', async () => {
      const env = await openEnv();
      // Two instances with pools of their own, as two processes would have.
      const other = await openProjectorDatabase(env.url);
      cleanups.push(() => other.close());
      const a = newProjector(env, [countingProjection()]);
      const b = new Projector(other.store, other.pool, other.db, [countingProjection()], {
        logger: silentLogger,
        batchSize: 50,
      });
      cleanups.push(() => b.stop());
      await a.prepare();
      await b.prepare();
      a.start();
      await eventually(async () => (await a.status()).role === 'leader');
      b.start();
      await eventually(async () => (await b.status()).role === 'standby');

      const first = await appendUsers(env, 0, 120);
      await caughtUp(env, first);
      expect((await a.status()).role).toBe('leader');
      expect((await b.status()).role).toBe('standby');

      await a.stop();
      await eventually(async () => (await b.status()).role === 'leader');
      const second = await appendUsers(env, 120, 80);
      await caughtUp(env, second);
      expect((await a.status()).role).toBe('stopped');
      await expectExactlyOnce(env, second);
    });
  });

  it("takes the read models' statistics once it has caught up after a bulk of events", async () => {
    const env = await openEnv();
    let last: Position = START;
    // 10,000 events make a bulk (ANALYZE_AFTER_EVENTS): appended in pieces, as an import would.
    for (let n = 0; n < 10_200; n += 600) {
      const events = Array.from({ length: 600 }, (_, i) => userEvent(n + i));
      ({ position: last } = await env.store.append(`user-bulk-${n}`, events, 'any'));
    }
    // Batches of 600 divide the bulk: its last batch comes full, and still counts as caught up.
    const projector = newProjector(env, [countingProjection()], 600);
    await projector.prepare();
    projector.start();
    await eventually(async () => ((await checkpointOf(env))?.position ?? START) >= last);
    await eventually(async () => {
      const { rows } = await env.pool.query(
        "select last_analyze from pg_stat_user_tables where schemaname = 'rm' and relname = 'counted'",
      );
      return rows[0]?.last_analyze != null;
    });
  });

  describe('rebuild', () => {
    it('replays into fresh tables and swaps them in while the live projector runs; the result equals the live tables', async () => {
      const env = await openEnv();
      const projections = [countingProjection(), usersProjection];
      const projector = newProjector(env, projections);
      await projector.prepare();
      projector.start();
      const before = await appendUsers(env, 0, 300);
      // A rebuild replays up to the live checkpoint; let that hold the first 300.
      await eventually(async () => ((await checkpointOf(env))?.position ?? START) >= before);

      // Appends keep coming while the rebuild runs, and the live projector keeps following.
      let writing = true;
      const writer = (async () => {
        let n = 1000;
        let last = before;
        while (writing) last = await appendUsers(env, n++, 1);
        return { count: n - 1000, last };
      })();
      const rebuilt = await projector.rebuild('counting');
      const rebuiltUsers = await projector.rebuild('users');
      writing = false;
      const written = await writer;
      expect(rebuilt.events).toBeGreaterThanOrEqual(300);
      expect(rebuiltUsers.events).toBeGreaterThanOrEqual(300);
      expect(written.count).toBeGreaterThan(0);

      await caughtUp(env, written.last);
      await caughtUp(env, written.last, 'users');
      expect((await checkpointOf(env, 'users'))?.position).toEqual((await checkpointOf(env))?.position);
      await expectExactlyOnce(env, written.last);
      const { rows: schemas } = await env.pool.query("select nspname from pg_namespace where nspname like 'rebuild_%'");
      expect(schemas).toEqual([]);

      // Quiet now: a rebuild from scratch must give exactly the live tables.
      const liveCounted = await countedRows(env);
      const liveUsers = (await env.pool.query('select * from rm.users order by id')).rows;
      expect(liveUsers.length).toBeGreaterThan(0);
      await projector.rebuild('counting');
      await projector.rebuild('users');
      expect(await countedRows(env)).toEqual(liveCounted);
      expect((await env.pool.query('select * from rm.users order by id')).rows).toEqual(liveUsers);
    });

    it('prepare() rebuilds a projection whose version changed', async () => {
      const env = await openEnv();
      const v1 = newProjector(env, [countingProjection({ version: 1 })]);
      await v1.prepare();
      v1.start();
      const last = await appendUsers(env, 0, 120);
      await caughtUp(env, last);
      await v1.stop();
      expect(new Set((await countedRows(env)).map((r) => r.handled_by_version))).toEqual(new Set([1]));

      const v2 = newProjector(env, [countingProjection({ version: 2 })]);
      await v2.prepare();
      const rows = await countedRows(env);
      expect(rows).toHaveLength(120);
      expect(new Set(rows.map((r) => r.handled_by_version))).toEqual(new Set([2]));
      expect(await checkpointOf(env)).toEqual({ position: last, version: 2 });
      await expectExactlyOnce(env, last);
    });
  });

  describe('a projector killed with SIGKILL in the middle of a batch', () => {
    it('resumes with nothing lost and nothing applied twice', async () => {
      const env = await openEnv();
      const batchSize = 100;
      const lockKey = 7_319_001;
      const last = await appendUsers(env, 0, 1000, 20);
      const events = await allEvents(env, last);

      // The child writes batch 3's rows, then waits for this lock inside the transaction.
      const holder = new pg.Client({ connectionString: env.url });
      await holder.connect();
      cleanups.push(() => holder.end());
      await holder.query('select pg_advisory_lock($1)', [lockKey]);

      const child = spawnChild({
        DATABASE_URL: env.url,
        BLOCK_ON_BATCH: '3',
        BLOCK_LOCK_KEY: String(lockKey),
        BATCH_SIZE: String(batchSize),
      });
      await child.line('blocked');
      await eventually(async () => {
        const { rows } = await holder.query(
          "select count(*)::int as n from pg_locks where locktype = 'advisory' and objid = $1 and not granted",
          [lockKey],
        );
        return rows[0].n === 1;
      });
      // Batch 3 is written but not committed: this is the middle of a batch.
      expect(await child.kill()).toBe('SIGKILL');

      // What survived is exactly the two committed batches, with their checkpoint.
      expect((await checkpointOf(env))?.position).toBe(events[2 * batchSize - 1]!.position);
      expect((await countedRows(env)).map((r) => r.event_id)).toEqual(events.slice(0, 2 * batchSize).map((e) => e.id));

      // The killed process's transaction is still waiting on the server: let it run
      // into its dead socket and roll back.
      await holder.query('select pg_advisory_unlock($1)', [lockKey]);

      const successor = newProjector(env, [countingProjection()], batchSize);
      await successor.prepare();
      successor.start();
      await caughtUp(env, last);
      await expectExactlyOnce(env, last);
      expect((await countedRows(env)).map((r) => userNumber(events.find((e) => e.id === r.event_id)!.data))).toEqual(
        events.map((e) => userNumber(e.data)),
      );
    });
  });
});

/** The projector child process (see projector-child.fixture.ts), with its output as lines. */
function spawnChild(env: Record<string, string>) {
  const child: ChildProcess = spawn(
    process.execPath,
    [
      path.join(repoRoot, 'testing', 'src', 'run-ts.mjs'),
      path.join(repoRoot, 'projector/src/runtime/projector-child.fixture.ts'),
    ],
    { cwd: repoRoot, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
    child.once('exit', (code, signal) => resolve(signal ?? code)),
  );
  cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  });
  let output = '';
  let stderr = '';
  const waiters: { text: string; resolve(): void }[] = [];
  child.stdout!.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    for (const w of [...waiters]) if (output.split('\n').includes(w.text)) w.resolve();
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return {
    line(text: string): Promise<void> {
      return new Promise((resolve, reject) => {
        if (output.split('\n').includes(text)) return resolve();
        waiters.push({ text, resolve });
        void exited.then((how) => reject(new Error(`child exited (${String(how)}) before "${text}": ${stderr}`)));
      });
    },
    async kill() {
      child.kill('SIGKILL');
      return exited;
    },
  };
}
