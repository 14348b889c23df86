import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { http, type OwnCluster, registerUser, startOwnCluster } from '@bugtrail/testing';
import { startTestSystem, type TestSystem } from '@bugtrail/testing/system';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANALYST_LIMITS, analystConnectionString, resetAnalystPassword } from './analytics.js';
import { ANALYST_ROLE, analyticsExamples, analyticsViews } from './analytics.views.js';
import { analyticsDictionary } from './dictionary.js';

const docsPath = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../docs/analytics.md');

/** What PostgreSQL answers a refused statement: its SQLSTATE. */
async function refusal(client: pg.Client, statement: string): Promise<string | undefined> {
  try {
    await client.query(statement);
    return undefined;
  } catch (error) {
    return (error as { code?: string }).code;
  }
}

// The analyst role is cluster-wide (its password, its connection limit): this file keeps a cluster of its own.
describe('analytics: the SQL users’ contract', () => {
  let cluster: OwnCluster;
  let t: TestSystem;
  let analyst: pg.Client;
  let url: string;
  let emails: string[] = [];

  beforeAll(async () => {
    cluster = await startOwnCluster();
    t = await startTestSystem({ databaseUrl: await cluster.createDatabase('analytics_first') });
    const admin = await registerUser(t.url, 'admin');
    const tester = await registerUser(t.url, 'tester');
    const developer = await registerUser(t.url, 'developer');
    emails = [admin.email, tester.email, developer.email];
    const bug = await http(t.url).post(
      '/api/bugs',
      {
        title: 'Checkout fails',
        description: 'The card is declined on every attempt',
        priority: 'High',
        severity: 'Critical',
        module: 'Payments',
        checklist: [{ text: 'Open the cart' }],
        assignedTo: [developer.id],
      },
      tester.token,
    );
    expect(bug.status, JSON.stringify(bug.body)).toBe(201);
    url = analystConnectionString(t.databaseUrl, await resetAnalystPassword(t.system.db));
    analyst = new pg.Client({ connectionString: url });
    await analyst.connect();
  });
  afterAll(async () => {
    await analyst?.end();
    await t?.close();
    await cluster?.stop();
  });

  it('the analyst reads every view, and each example query runs', async () => {
    for (const view of analyticsViews) {
      const { fields } = await analyst.query(`select * from analytics.${view.name} limit 1`);
      expect(
        fields.map((f) => f.name),
        view.name,
      ).toEqual(view.columns.map((c) => c.name));
    }
    const { rows } = await analyst.query('select title, severity, status, number, deleted from analytics.bugs');
    expect(rows).toEqual([
      { title: 'Checkout fails', severity: 'Critical', status: 'Open', number: 1, deleted: false },
    ]);
    for (const example of analyticsExamples) await analyst.query(example.sql);
    // The default project the first start made (issue 35).
    const projects = await analyst.query('select key, name, private, archived from analytics.projects');
    expect(projects.rows).toEqual([{ key: 'BUG', name: 'General', private: false, archived: false }]);
  });

  it('refuses everything else: events, credentials, tokens, invite codes, read-model tables, writes', async () => {
    const denied = '42501';
    for (const table of [
      'eventstore.events',
      'eventstore.streams',
      'auth.credentials',
      'auth.invite_codes',
      'auth.mfa',
      'platform.secrets',
      'platform.token_revocations',
      'write_api.idempotency_keys',
      'rm.bugs',
      'rm.users',
      'rm.bug_intervals',
      'rm.chat_messages',
      'projector.checkpoints',
      'public.bugtrail_migrations',
    ]) {
      expect(await refusal(analyst, `select * from ${table} limit 1`), table).toBe(denied);
    }
    // Sessions are read-only, and the role owns nothing it could write to.
    expect((await analyst.query('show default_transaction_read_only')).rows[0].default_transaction_read_only).toBe(
      'on',
    );
    expect(await refusal(analyst, `delete from analytics.users`)).toBe(denied);
    expect(await refusal(analyst, 'create table analytics.mine (x int)')).toBe('25006');
    await analyst.query('begin read write');
    expect(await refusal(analyst, 'create table analytics.mine (x int)')).toBe(denied);
    await analyst.query('rollback');
    await analyst.query('begin read write');
    expect(await refusal(analyst, `update analytics.users set name = 'x'`)).toBe(denied);
    await analyst.query('rollback');
  });

  it('has a statement timeout and a connection limit', async () => {
    expect((await analyst.query('show statement_timeout')).rows[0].statement_timeout).toBe(
      ANALYST_LIMITS.statementTimeout,
    );
    const { rows } = await t.system.pool.query('select rolconnlimit, rolsuper from pg_roles where rolname = $1', [
      ANALYST_ROLE,
    ]);
    expect(rows[0]).toEqual({ rolconnlimit: ANALYST_LIMITS.connectionLimit, rolsuper: false });
    const extra: pg.Client[] = [];
    let refused: string | undefined;
    try {
      for (let i = 0; i < ANALYST_LIMITS.connectionLimit + 1 && !refused; i++) {
        const client = new pg.Client({ connectionString: url });
        try {
          await client.connect();
          extra.push(client);
        } catch (error) {
          refused = (error as { code?: string }).code;
        }
      }
    } finally {
      await Promise.all(extra.map((c) => c.end()));
    }
    expect(refused).toBe('53300'); // too_many_connections
    // A closed connection's backend leaves the server a moment later (slower on a busy machine)
    // and counts against the limit until then: wait for it, so the next tests can connect.
    await expect
      .poll(
        async () =>
          (
            await t.system.pool.query<{ n: number }>(
              'select count(*)::int as n from pg_stat_activity where usename = $1',
              [ANALYST_ROLE],
            )
          ).rows[0]?.n,
      )
      .toBe(1); // `analyst`, this file's own session
  });

  it('holds no email address, password data or chat content', async () => {
    const { rows } = await t.system.pool.query(
      `select table_name, column_name from information_schema.columns where table_schema = 'analytics'`,
    );
    const names = rows.map((r) => `${r.table_name}.${r.column_name}`);
    expect(names.filter((n) => /email|password|hash|secret|token|message/i.test(n))).toEqual([]);
    for (const view of analyticsViews) {
      const { rows: all } = await analyst.query(`select to_jsonb(v)::text as row from analytics.${view.name} v`);
      expect(all.filter((r) => emails.some((e) => r.row.includes(e))).length, view.name).toBe(0);
    }
  });

  it('a new password each time: the earlier string stops working', async () => {
    const next = analystConnectionString(t.databaseUrl, await resetAnalystPassword(t.system.db));
    const stale = new pg.Client({ connectionString: url });
    expect(
      await stale.connect().then(
        () => 'connected',
        (e: { code?: string }) => e.code,
      ),
    ).toBe('28P01');
    const fresh = new pg.Client({ connectionString: next });
    await fresh.connect();
    expect((await fresh.query('select current_user as who')).rows[0].who).toBe(ANALYST_ROLE);
    await fresh.end();
    url = next;
  });

  it('a second database on the same server: the role exists already, and gets its grants there too', async () => {
    const second = await startTestSystem({ databaseUrl: await cluster.createDatabase('analytics_second') });
    try {
      const client = new pg.Client({
        connectionString: analystConnectionString(second.databaseUrl, await resetAnalystPassword(second.system.db)),
      });
      await client.connect();
      try {
        await client.query('select * from analytics.bugs');
        expect(await refusal(client, 'select * from auth.credentials')).toBe('42501');
      } finally {
        await client.end();
      }
    } finally {
      await second.close();
    }
  });

  it('docs/analytics.md is what the database’s comments say (regenerate: bugtrail analytics-docs)', async () => {
    const generated = await analyticsDictionary(t.system.db);
    for (const view of analyticsViews) {
      expect(generated).toContain(`### analytics.${view.name}`);
      for (const column of view.columns) expect(generated).toContain(column.comment.replaceAll('|', '\\|'));
    }
    expect(await readFile(docsPath, 'utf8')).toBe(generated);
  });
});
