import type { BugStatus } from '@bugtrail/domain';
import {
  type EventStore,
  type NewEvent,
  type Position,
  PostgresEventStore,
  START,
  verifyStore,
} from '@bugtrail/eventstore';
import { createPool } from '@bugtrail/platform';
import { reportBug, statusChanged } from '../demo/bug-events.js';
import { migrateAll } from '../system.js';
import { benchCall, registerBenchUser, startServerProcess } from './server-process.js';
import { percentile, round, runConcurrent } from './stats.js';
import type { BenchContext, BenchRow, BenchSuite } from './types.js';

/**
 * The auditors' reads (issue 12): one bug's history of 1,000 events over HTTP (p95, one
 * connection, /health the baseline) and `verify` over the whole store at 100k and 1M
 * events (events/s, a plain read of the same events the baseline: the gap is the hashing).
 */

/** Status moves that make a legal walk: Open → In Progress → Closed → Open → … */
const WALK: BugStatus[] = ['Open', 'In Progress', 'Closed'];

/** A bug's report followed by `moves` status changes, as write-api would have appended them. */
function bugStory(bugId: string, reporterId: string, developerId: string, moves: number, start: number): NewEvent[] {
  const at = (n: number) => new Date(start + n * 1000).toISOString();
  const events = reportBug(
    {
      bugId,
      reporterId,
      title: `Audit bench bug ${bugId.slice(0, 8)}`,
      description: 'Steps: open the page, click the button, see the error in the console.',
      priority: 'High',
      severity: 'Major',
      module: 'billing',
      assigneeIds: [developerId],
      checklist: ['Reproduce it'],
    },
    { at: at(0) },
  );
  for (let i = 0; i < moves; i++) {
    events.push(statusChanged(bugId, WALK[i % 3]!, WALK[(i + 1) % 3]!, { actorId: developerId, at: at(i + 1) }));
  }
  return events;
}

/** Appends bugs of ~10 events each until the store holds `target` events; answers the count. */
async function fillStore(store: PostgresEventStore, have: number, target: number, log: (m: string) => void) {
  const reporter = crypto.randomUUID();
  const developer = crypto.randomUUID();
  const moves = 7; // report + assignment + step + 7 moves = 10 events
  const perBug = 10;
  const bugs = Math.ceil((target - have) / perBug);
  const started = performance.now();
  await runConcurrent(bugs, 16, async (i) => {
    const bugId = crypto.randomUUID();
    await store.append(`bug-${bugId}`, bugStory(bugId, reporter, developer, moves, Date.UTC(2025, 0, 1)), 'no_stream');
    if (i > 0 && i % 20_000 === 0) {
      log(
        `appended ${(have + i * perBug).toLocaleString('en-US')} events (${round(((i * perBug) / (performance.now() - started)) * 1000, 0)}/s)`,
      );
    }
  });
  return have + bugs * perBug;
}

/** One pass of readAll over the whole store: what verify (or a rebuild) costs without its own work. */
export async function readEverything(store: Pick<EventStore, 'readAll'>): Promise<number> {
  let from: Position = START;
  let events = 0;
  for (;;) {
    const page = await store.readAll(from, 2000);
    if (page.length === 0) return events;
    events += page.length;
    from = page[page.length - 1]!.position;
  }
}

async function verifyRows(store: PostgresEventStore, label: string, log: (m: string) => void): Promise<BenchRow> {
  const readStarted = performance.now();
  const read = await readEverything(store);
  const readRate = (read / (performance.now() - readStarted)) * 1000;
  const started = performance.now();
  const result = await verifyStore(store);
  const seconds = (performance.now() - started) / 1000;
  if (!result.ok) throw new Error(`verify found breaks in a clean store: ${JSON.stringify(result.broken.slice(0, 3))}`);
  const rate = result.events / seconds;
  log(`verify ${label}: ${result.events} events in ${round(seconds, 1)} s`);
  return {
    suite: 'audit',
    name: `verify the whole store, ${label} events`,
    value: round(rate, 0),
    unit: 'events/s',
    baseline: { name: 'readAll of the same events', value: round(readRate, 0), unit: 'events/s' },
    ratio: round(rate / readRate, 2),
    note: `${result.events.toLocaleString('en-US')} events, ${result.streams.toLocaleString('en-US')} streams in ${round(seconds, 1)} s`,
  };
}

export function auditSuite(root: string): BenchSuite {
  return {
    name: 'audit',
    async run(ctx: BenchContext): Promise<BenchRow[]> {
      const rows: BenchRow[] = [];

      // One bug with 1,000 events, read whole over HTTP by an admin.
      {
        const database = await ctx.createDatabase();
        const server = await startServerProcess(root, database.url);
        const pool = createPool(database.url, { max: 4 });
        try {
          const admin = await registerBenchUser(server.url, 'admin', 0);
          const bugId = crypto.randomUUID();
          const story = bugStory(bugId, admin.id, admin.id, 997, Date.UTC(2025, 0, 1));
          await new PostgresEventStore(pool).append(`bug-${bugId}`, story, 'no_stream');
          const history = `${server.url}/api/bugs/${bugId}/history`;
          // The bug is readable once the projector has it (history checks who may view it).
          for (let tries = 0; ; tries++) {
            try {
              const answer = await benchCall(history, { token: admin.token });
              if (answer.events.length !== 1000) throw new Error(`history has ${answer.events.length} events`);
              break;
            } catch (error) {
              if (tries > 200) throw error;
              await new Promise((r) => setTimeout(r, 100));
            }
          }
          const n = ctx.quick ? 100 : 400;
          await runConcurrent(20, 1, () => benchCall(history, { token: admin.token }).then(() => {}));
          const health = await runConcurrent(n, 1, () => benchCall(`${server.url}/health`).then(() => {}));
          const run = await runConcurrent(n, 1, () => benchCall(history, { token: admin.token }).then(() => {}));
          const asOf = `${history}?at=${encodeURIComponent(new Date(Date.UTC(2025, 0, 1) + 500_000).toISOString())}`;
          const at = await runConcurrent(n, 1, () => benchCall(asOf, { token: admin.token }).then(() => {}));
          const p95 = percentile(run.latencies, 95);
          const healthP95 = percentile(health.latencies, 95);
          rows.push({
            suite: 'audit',
            name: 'GET /api/bugs/{id}/history, 1,000 events, 1 connection',
            value: round(p95, 2),
            unit: 'ms p95',
            baseline: { name: 'GET /health p95, 1 connection', value: round(healthP95, 2), unit: 'ms' },
            ratio: round(p95 / healthP95, 1),
            note: `p50 ${round(percentile(run.latencies, 50), 2)} ms; ?at= (as of the 500th) p95 ${round(percentile(at.latencies, 95), 2)} ms`,
          });
        } finally {
          await server.stop();
          await pool.end();
          await database.drop();
        }
      }

      // verify over the whole store, at 100k events and (full runs) at 1M.
      const database = await ctx.createDatabase();
      const pool = createPool(database.url, { max: 20 });
      try {
        await migrateAll(pool);
        const store = new PostgresEventStore(pool);
        let events = await fillStore(store, 0, 100_000, ctx.log);
        rows.push(await verifyRows(store, '100k', ctx.log));
        if (!ctx.quick) {
          events = await fillStore(store, events, 1_000_000, ctx.log);
          rows.push(await verifyRows(store, '1M', ctx.log));
        }
        await store.close();
      } finally {
        await pool.end();
        await database.drop();
      }
      return rows;
    },
  };
}
