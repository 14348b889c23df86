import { Kysely, type Migration, Migrator, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Logger } from './logger.js';

// bigint counts come back as numbers; positions and revisions are read as text explicitly.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

export type PoolOptions = { max?: number; applicationName?: string; logger?: Logger };

/**
 * A pool that never crashes the process when PostgreSQL goes away: idle clients'
 * errors are logged, queries fail (and the servers answer 503) until it is back.
 */
export function createPool(connectionString: string, options: PoolOptions = {}): pg.Pool {
  const pool = new pg.Pool({
    connectionString,
    max: options.max ?? 20,
    application_name: options.applicationName ?? 'bugtrail',
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
    // A forgotten open transaction would hold back every event-store reader in the cluster.
    options: '-c idle_in_transaction_session_timeout=60000',
  });
  pool.on('error', (error) => options.logger?.warn('idle database client failed', { error: error.message }));
  // A client checked out between two queries (a transaction's JavaScript, a LISTEN) has no
  // listener of the pool's: its connection dying would be an unhandled 'error' event. Its
  // next query fails instead, and its holder releases it as broken.
  pool.on('connect', (client) => {
    client.on('error', (error) => options.logger?.debug('database client lost', { error: error.message }));
  });
  return pool;
}

export function createDb<DB>(pool: pg.Pool): Kysely<DB> {
  return new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
}

/**
 * Runs every package's migrations, in name order, with kysely's Migrator. Each package
 * numbers its own (platform 01xx, event store 02xx, write-api 03xx, projector 06xx, …), so a
 * new one of an earlier package sorts before ones already run on an existing database:
 * unordered migrations are allowed, and each runs once, in name order among the new ones.
 */
export async function migrate(pool: pg.Pool, migrations: Record<string, Migration>): Promise<void> {
  const db = createDb<unknown>(pool);
  const migrator = new Migrator({
    db,
    migrationTableSchema: 'public',
    migrationTableName: 'bugtrail_migrations',
    migrationLockTableName: 'bugtrail_migrations_lock',
    provider: { getMigrations: async () => migrations },
    allowUnorderedMigrations: true,
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) throw error instanceof Error ? error : new Error(`migration ${failed?.migrationName} failed`);
}

/** True for errors that mean "the database is not reachable", not "the query is wrong". */
export function isDatabaseUnavailable(error: unknown): boolean {
  const e = error as { code?: string; message?: string } | null;
  if (!e) return false;
  const code = e.code ?? '';
  if (
    [
      'ECONNREFUSED',
      'ECONNRESET',
      'ETIMEDOUT',
      'EPIPE',
      'ENOTFOUND',
      '57P01',
      '57P02',
      '57P03',
      '53300',
      '08000',
      '08003',
      '08006',
      '08001',
      '08004',
    ].includes(code)
  )
    return true;
  const message = e.message ?? '';
  return /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|connection (is )?closed|Cannot use a pool after calling end/i.test(
    message,
  );
}

/** Runs `work` in one transaction on one client: committed when it resolves, rolled back when it throws. */
export async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    const result = await work(client);
    await client.query('commit');
    return result;
  } catch (error) {
    await client.query('rollback').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}
