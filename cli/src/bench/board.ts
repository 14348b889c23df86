import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { type NewEvent, type Position, PostgresEventStore } from '@bugtrail/eventstore';
import { createPool, readModelPosition } from '@bugtrail/platform';
import { reportBug, statusChanged } from '../demo/bug-events.js';
import { benchCall, registerBenchUser, startServerProcess } from './server-process.js';
import { percentile, round, runConcurrent } from './stats.js';
import type { BenchContext, BenchRow, BenchSuite } from './types.js';

/**
 * The board (issue 36): a project of 5,000 open bugs (and 2,000 more in progress or closed),
 * its board's first paint of data (`GET /api/projects/{key}/board`, three columns of 50 with
 * their counts) p95, beside `GET /health` and the list row (`GET /api/bugs?project=KEY&limit=25`)
 * of the same run; and a card move (`PUT /api/bugs/{id}/rank`) → seen by another client on its
 * live stream, p99, beside the move's own round trip.
 */
const SUITE = 'board';

function timed(url: string, token: string): Promise<number> {
  const started = performance.now();
  return fetch(url, { headers: { authorization: `Bearer ${token}` } }).then(async (r) => {
    await r.arrayBuffer();
    if (!r.ok) throw new Error(`${url}: ${r.status}`);
    return performance.now() - started;
  });
}

async function sample(n: number, call: () => Promise<number>): Promise<number[]> {
  for (let i = 0; i < Math.min(20, n); i++) await call();
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(await call());
  return out;
}

/** A live stream that resolves `seen(bugId)` when a frame names that bug's topic. */
function liveStream(base: string, token: string) {
  const waiting = new Map<string, (at: number) => void>();
  let request: http.ClientRequest | null = null;
  const ready = new Promise<void>((resolve, reject) => {
    const url = new URL('/api/events', base);
    request = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        agent: false,
        headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
      },
      (res) => {
        if (res.statusCode !== 200) return reject(new Error(`live: ${res.statusCode}`));
        res.setEncoding('utf8');
        let buffer = '';
        res.on('data', (chunk: string) => {
          const at = performance.now();
          buffer += chunk;
          let end = buffer.indexOf('\n\n');
          while (end >= 0) {
            const message = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            if (message.startsWith('event: ready')) resolve();
            const data = message.split('\n').find((line) => line.startsWith('data: '));
            if (data) {
              try {
                const topics = (JSON.parse(data.slice(6)) as { topics?: string[] }).topics ?? [];
                for (const topic of topics) {
                  const id = topic.startsWith('bug:') ? topic.slice(4).split('|')[0]! : '';
                  const done = waiting.get(id);
                  if (done) {
                    waiting.delete(id);
                    done(at);
                  }
                }
              } catch {
                // not a topics frame
              }
            }
            end = buffer.indexOf('\n\n');
          }
        });
      },
    );
    request.on('error', reject);
    request.end();
  });
  return {
    ready,
    seen: (bugId: string) => new Promise<number>((resolve) => waiting.set(bugId, resolve)),
    close: () => (request as http.ClientRequest | null)?.destroy(),
  };
}

async function measure(ctx: BenchContext, root: string): Promise<BenchRow[]> {
  const database = await ctx.createDatabase();
  const server = await startServerProcess(root, database.url);
  const pool = createPool(database.url, { max: 20 });
  try {
    const admin = await registerBenchUser(server.url, 'admin', 0);
    const viewer = await registerBenchUser(server.url, 'admin', 1);
    const tester = await registerBenchUser(server.url, 'tester', 0);
    const developer = await registerBenchUser(server.url, 'developer', 0);
    const project = await benchCall(`${server.url}/api/projects`, {
      token: admin.token,
      body: { key: 'BOARD', name: 'Board bench' },
    });
    const open = ctx.quick ? 1000 : 5000;
    const others = ctx.quick ? 400 : 2000;
    const store = new PostgresEventStore(pool);
    const ids: string[] = [];
    let last: Position = '';
    const base = Date.UTC(2026, 0, 1);
    await runConcurrent(open + others, 16, async (i) => {
      const bugId = randomUUID();
      if (i < open) ids.push(bugId);
      const at = new Date(base + i * 1000).toISOString();
      const events: NewEvent[] = reportBug(
        {
          bugId,
          number: i + 1,
          reporterId: tester.id,
          title: `Board bug ${i}`,
          description: 'A card on a busy board',
          assigneeIds: [developer.id],
          project: { id: project._id, number: i + 1 },
        },
        { at },
      );
      if (i >= open)
        events.push(statusChanged(bugId, 'Open', i % 2 ? 'Closed' : 'In Progress', { actorId: developer.id, at }));
      const result = await store.append(`bug-${bugId}`, events, 'no_stream');
      if (result.position > last) last = result.position;
    });
    while ((await readModelPosition(pool)) < last) await new Promise((r) => setTimeout(r, 250));
    // The write side's numbers for the project go on after the bugs appended straight to the store.
    await pool.query(
      'insert into write_api.project_counters (project_id, last) values ($1, $2) on conflict (project_id) do update set last = $2',
      [project._id, open + others],
    );

    const n = ctx.quick ? 100 : 300;
    const health = await sample(n, () => timed(`${server.url}/health`, admin.token));
    const list = await sample(n, () => timed(`${server.url}/api/bugs?project=BOARD&limit=25`, admin.token));
    const board = await sample(n, () => timed(`${server.url}/api/projects/BOARD/board`, admin.token));

    const live = liveStream(server.url, viewer.token);
    await live.ready;
    const moves = ctx.quick ? 60 : 200;
    const seen: number[] = [];
    const trips: number[] = [];
    for (let i = 0; i < moves; i++) {
      const moved = ids[(i * 7) % ids.length]!;
      const before = ids[(i * 7 + 3) % ids.length]!;
      if (moved === before) continue;
      const arrived = live.seen(moved);
      const started = performance.now();
      const answer = await fetch(`${server.url}/api/bugs/${moved}/rank`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ before }),
      });
      await answer.arrayBuffer();
      trips.push(performance.now() - started);
      if (!answer.ok) throw new Error(`rank: ${answer.status}`);
      seen.push((await arrived) - started);
    }
    live.close();
    const p95 = (xs: number[]) => round(percentile(xs, 95), 2);
    const p99 = (xs: number[]) => round(percentile(xs, 99), 2);
    const note = `${open.toLocaleString('en-US')} open bugs of ${(open + others).toLocaleString('en-US')} in the project; ${n} sequential requests`;
    return [
      {
        suite: SUITE,
        name: 'board first paint of data (3 columns of 50 + counts), p95',
        value: p95(board),
        unit: 'ms',
        baseline: { name: 'GET /health p95', value: p95(health), unit: 'ms' },
        ratio: round(p95(board) / p95(health), 2),
        note: `${note}; the list row (project, 25) p95 ${p95(list)} ms`,
      },
      {
        suite: SUITE,
        name: 'card move → seen on another client’s live stream, p99',
        value: p99(seen),
        unit: 'ms',
        baseline: { name: 'the move’s own round trip p99', value: p99(trips), unit: 'ms' },
        ratio: round(p99(seen) / p99(trips), 2),
        note: `${seen.length} moves one after another; GET /health p95 ${p95(health)} ms`,
      },
    ];
  } finally {
    await server.stop();
    await pool.end();
    await database.drop();
  }
}

export function boardSuite(root: string): BenchSuite {
  return { name: SUITE, run: (ctx) => measure(ctx, root) };
}
