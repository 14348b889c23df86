import { randomUUID } from 'node:crypto';
import { PostgresEventStore } from '@bugtrail/eventstore';
import { createDb, createPool, silentLogger } from '@bugtrail/platform';
import { createTestDatabase } from '@bugtrail/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateAll } from '../../../cli/src/system.js';
import { Projector } from '../runtime/projector.js';
import type { ReadModelDb } from '../schema.js';
import { usersProjection } from './users.projection.js';

describe('users projection, when a rebuild batch holds more rows than one statement can carry', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let pool: ReturnType<typeof createPool>;
  beforeAll(async () => {
    database = await createTestDatabase();
    pool = createPool(database.url, { max: 10 });
    await migrateAll(pool);
  });
  afterAll(async () => {
    await pool.end();
    await database.drop();
  });

  it('rebuilds 10,000 registrations in 10,000-event batches (70,000 cells: past the 65,535 bind limit)', async () => {
    const store = new PostgresEventStore(pool);
    const meta = {
      actorId: null,
      correlationId: randomUUID(),
      causationId: null,
      occurredAt: new Date().toISOString(),
      schemaVersion: 1,
    };
    try {
      let last = '';
      for (let s = 0; s < 10; s++) {
        const appended = await store.append(
          `bulk-${randomUUID()}`,
          Array.from({ length: 1000 }, () => {
            const userId = randomUUID();
            return {
              id: randomUUID(),
              type: 'UserRegistered',
              data: {
                userId,
                name: 'Bulk user',
                email: `${userId}@example.com`,
                role: 'tester',
                profileImageURL: null,
              },
              metadata: meta,
            };
          }),
          'no_stream',
        );
        last = appended.position;
      }
      const projector = new Projector(store, pool, createDb<ReadModelDb>(pool), [usersProjection], {
        logger: silentLogger,
        batchSize: 2000,
      });
      await projector.prepare();
      // The live projector catches up first (rebuild replays up to its checkpoint): up to the
      // last append itself. The store's head may lag behind it for a moment while another
      // database's transaction on the same server holds the visibility horizon back.
      projector.start();
      while ((await projector.status()).position < last) await new Promise((r) => setTimeout(r, 50));
      await projector.stop();
      const { events } = await projector.rebuild('users');
      expect(events).toBe(10_000);
      const { rows } = await pool.query<{ n: number }>('select count(*)::int as n from rm.users');
      expect(rows[0]?.n).toBe(10_000);
    } finally {
      await store.close();
    }
  });
});
