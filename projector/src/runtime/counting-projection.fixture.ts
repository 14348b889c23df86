/**
 * Test fixtures for the projector runtime: a projection that writes one row per
 * event it sees, with no unique key, so an event applied twice shows up as two
 * rows and a lost one as a missing row. Shared by projector.int.spec.ts and the
 * child process it kills (projector-child.fixture.ts).
 */
import { randomUUID } from 'node:crypto';
import { migrateEventStore, type NewEvent, PostgresEventStore } from '@bugtrail/eventstore';
import { createDb, createPool, migrate, silentLogger } from '@bugtrail/platform';
import { type Kysely, sql } from 'kysely';
import type pg from 'pg';
import type { ReadModelDb } from '../schema.js';
import { projectorMigrations } from './migrations.js';
import type { Projection } from './projection.js';

export type CountingOptions = {
  name?: string;
  version?: number;
  /** Throws (after writing its rows) when a batch holds an event of this user number. */
  failOnUser?: number;
  /**
   * Before committing this batch (1-based), waits for an advisory lock that the
   * test holds: the process is then reliably stuck in the middle of a batch.
   */
  blockOnBatch?: { batch: number; lockKey: number; onBlocked(): void };
};

/** The fixture's own table, under a name chosen per test: not one of the read models. */
type CountedTables = Record<
  string,
  { event_id: string; stream_id: string; position: string; handled_by_version: number }
>;

export function userNumber(data: unknown): number {
  return Number((data as { userId: string }).userId.slice(1));
}

export function countingProjection(options: CountingOptions = {}): Projection {
  const version = options.version ?? 1;
  const table = options.name ? `${options.name}_counted` : 'counted';
  let batches = 0;
  return {
    name: options.name ?? 'counting',
    version,
    tables: [table],
    async createTables(db: Kysely<ReadModelDb>, schema: string) {
      await sql`create table ${sql.id(schema, table)} (
        event_id uuid not null,
        stream_id text not null,
        position text not null,
        handled_by_version int not null
      )`.execute(db);
    },
    async apply(events, { db, schema, topics }) {
      batches += 1;
      await db
        .withTables<CountedTables>()
        .withSchema(schema)
        .insertInto(table)
        .values(
          events.map((e) => ({
            event_id: e.id,
            stream_id: e.streamId,
            position: e.position,
            handled_by_version: version,
          })),
        )
        .execute();
      for (const e of events) topics.add(`count:${e.streamId}`);
      if (options.failOnUser !== undefined && events.some((e) => userNumber(e.data) === options.failOnUser)) {
        throw new Error('projection failed mid-batch');
      }
      const block = options.blockOnBatch;
      if (block && batches === block.batch) {
        block.onBlocked();
        await sql`select pg_advisory_xact_lock(${block.lockKey})`.execute(db);
      }
    },
  };
}

/** A valid UserRegistered event for user `n`. */
export function userEvent(n: number): NewEvent {
  return {
    id: randomUUID(),
    type: 'UserRegistered',
    data: { userId: `u${n}`, name: `User ${n}`, email: `user${n}@example.com`, role: 'tester', profileImageURL: null },
    metadata: {
      actorId: null,
      correlationId: randomUUID(),
      causationId: null,
      occurredAt: new Date(Date.UTC(2024, 0, 1) + n * 1000).toISOString(),
      schemaVersion: 1,
    },
  };
}

/** The event store and the projector's tables, migrated, on one database. */
export async function openProjectorDatabase(url: string) {
  const pool: pg.Pool = createPool(url, { max: 12, logger: silentLogger });
  await migrateEventStore(pool);
  await migrate(pool, projectorMigrations);
  const store = new PostgresEventStore(pool, { pollIntervalMs: 100 });
  const db = createDb<ReadModelDb>(pool);
  return {
    pool,
    store,
    db,
    async close() {
      await store.close();
      await db.destroy();
    },
  };
}
