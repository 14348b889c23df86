import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PostgresEventStore, START } from '@bugtrail/eventstore';
import { loadConfig, silentLogger } from '@bugtrail/platform';
import { adminUrl, createThrowawayDatabase, eventually, type ThrowawayDatabase } from '@bugtrail/testing';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { event, reportBug, userRegistered } from './demo/bug-events.js';
import { createSystem } from './system.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const REPORTS = 400;

/**
 * Issue 38: a rule runs exactly once per triggering event across processes. Real projector
 * processes (the automation reactor runs beside the projector) over a real PostgreSQL, killed
 * with SIGKILL while the reactor is in the middle of a batch (its checkpoint is saved after each
 * batch of up to 200 events: the first 150 runs are all in the first), and two of them competing
 * for the lead. Afterwards every report has exactly one run and one rule-made change.
 */
describe('automation rules across processes', () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
  });

  /** A store with an admin's rule ("every report → priority High") and REPORTS reports after it. */
  async function backlog(): Promise<{ db: ThrowawayDatabase; pool: pg.Pool; bugIds: string[] }> {
    const db = await createThrowawayDatabase(adminUrl());
    cleanups.push(() => db.drop());
    const system = await createSystem({
      config: { ...loadConfig({}), logLevel: 'silent' },
      databaseUrl: db.url,
      logger: silentLogger,
      parts: [],
    });
    const adminId = randomUUID();
    const at = () => new Date().toISOString();
    const bugIds: string[] = [];
    try {
      await system.store.append(
        `user-${adminId}`,
        [userRegistered({ id: adminId, name: 'Ada Admin', email: 'ada@example.com', role: 'admin' }, { at: at() })],
        'no_stream',
      );
      const automationId = randomUUID();
      await system.store.append(
        `automation-${automationId}`,
        [
          event(
            'AutomationCreated',
            {
              automationId,
              name: 'Raise',
              projectId: null,
              enabled: true,
              when: { event: 'bug.reported', conditions: [] },
              actions: [{ type: 'set_field', field: 'priority', value: 'High' }],
            },
            { actorId: adminId, at: at() },
          ),
        ],
        'no_stream',
      );
      for (let i = 0; i < REPORTS; i++) {
        const bugId = randomUUID();
        bugIds.push(bugId);
        await system.store.append(
          `bug-${bugId}`,
          reportBug(
            {
              bugId,
              reporterId: adminId,
              title: `Report number ${i}`,
              description: 'A report for the rule to raise.',
              priority: 'Low',
              assigneeIds: [],
            },
            { at: at() },
          ),
          'no_stream',
        );
      }
    } finally {
      await system.close();
    }
    const pool = new pg.Pool({ connectionString: db.url, max: 2 });
    cleanups.push(() => pool.end());
    return { db, pool, bugIds };
  }

  const count = async (pool: pg.Pool, type: string) =>
    Number((await pool.query('select count(*)::int as n from eventstore.events where type = $1', [type])).rows[0].n);

  /** Every report raised once by the rule, and run once: nothing lost, nothing doubled. */
  async function expectExactlyOnce(pool: pg.Pool, bugIds: string[]) {
    await eventually(async () => ((await count(pool, 'AutomationRan')) >= REPORTS ? true : null), 600);
    const { rows: runs } = await pool.query<{ trigger: string; n: number }>(
      `select data->>'triggerEventId' as trigger, count(*)::int as n from eventstore.events
       where type = 'AutomationRan' group by 1`,
    );
    expect(runs).toHaveLength(REPORTS);
    expect(runs.every((r) => r.n === 1)).toBe(true);
    const { rows: changes } = await pool.query<{ bug: string; n: number }>(
      `select data->>'bugId' as bug, count(*)::int as n from eventstore.events
       where type = 'BugDetailsEdited' and metadata ? 'rule' group by 1`,
    );
    expect(changes.map((c) => c.bug).sort()).toEqual([...bugIds].sort());
    expect(changes.every((c) => c.n === 1)).toBe(true);
  }

  /** Kills the process once the reactor is inside its first batch: some runs recorded, far from all. */
  async function killMidBatch(pool: pg.Pool, child: Child, { alone }: { alone: boolean }) {
    await eventually(async () => {
      const runs = await count(pool, 'AutomationRan');
      return runs >= 5 && runs < 150 ? true : runs >= 150 ? 'late' : null;
    }, 600).then((state) => expect(state).toBe(true));
    expect(await child.kill()).toBe('SIGKILL');
    // With another process still appending, the log reads only up to its open transactions.
    if (!alone) return;
    const { rows } = await pool.query(`select position from projector.reactors where name = 'automations'`);
    // Killed mid-batch: the checkpoint is behind runs the dead process recorded (they are redone).
    const store = new PostgresEventStore(pool);
    let lastRun = START;
    for (let from = START; ; ) {
      const page = await store.readAll(from, 1000);
      if (page.length === 0) break;
      for (const e of page) if (e.type === 'AutomationRan') lastRun = e.position;
      from = page.at(-1)!.position;
    }
    expect((rows[0]?.position ?? START) < lastRun).toBe(true);
  }

  it('runs each trigger once when the reactor’s process is killed mid-batch and started again', async () => {
    const { db, pool, bugIds } = await backlog();
    const first = spawnChild(db.url, cleanups);
    await first.line('started');
    await killMidBatch(pool, first, { alone: true });
    const second = spawnChild(db.url, cleanups);
    await second.line('started');
    await expectExactlyOnce(pool, bugIds);
  });

  it('runs each trigger once when two processes compete for the lead and the leader dies', async () => {
    const { db, pool, bugIds } = await backlog();
    const a = spawnChild(db.url, cleanups);
    const b = spawnChild(db.url, cleanups);
    await Promise.all([a.line('started'), b.line('started')]);
    // Whichever leads, one of the two dies mid-batch; the other goes on (taking the lead if it was A's).
    await killMidBatch(pool, a, { alone: false });
    await expectExactlyOnce(pool, bugIds);
  });
});

type Child = { line(text: string): Promise<void>; kill(): Promise<NodeJS.Signals | number | null> };

function spawnChild(url: string, cleanups: (() => Promise<unknown>)[]): Child {
  const child: ChildProcess = spawn(
    process.execPath,
    [path.join(repoRoot, 'testing', 'src', 'run-ts.mjs'), path.join(repoRoot, 'cli/src/automation-child.fixture.ts')],
    { cwd: repoRoot, env: { ...process.env, DATABASE_URL: url }, stdio: ['ignore', 'pipe', 'pipe'] },
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
  child.stdout!.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return {
    async line(text: string) {
      const dead = exited.then((how) => {
        throw new Error(`child exited (${String(how)}) before "${text}": ${stderr}`);
      });
      await Promise.race([eventually(async () => (output.split('\n').includes(text) ? true : null), 600), dead]);
    },
    async kill() {
      child.kill('SIGKILL');
      return exited;
    },
  };
}
