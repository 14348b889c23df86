import { randomUUID } from 'node:crypto';
import type { FieldDef } from '@bugtrail/domain';
import { type NewEvent, type Position, PostgresEventStore } from '@bugtrail/eventstore';
import { createPool, readModelPosition } from '@bugtrail/platform';
import { event, reportBug } from '../demo/bug-events.js';
import { benchCall, registerBenchUser, startServerProcess } from './server-process.js';
import { percentile, round, runConcurrent } from './stats.js';
import type { BenchContext, BenchRow, BenchSuite } from './types.js';

/**
 * Custom fields (issue 37): a project of 100,000 bugs (20,000 with --quick), each with a
 * Customer (a select of five) and Story points (a number). A page of 25 filtered by the select
 * and sorted by the number (`GET /api/bugs?project=KEY&field.customer=Acme&sort=field.story_points`),
 * p99, beside the plain list of the same project in the same run.
 */
const SUITE = 'fields';
const CUSTOMERS = ['Acme', 'Globex', 'Initech', 'Umbrella', 'Hooli'];

async function timed(url: string, token: string): Promise<number> {
  const started = performance.now();
  const r = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  await r.arrayBuffer();
  if (!r.ok) throw new Error(`${url}: ${r.status}`);
  return performance.now() - started;
}

/** `n` requests, 8 at a time, after a warm-up of 20. */
async function sample(n: number, call: () => Promise<number>): Promise<number[]> {
  for (let i = 0; i < 20; i++) await call();
  const out: number[] = [];
  await runConcurrent(n, 8, async () => {
    out.push(await call());
  });
  return out;
}

async function measure(ctx: BenchContext, root: string): Promise<BenchRow[]> {
  const database = await ctx.createDatabase();
  const server = await startServerProcess(root, database.url);
  const pool = createPool(database.url, { max: 20 });
  try {
    const admin = await registerBenchUser(server.url, 'admin', 0);
    const tester = await registerBenchUser(server.url, 'tester', 0);
    const project = await benchCall(`${server.url}/api/projects`, {
      token: admin.token,
      body: { key: 'FLD', name: 'Fields bench' },
    });
    await benchCall(`${server.url}/api/projects/${project._id}/fields`, {
      token: admin.token,
      body: { name: 'Customer', type: 'select', options: CUSTOMERS },
    });
    await benchCall(`${server.url}/api/projects/${project._id}/fields`, {
      token: admin.token,
      body: { name: 'Story points', type: 'number' },
    });
    const { rows } = await pool.query<{ fields: FieldDef[] }>('select fields from rm.projects where id = $1', [
      project._id,
    ]);
    const fields = rows[0]!.fields;
    const customer = fields.find((f) => f.key === 'customer')!;
    const points = fields.find((f) => f.key === 'story_points')!;

    const total = ctx.quick ? 20_000 : 100_000;
    const store = new PostgresEventStore(pool);
    let last: Position = '';
    const base = Date.UTC(2026, 0, 1);
    await runConcurrent(total, 16, async (i) => {
      const bugId = randomUUID();
      const at = new Date(base + i * 1000).toISOString();
      const events: NewEvent[] = reportBug(
        {
          bugId,
          number: i + 1,
          reporterId: tester.id,
          title: `Fields bug ${i}`,
          description: 'A bug with a customer and points',
          assigneeIds: [],
          project: { id: project._id, number: i + 1 },
        },
        { at },
      );
      events.push(
        event(
          'BugFieldsChanged',
          {
            bugId,
            values: { [customer.id]: customer.options[i % CUSTOMERS.length]!.id, [points.id]: (i * 7919) % 89 },
          },
          { actorId: tester.id, at },
        ),
      );
      const result = await store.append(`bug-${bugId}`, events, 'no_stream');
      if (result.position > last) last = result.position;
    });
    while ((await readModelPosition(pool)) < last) await new Promise((r) => setTimeout(r, 250));
    await pool.query('analyze rm.bugs');

    const n = ctx.quick ? 200 : 600;
    const plainUrl = `${server.url}/api/bugs?project=FLD&limit=25`;
    const fieldUrl = `${server.url}/api/bugs?project=FLD&field.customer=Acme&sort=field.story_points&limit=25`;
    const plain = await sample(n, () => timed(plainUrl, admin.token));
    const byField = await sample(n, () => timed(fieldUrl, admin.token));
    const p99 = (xs: number[]) => round(percentile(xs, 99), 2);
    return [
      {
        suite: SUITE,
        name: `list filtered and sorted by custom fields (25 of ${total.toLocaleString('en-US')}), p99`,
        value: p99(byField),
        unit: 'ms',
        baseline: { name: 'the plain list of the project (25), p99', value: p99(plain), unit: 'ms' },
        ratio: round(p99(byField) / p99(plain), 2),
        note: `field.customer=Acme (1 in 5) & sort=field.story_points; ${n} requests, 8 at a time; p50 ${round(percentile(byField, 50), 2)} vs ${round(percentile(plain, 50), 2)} ms`,
      },
    ];
  } finally {
    await server.stop();
    await pool.end();
    await database.drop();
  }
}

export function fieldsSuite(root: string): BenchSuite {
  return { name: SUITE, run: (ctx) => measure(ctx, root) };
}
