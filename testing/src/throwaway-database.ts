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
      await client.query(`drop database if exists ${database} with (force)`).catch(() => {});
      await client.end();
    },
  };
}
