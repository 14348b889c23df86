import { readFile } from 'node:fs/promises';
import { type Position, PostgresEventStore } from '@bugtrail/eventstore';
import { createPool, loadConfig, readModelPosition, silentLogger } from '@bugtrail/platform';
import { xlsxResponse } from '@bugtrail/read-api';
import { reportBug, statusChanged } from '../demo/bug-events.js';
import { createSystem } from '../system.js';
import { readEverything } from './audit.js';
import { type BenchUser, benchCall, registerBenchUser, startServerProcess } from './server-process.js';
import { percentile, round, runConcurrent } from './stats.js';
import { type BenchContext, type BenchRow, type BenchSuite, type BenchTeam, rebuildRow } from './types.js';

/**
 * The read side at size: list 25 of N bugs at 32 connections (p99), a dashboard at
 * 1k bugs and at N bugs (p95: the counters make both cost the same), and a full
 * rebuild of the bugs projection (events/s). Bugs are appended straight to the event
 * store as write-api would append them (a report per append, some with a status
 * change), so loading 100k bugs takes seconds, not an hour of HTTP.
 */

const SEVERITIES = ['Minor', 'Major', 'Critical'] as const;
const PRIORITIES = ['Low', 'Medium', 'High'] as const;
const STATUSES = ['Open', 'In Progress', 'Closed'] as const;

type User = BenchUser;

/**
 * The export's floor: the product's own xlsx code (`xlsxResponse`, exceljs' streaming writer)
 * fed `count` rows of the export's shape from memory, in this process: no database, no HTTP.
 * Its time and how far this process's RSS rose on the way.
 */
async function exportFromMemory(count: number): Promise<{ seconds: number; rssRiseMb: number }> {
  async function* pages() {
    for (let start = 0; start < count; start += 1000) {
      const page: Record<string, unknown>[] = [];
      for (let i = start; i < Math.min(count, start + 1000); i++) {
        page.push({
          id: crypto.randomUUID(),
          title: `Bench bug number ${i}`,
          description: 'Steps: open the page, click the button, see the error.',
          priority: PRIORITIES[i % 3],
          severity: SEVERITIES[i % 3],
          status: STATUSES[i % 3],
          created: new Date(1_700_000_000_000 + i * 1000).toISOString(),
          due: '',
          assignees: 'Bench developer 1',
          number: i + 1,
        });
      }
      yield page;
    }
  }
  const columns = [
    'id',
    'title',
    'description',
    'priority',
    'severity',
    'status',
    'created',
    'due',
    'assignees',
    'number',
  ];
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 100);
  const started = performance.now();
  const response = xlsxResponse(
    'floor.xlsx',
    { name: 'Bugs', columns: columns.map((key) => ({ header: key, key })) },
    pages(),
    silentLogger,
  );
  for await (const _chunk of response.body as unknown as AsyncIterable<Uint8Array>);
  clearInterval(sampler);
  return { seconds: (performance.now() - started) / 1000, rssRiseMb: (peak - before) / 1024 / 1024 };
}

async function registerTeam(base: string, testers: number, developers: number): Promise<BenchTeam> {
  const admin = await registerBenchUser(base, 'admin', 0);
  const t: User[] = [];
  const d: User[] = [];
  for (let i = 0; i < testers; i++) t.push(await registerBenchUser(base, 'tester', i));
  for (let i = 0; i < developers; i++) d.push(await registerBenchUser(base, 'developer', i));
  return { admin, testers: t, developers: d };
}

/**
 * Projects the bench's bugs are spread over (issue 35): 20, the last private with only some
 * testers in it; one a team project (access "team") with developer 1 in it.
 */
export const BENCH_PROJECTS = 20;
const TEAM_PROJECT = 3;
const benchProjectKey = (i: number) => `P${String(i).padStart(2, '0')}`;

/** The bench's projects, made through the API as an admin would (the last one private, two testers in it). */
async function createBenchProjects(base: string, team: BenchTeam): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < BENCH_PROJECTS; i++) {
    const isPrivate = i === BENCH_PROJECTS - 1;
    const made = await benchCall(`${base}/api/projects`, {
      body: {
        key: benchProjectKey(i),
        name: `Bench project ${i}`,
        private: isPrivate,
        ...(i === TEAM_PROJECT ? { access: 'team' } : {}),
      },
      token: team.admin.token,
    });
    ids.push(made._id);
    if (i === TEAM_PROJECT && team.developers[1]) {
      await benchCall(`${base}/api/projects/${made._id}/members/${team.developers[1].id}`, {
        method: 'PUT',
        body: { role: 'member' },
        token: team.admin.token,
      });
    }
    if (isPrivate) {
      for (const tester of team.testers.slice(1, 3)) {
        await benchCall(`${base}/api/projects/${made._id}/members/${tester.id}`, {
          method: 'PUT',
          body: { role: 'member' },
          token: team.admin.token,
        });
      }
    }
  }
  return ids;
}

