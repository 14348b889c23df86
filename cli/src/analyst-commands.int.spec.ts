import { loadConfig } from '@bugtrail/platform';
import { type OwnCluster, startOwnCluster } from '@bugtrail/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analystUrlCommand } from './analyst-commands.js';

// The analyst role and its password are cluster-wide: a cluster of its own.
describe('bugtrail analyst-url', () => {
  let cluster: OwnCluster;
  let database: { url: string };
  beforeAll(async () => {
    cluster = await startOwnCluster();
    database = { url: await cluster.createDatabase('analyst_url') };
  });
  afterAll(async () => {
    await cluster?.stop();
  });

  it('prints one URL on stdout (notes apart) that connects as the analyst and reads analytics only', async () => {
    const out: string[] = [];
    const notes: string[] = [];
    const config = { ...loadConfig({}), databaseUrl: database.url, logLevel: 'silent' as const };
    expect(
      await analystUrlCommand(
        config,
        (l) => out.push(l),
        (l) => notes.push(l),
      ),
    ).toBe(0);
    expect(out).toHaveLength(1);
    const url = new URL(out[0]!);
    expect(url.username).toBe('bugtrail_analyst');
    expect(url.pathname).toBe(new URL(database.url).pathname);
    expect(notes.join(' ')).toContain('new password');
    const client = new pg.Client({ connectionString: out[0] });
    await client.connect();
    try {
      expect((await client.query('select count(*)::int as n from analytics.bugs')).rows[0].n).toBe(0);
      await expect(client.query('select * from eventstore.events')).rejects.toMatchObject({ code: '42501' });
    } finally {
      await client.end();
    }
  });
});
