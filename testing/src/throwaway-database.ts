/**
 * Databases made and dropped over an admin connection: pg and node built-ins only, so
 * the product-process helper (./process.ts) can use it without vitest or server code.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export type ThrowawayDatabase = { url: string; drop(): Promise<void> };

/** `url` with its database replaced by `database`. */
export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/** Creates database `name` (default: a random `bt_…`) on the server of `adminUrl`. */
export async function createThrowawayDatabase(adminUrl: string, name?: string): Promise<ThrowawayDatabase> {
  const database = name ?? `bt_${randomBytes(6).toString('hex')}`;
  if (!/^[a-z_][a-z0-9_]*$/.test(database)) throw new Error(`bad database name: ${database}`);
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${database}`);
  } finally {
    await admin.end();
  }
  return {
    url: withDatabase(adminUrl, database),
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await waitForSessionsToLeave(client, database);
        await client.query(`drop database if exists ${database} with (force)`).catch(() => {});
      } finally {
        await client.end();
      }
    },
  };
}

/**
 * A pool's `end()` resolves once it has asked its connections to close, before their server
 * sessions have left. Forcing the drop then ends a session whose client is still closing, and
 * that client reports "terminating connection due to administrator command" as an error nobody
 * listens to any more: the test run's one unhandled error on a PostgreSQL 15 pass. So the drop
 * first waits for the database's sessions to leave; `with (force)` is only for those that do not
 * (a test that forgot to close something), after at most `waitMs`.
 */
async function waitForSessionsToLeave(admin: pg.Client, database: string, waitMs = 3_000): Promise<void> {
  const giveUpAt = Date.now() + waitMs;
  for (;;) {
    const { rows } = await admin.query<{ sessions: number }>(
      'select count(*)::int as sessions from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
      [database],
    );
    if ((rows[0]?.sessions ?? 0) === 0 || Date.now() > giveUpAt) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