/**
 * Appends `count` bug reports (≈ 3.6 events each) at 16 appends in flight; answers the last
 * position. With `projects`, bug i goes to project i mod their number, numbered there in order.
 */
async function loadBugs(
  store: PostgresEventStore,
  team: BenchTeam,
  count: number,
  log: (m: string) => void,
  projects: readonly string[] = [],
): Promise<{ events: number; last: Position }> {
  let events = 0;
  let last: Position = '';
  const base = Date.UTC(2024, 0, 1);
  const started = performance.now();
  await runConcurrent(count, 16, async (i) => {
    const bugId = crypto.randomUUID();
    const project = projects.length > 0 ? projects[i % projects.length]! : null;
    // A private project's bugs come from its members (testers 1 and 2), as the API allows.
    const reporter =
      project !== null && project === projects[projects.length - 1]
        ? team.testers[1 + (i % 2)]!
        : team.testers[i % team.testers.length]!;
    const developer = team.developers[(i * 7) % team.developers.length]!;
    const at = new Date(base + i * 1000).toISOString();
    const batch = reportBug(
      {
        bugId,
        reporterId: reporter.id,
        title: `Bench bug ${i} ${i % 10 === 0 ? 'crash' : 'glitch'} in module ${i % 40}`,
        description: 'Steps: open the page, click the button, see the error in the console.',
        priority: PRIORITIES[i % 3]!,
        severity: SEVERITIES[(i >> 1) % 3]!,
        module: `module-${i % 40}`,
        assigneeIds: [developer.id],
        checklist: ['Reproduce it'],
        ...(project !== null ? { project: { id: project, number: Math.floor(i / projects.length) + 1 } } : {}),
      },
      { at },
    );
    const status = STATUSES[i % 3]!;
    if (status !== 'Open') batch.push(statusChanged(bugId, 'Open', status, { actorId: developer.id, at }));
    const result = await store.append(`bug-${bugId}`, batch, 'no_stream');
    events += batch.length;
    if (result.position > last) last = result.position;
    if (i > 0 && i % 20_000 === 0) log(`loaded ${i} bugs (${round((i / (performance.now() - started)) * 1000, 0)}/s)`);
  });
  return { events, last };
}

async function waitForProjector(pool: import('pg').Pool, position: Position, log: (m: string) => void) {
  const started = performance.now();
  for (;;) {
    const at = await readModelPosition(pool);
    if (at >= position) return (performance.now() - started) / 1000;
    await new Promise((r) => setTimeout(r, 250));
    if (performance.now() - started > 30 * 60_000) throw new Error('projector did not catch up in 30 minutes');
    void log;
  }
}

/**
 * Fills an empty database with a team and `bugs` bugs through the launcher (`--store`),
 * and waits until every read model has them.
 */
export async function fillStore(
  root: string,
  url: string,
  bugs: number,
  log: (m: string) => void,
): Promise<{ events: number; team: BenchTeam; catchUpSeconds: number }> {
  const server = await startServerProcess(root, url);
  const pool = createPool(url, { max: 20 });
  try {
    const team = await registerTeam(server.url, 20, 50);
    const projects = await createBenchProjects(server.url, team);
    const started = performance.now();
    const { events, last } = await loadBugs(new PostgresEventStore(pool), team, bugs, log, projects);
    const loadSeconds = (performance.now() - started) / 1000;
    const catchUpSeconds = await waitForProjector(pool, last, log);
    const { rows } = await pool.query<{ n: string }>('select count(*) as n from eventstore.events');
    log(
      `store: ${bugs} bugs, ${events} events appended in ${round(loadSeconds)} s; read models ${round(catchUpSeconds)} s later`,
    );
    return { events: Number(rows[0]!.n), team, catchUpSeconds };
  } finally {
    await server.stop();
    await pool.end();
  }
}

async function dashboardP95(base: string, token: string, n: number) {
  const run = await runConcurrent(n, 8, () => benchCall(`${base}/api/bugs/admin-dashboard`, { token }).then(() => {}));
  return { p95: percentile(run.latencies, 95), p50: percentile(run.latencies, 50) };
}

