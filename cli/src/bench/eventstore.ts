import { randomUUID } from 'node:crypto';
import { type NewEvent, PostgresEventStore } from '@bugtrail/eventstore';
import { createDb, createPool, silentLogger } from '@bugtrail/platform';
import { Projector, type ReadModelDb, usersProjection } from '@bugtrail/projector';
import { migrateAll } from '../system.js';
import { percentile, round, runConcurrent } from './stats.js';
import type { BenchRow, BenchSuite } from './types.js';

const meta = () => ({
  actorId: null,
  correlationId: randomUUID(),
  causationId: null,
  occurredAt: new Date().toISOString(),
  schemaVersion: 1,
});

const registered = (userId: string): NewEvent => ({
  id: randomUUID(),
  type: 'UserRegistered',
  data: {
    userId,
    name: `User ${userId.slice(0, 6)}`,
    email: `${userId}@example.com`,
    role: 'tester',
    profileImageURL: null,
  },
  metadata: meta(),
});

const profileUpdated = (userId: string, n: number): NewEvent => ({
  id: randomUUID(),
  type: 'ProfileUpdated',
  data: { userId, name: `User ${n}` },
  metadata: meta(),
});

/**
 * The event store and projector against the machine's own PostgreSQL speed:
 * raw one-row INSERTs are the baseline for appends, in the same run.
 */
export const eventStoreSuite: BenchSuite = {
  name: 'eventstore',
  async run(ctx) {
    const rows: BenchRow[] = [];
    const database = await ctx.createDatabase();
    const pool = createPool(database.url, { max: 40 });
    try {
      await migrateAll(pool);
      await pool.query(
        'create table bench_insert (id bigserial primary key, stream text not null, data jsonb not null)',
      );
      const store = new PostgresEventStore(pool);
      const perLevel = ctx.quick ? 1500 : 6000;
      for (const writers of [1, 8, 32]) {
        const baseline = await runConcurrent(perLevel, writers, async (i) => {
          await pool.query('insert into bench_insert (stream, data) values ($1, $2)', [`s-${i}`, '{"a":1}']);
        });
        const appends = await runConcurrent(perLevel, writers, async () => {
          await store.append(`bench-${randomUUID()}`, [registered(randomUUID())], 'no_stream');
        });
        const insertRate = (perLevel / baseline.wallMs) * 1000;
        const appendRate = (perLevel / appends.wallMs) * 1000;
        rows.push({
          suite: 'eventstore',
          name: `append 1 event, ${writers} writer${writers > 1 ? 's' : ''}`,
          value: round(appendRate, 0),
          unit: 'appends/s',
          baseline: { name: `raw 1-row INSERT, ${writers} writers`, value: round(insertRate, 0), unit: 'inserts/s' },
          ratio: round(appendRate / insertRate, 2),
          note: `p50 ${round(percentile(appends.latencies, 50), 2)} ms, p99 ${round(percentile(appends.latencies, 99), 2)} ms`,
        });
        ctx.log(`append @${writers}: ${round(appendRate, 0)}/s vs insert ${round(insertRate, 0)}/s`);
      }

      // Catch-up: fill the store, then let a fresh projector read it all.
      const total = ctx.quick ? 40_000 : 200_000;
      const perStream = 50;
      ctx.log(`writing ${total} events for the catch-up run...`);
      await runConcurrent(total / perStream, 8, async () => {
        const userId = randomUUID();
        await store.append(
          `user-${userId}`,
          [registered(userId), ...Array.from({ length: perStream - 1 }, (_, n) => profileUpdated(userId, n))],
          'no_stream',
        );
      });
      const db = createDb<ReadModelDb>(pool);
      const projector = new Projector(store, pool, db, [usersProjection], { logger: silentLogger, batchSize: 2000 });
      await projector.prepare();
      const head = await store.headPosition();
      const t0 = performance.now();
      projector.start();
      for (;;) {
        if ((await projector.checkpoint()) >= head) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      const catchUpMs = performance.now() - t0;
      await projector.stop();
      const catchUpRate = (total / catchUpMs) * 1000;
      rows.push({
        suite: 'projector',
        name: `catch-up over ${total.toLocaleString('en-US')} events`,
        value: round(catchUpRate, 0),
        unit: 'events/s',
        target: '≥ 30,000/s',
        met: catchUpRate >= 30_000,
      });
      const rebuilt = await projector.rebuild('users');
      const rebuildRate = (rebuilt.events / rebuilt.ms) * 1000;
      rows.push({
        suite: 'projector',
        name: `rebuild users (${rebuilt.events.toLocaleString('en-US')} events, swap included)`,
        value: round(rebuildRate, 0),
        unit: 'events/s',
        target: '≥ 30,000/s',
        met: rebuildRate >= 30_000,
      });
      await store.close();
    } finally {
      await pool.end();
      await database.drop();
    }
    return rows;
  },
};
