import { type BugStatus, severities } from '@bugtrail/domain';
import { type NewEvent, type Position, PostgresEventStore, START } from '@bugtrail/eventstore';
import { createPool, loadConfig, readModelPosition, silentLogger } from '@bugtrail/platform';
import { event, reportBug, statusChanged } from '../demo/bug-events.js';
import { createSystem, migrateAll } from '../system.js';
import { readEverything } from './audit.js';
import { benchCall, registerBenchUser, startServerProcess } from './server-process.js';
import { percentile, round, runConcurrent } from './stats.js';
import { type BenchContext, type BenchRow, type BenchSuite, rebuildRow } from './types.js';

/**
 * The analysts' reads (issue 13) at 100k bugs with 1M events (quick: 10k with 100k):
 * GET /api/metrics p95 (plain, grouped, as of a past moment), a dashboard as of a past
 * moment, over HTTP on one connection with /health as the baseline; and a rebuild of the
 * flow projection (the status stays) against a plain read of the same events.
 */

const WALK: BugStatus[] = ['Open', 'In Progress', 'Closed'];
const DAY = 86_400_000;
const EPOCH = Date.UTC(2026, 0, 1);

/** Report, assignment, a step, then status moves and an edit: 10 events, spread over 20 weeks. */
function bugStory(i: number, bugId: string, reporterId: string, developers: string[]): NewEvent[] {
  let at = EPOCH + ((i * 7919) % (140 * DAY));
  const iso = () => new Date(at).toISOString();
  const events = reportBug(
    {
      bugId,
      reporterId,
      // Numbered as write-api numbers every report: unnumbered ones would be numbered at the
      // server's start, 100k commands before it answers.
      number: i + 1,
      title: `Analytics bench bug ${i}`,
      description: 'Steps: open the page, click the button, see the error in the console.',
      severity: severities[i % 3]!,
      module: ['billing', 'search', 'auth', null][i % 4]!,
      assigneeIds: [developers[i % developers.length]!],
      checklist: ['Reproduce it'],
    },
    { at: iso() },
  );
  const moves = 6;
  for (let m = 0; m < moves; m++) {
    at += 1 + ((i * 31 + m * 977) % (3 * DAY));
    events.push(statusChanged(bugId, WALK[m % 3]!, WALK[(m + 1) % 3]!, { actorId: reporterId, at: iso() }));
  }
  at += 3_600_000;
  events.push(
    event(
      'BugDetailsEdited',
      { bugId, changes: { severity: severities[(i + 1) % 3]! } },
      { actorId: reporterId, at: iso() },
    ),
  );
  return events;
}

export function analyticsSuite(root: string): BenchSuite {
  return {
    name: 'analytics',
    async run(ctx: BenchContext): Promise<BenchRow[]> {
      const rows: BenchRow[] = [];
      const bugs = Number(process.env.BENCH_ANALYTICS_BUGS ?? (ctx.quick ? 10_000 : 100_000));
      const label =
        bugs >= 100_000 ? `${bugs / 1000}k bugs, ${(bugs * 10) / 1_000_000}M events` : `${bugs / 1000}k bugs`;
      const database = await ctx.createDatabase();
      const pool = createPool(database.url, { max: 20 });
      try {
        await migrateAll(pool);
        const store = new PostgresEventStore(pool);
        const reporter = crypto.randomUUID();
        const developers = Array.from({ length: 20 }, () => crypto.randomUUID());
        let last: Position = START;
        const started = performance.now();
        await runConcurrent(bugs, 16, async (i) => {
          const bugId = crypto.randomUUID();
          const result = await store.append(`bug-${bugId}`, bugStory(i, bugId, reporter, developers), 'no_stream');
          if (result.position > last) last = result.position;
          if (i > 0 && i % 20_000 === 0)
            ctx.log(`appended ${i * 10} events (${round((i * 10 * 1000) / (performance.now() - started), 0)}/s)`);
        });
        const server = await startServerProcess(root, database.url);
        try {
          const caughtUp = performance.now();
          while ((await readModelPosition(pool)) < last) {
            await new Promise((r) => setTimeout(r, 500));
            if (performance.now() - caughtUp > 30 * 60_000) throw new Error('projector did not catch up in 30 minutes');
          }
          ctx.log(`projector caught up in ${round((performance.now() - caughtUp) / 1000, 1)} s`);
          const admin = await registerBenchUser(server.url, 'admin', 0);
          // Each answer scans every stay: few samples, or the suite runs for half an hour at 1M events.
          const n = 20;
          const measure = async (path: string) => {
            await runConcurrent(3, 1, () => benchCall(`${server.url}${path}`, { token: admin.token }).then(() => {}));
            const run = await runConcurrent(n, 1, () =>
              benchCall(`${server.url}${path}`, { token: admin.token }).then(() => {}),
            );
            return { p95: percentile(run.latencies, 95), p50: percentile(run.latencies, 50) };
          };
          const health = await runConcurrent(n * 4, 1, () => benchCall(`${server.url}/health`).then(() => {}));
          const healthP95 = percentile(health.latencies, 95);
          const past = new Date(EPOCH + 70 * DAY).toISOString();
          const cases: [string, string][] = [
            [`GET /api/metrics, ${label}`, '/api/metrics'],
            [`GET /api/metrics?groupBy=severity, ${label}`, '/api/metrics?groupBy=severity'],
            [
              `GET /api/metrics?asOf= (10 weeks in) &groupBy=assignee, ${label}`,
              `/api/metrics?groupBy=assignee&asOf=${past}`,
            ],
            [`GET /api/metrics/flow (cumulative flow, all time), ${label}`, '/api/metrics/flow'],
            [`GET /api/bugs/admin-dashboard?asOf= (10 weeks in), ${label}`, `/api/bugs/admin-dashboard?asOf=${past}`],
          ];
          for (const [name, path] of cases) {
            const { p95, p50 } = await measure(path);
            ctx.log(`${name}: p95 ${round(p95, 1)} ms`);
            rows.push({
              suite: 'analytics',
              name,
              value: round(p95, 1),
              unit: 'ms p95',
              baseline: { name: 'GET /health p95, 1 connection', value: round(healthP95, 2), unit: 'ms' },
              ratio: round(p95 / healthP95, 0),
              note: `p50 ${round(p50, 1)} ms, 1 connection`,
            });
          }
        } finally {
          await server.stop();
        }

        // Rebuild the status stays (the flow projection) from every event.
        const readStarted = performance.now();
        const read = await readEverything(store);
        const readRate = (read / (performance.now() - readStarted)) * 1000;
        const system = await createSystem({
          config: { ...loadConfig({}), logLevel: 'silent' },
          databaseUrl: database.url,
          logger: silentLogger,
          parts: [],
          poolSize: 4,
        });
        try {
          const rebuilt = await system.projector.rebuild('flow');
          const row = rebuildRow(
            'analytics',
            `rebuild the flow projection (status stays), ${rebuilt.events.toLocaleString('en-US')} events`,
            rebuilt,
            readRate,
            `${round(rebuilt.ms / 1000, 1)} s, swap and analytics views included`,
          );
          ctx.log(`rebuild flow: ${row.value} events/s`);
          rows.push(row);
        } finally {
          await system.close();
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