export function bugsReadSuite(root: string): BenchSuite {
  return {
    name: 'bugs-read',
    async run(ctx: BenchContext): Promise<BenchRow[]> {
      const rows: BenchRow[] = [];
      const large = Number(process.env.BENCH_BUGS ?? (ctx.quick ? 10_000 : 100_000));
      const small = 1000;
      const requests = ctx.quick ? 1000 : 5000;

      // 1k bugs: the dashboard baseline.
      const smallDb = await ctx.createDatabase();
      let smallDashboard: { p95: number; p50: number };
      {
        const server = await startServerProcess(root, smallDb.url);
        const pool = createPool(smallDb.url, { max: 20 });
        try {
          const team = await registerTeam(server.url, 5, 10);
          const { last } = await loadBugs(new PostgresEventStore(pool), team, small, ctx.log);
          await waitForProjector(pool, last, ctx.log);
          await dashboardP95(server.url, team.admin.token, 200); // warm-up
          smallDashboard = await dashboardP95(server.url, team.admin.token, requests);
        } finally {
          await server.stop();
          await pool.end();
          await smallDb.drop();
        }
      }

      // The run's preloaded store when there is one (`--store N`), else `large` bugs loaded here.
      const preloaded = ctx.store !== null && process.env.BENCH_BUGS === undefined;
      const bigDb = await ctx.createDatabase({ filled: preloaded });
      // Filled, the run's store is known (its team and counts are set once it is made).
      const {
        bugs,
        events,
        team,
        catchUpSeconds: behind,
      } = preloaded
        ? (ctx.store as { bugs: number; events: number; team: BenchTeam; catchUpSeconds: number })
        : { bugs: large, ...(await fillStore(root, bigDb.url, large, ctx.log)) };
      const server = await startServerProcess(root, bigDb.url);
      try {
        const floor = await runConcurrent(requests, 32, () => benchCall(`${server.url}/health`).then(() => {}));
        const lists: [string, string, string][] = [
          ['admin: GET /api/bugs?limit=25', '/api/bugs?limit=25', team.admin.token],
          ['tester: GET /api/bugs?limit=25', '/api/bugs?limit=25', team.testers[0]!.token],
          ['developer: GET /api/bugs/assigned?limit=25', '/api/bugs/assigned?limit=25', team.developers[0]!.token],
          ['admin: GET /api/bugs?status=pending&limit=25', '/api/bugs?status=pending&limit=25', team.admin.token],
          // Issue 35: one project's bugs, and a tester outside the private project (its bugs left out of rows and totals).
          [
            `admin: GET /api/bugs?project=${benchProjectKey(7)}&limit=25`,
            `/api/bugs?project=${benchProjectKey(7)}&limit=25`,
            team.admin.token,
          ],
          [
            'tester outside a private project: GET /api/bugs/all-viewable?limit=25',
            '/api/bugs/all-viewable?limit=25',
            team.testers[0]!.token,
          ],
          // A developer in a team project: their assigned bugs and every bug of the project (5,000).
          [
            `developer in team project ${benchProjectKey(TEAM_PROJECT)}: GET /api/bugs?limit=25`,
            '/api/bugs?limit=25',
            (team.developers[1] ?? team.developers[0]!).token,
          ],
        ];
        for (const [name, pathAndQuery, token] of lists) {
          await runConcurrent(200, 32, () => benchCall(server.url + pathAndQuery, { token }).then(() => {}));
          const run = await runConcurrent(requests, 32, () =>
            benchCall(server.url + pathAndQuery, { token }).then(() => {}),
          );
          const p99 = percentile(run.latencies, 99);
          rows.push({
            suite: 'bugs-read',
            name: `list 25 of ${bugs.toLocaleString('en-US')} bugs, ${name}, 32 conn`,
            value: round(p99, 2),
            unit: 'ms p99',
            baseline: {
              name: 'GET /health p99, 32 conn',
              value: round(percentile(floor.latencies, 99), 2),
              unit: 'ms',
            },
            ratio: round(p99 / percentile(floor.latencies, 99), 2),
            note: `p50 ${round(percentile(run.latencies, 50), 2)} ms, ${round((requests / run.wallMs) * 1000, 0)} req/s`,
          });
          ctx.log(`${name}: p99 ${round(p99, 2)} ms`);
        }

        await dashboardP95(server.url, team.admin.token, 200);
        const bigDashboard = await dashboardP95(server.url, team.admin.token, requests);
        // The floor at the same concurrency: a request that does nothing.
        const healthFloor = await runConcurrent(requests, 8, () => benchCall(`${server.url}/health`).then(() => {}));
        rows.push({
          suite: 'bugs-read',
          name: `admin dashboard at ${bugs.toLocaleString('en-US')} bugs (${events.toLocaleString('en-US')} events), 8 conn`,
          value: round(bigDashboard.p95, 2),
          unit: 'ms p95',
          baseline: {
            name: `same at ${small.toLocaleString('en-US')} bugs`,
            value: round(smallDashboard.p95, 2),
            unit: 'ms p95',
          },
          ratio: round(bigDashboard.p95 / smallDashboard.p95, 2),
          target: 'flat (≤ 1.5× the 1k figure); p95 ≤ 5 ms',
          met: bigDashboard.p95 <= smallDashboard.p95 * 1.5 && bigDashboard.p95 <= 5,
          note: `p50 ${round(bigDashboard.p50, 2)} ms vs ${round(smallDashboard.p50, 2)} ms; GET /health at 8 conn: p95 ${round(percentile(healthFloor.latencies, 95), 2)} ms, p50 ${round(percentile(healthFloor.latencies, 50), 2)} ms`,
        });

        // The bugs export at full size: time, and how far the server's memory moves.
        const rss = async () => {
          const status = await readFile(`/proc/${server.child.pid}/status`, 'utf8').catch(() => '');
          return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN) / 1024;
        };
        const rssBefore = await rss();
        let rssPeak = rssBefore;
        const sampler = setInterval(() => void rss().then((v) => (rssPeak = Math.max(rssPeak, v))), 100);
        const exportStarted = performance.now();
        const response = await fetch(`${server.url}/api/reports/export/bugs`, {
          headers: { authorization: `Bearer ${team.admin.token}` },
        });
        let bytes = 0;
        for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) bytes += chunk.byteLength;
        clearInterval(sampler);
        const exportSeconds = (performance.now() - exportStarted) / 1000;
        const fromMemory = await exportFromMemory(bugs);
        rows.push({
          suite: 'bugs-read',
          name: `export ${bugs.toLocaleString('en-US')} bugs as xlsx (streamed)`,
          value: round(exportSeconds, 1),
          unit: 's',
          baseline: {
            name: 'the same xlsx code, the rows from memory (no database, no HTTP)',
            value: round(fromMemory.seconds, 1),
            unit: 's',
          },
          ratio: round(exportSeconds / fromMemory.seconds, 2),
          ...(bugs === 100_000
            ? { target: '≤ 3 s, RSS ≤ +50 MB', met: exportSeconds <= 3 && rssPeak - rssBefore <= 50 }
            : {}),
          note: `${round(bytes / 1024 / 1024, 1)} MB; server RSS ${round(rssBefore, 0)} → peak ${round(rssPeak, 0)} MB (+${round(rssPeak - rssBefore, 0)}); the baseline's RSS rose ${round(fromMemory.rssRiseMb, 0)} MB`,
        });
        ctx.log(`export: ${round(exportSeconds, 1)} s, RSS ${round(rssBefore, 0)} → ${round(rssPeak, 0)} MB`);

        // Rebuild the bugs projection from every event, while the live projector runs.
        const system = await createSystem({
          config: { ...loadConfig({}), logLevel: 'silent' },
          databaseUrl: bigDb.url,
          logger: silentLogger,
          parts: [],
          poolSize: 4,
        });
        try {
          // The floor of any rebuild: reading the same events alone.
          const readStarted = performance.now();
          const readRate = (await readEverything(system.store)) / ((performance.now() - readStarted) / 1000);
          // Every projection (the target is for each), bugs first.
          const names = system.projector.projections
            .map((p) => p.name)
            .sort((x, y) => Number(y === 'bugs') - Number(x === 'bugs'));
          for (const name of names) {
            const rebuilt = await system.projector.rebuild(name);
            const label = name === 'bugs' ? 'the bugs projection' : name;
            const caughtUp = name === 'bugs' ? `; live catch-up after the bulk load took ${round(behind, 1)} s` : '';
            const row = rebuildRow(
              'bugs-read',
              `rebuild ${label} (${rebuilt.events.toLocaleString('en-US')} events)`,
              rebuilt,
              readRate,
              `${round(rebuilt.ms / 1000, 1)} s, swap included${caughtUp}`,
            );
            ctx.log(`rebuild ${name}: ${row.value} events/s`);
            rows.push(row);
          }
        } finally {
          await system.close();
        }
      } finally {
        await server.stop();
        await bigDb.drop();
      }
      return rows;
    },
  };
}
