import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';

export function adminUrl(): string {
  return inject('adminDatabaseUrl');
}

/** A fresh, empty database for one test file (dropped by the returned function). */
export async function createTestDatabase(base = adminUrl()): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `bt_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: base });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`).catch(() => {});
      await client.end();
    },
  };
}
