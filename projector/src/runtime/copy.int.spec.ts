import { createTestDatabase } from '@bugtrail/testing';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyWriter, kyselyOnClient } from './copy.js';

type Db = { 'copied.rows': { id: string; n: number | null; ok: boolean; tags: string[]; doc: unknown; at: Date } };

/** Text a COPY line or an array literal could mistake for its own syntax. */
const HOSTILE = [
  'tab\there',
  'new\nline',
  'carriage\r\nreturn',
  'back\\slash',
  '\\N',
  '\\.',
  'a "quoted", {braced} word',
  "it's",
  'NULL',
  '',
  ' spaced ',
  'ünïcødé ✓ 🐛',
];

describe('COPY writer (rebuild batches)', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let pool: pg.Pool;

  beforeAll(async () => {
    database = await createTestDatabase();
    pool = new pg.Pool({ connectionString: database.url, max: 2 });
    await pool.query(`create schema copied;
      create table copied.rows (id text primary key, n int, ok boolean not null, tags text[] not null, doc jsonb, at timestamptz not null)`);
  });

  afterAll(async () => {
    await pool.end();
    await database.drop();
  });

  it('writes every value back as it was given, hostile text included, inside the caller’s transaction', async () => {
    const at = new Date('2026-11-27T10:11:12.345Z');
    const rows = HOSTILE.map((text, i) => ({
      id: `${i}:${text}`,
      n: i % 3 === 0 ? null : i,
      ok: i % 2 === 0,
      tags: [text, 'plain', ...(i % 4 === 0 ? [] : [`${text}${text}`])],
      doc: i % 5 === 0 ? null : { text, list: [text, null], nested: { n: i } },
      at: new Date(at.getTime() + i),
    }));
    const client = await pool.connect();
    try {
      const db = kyselyOnClient<Db>(client);
      const copy = copyWriter(client, 'copied');
      await db.transaction().execute(async (tx) => {
        await sql`insert into copied.rows values ('before', 1, true, '{}', null, now())`.execute(tx);
        await copy(
          'rows',
          ['id', 'n', 'ok', 'tags', 'doc', 'at'],
          rows.map((r) => [r.id, r.n, r.ok, r.tags, r.doc === null ? null : JSON.stringify(r.doc), r.at]),
        );
        // The same transaction sees them before commit.
        const { rows: seen } = await sql<{ n: number }>`select count(*)::int as n from copied.rows`.execute(tx);
        expect(seen[0]!.n).toBe(rows.length + 1);
      });
    } finally {
      client.release();
    }
    const { rows: back } = await pool.query(
      `select id, n, ok, tags, doc, at from copied.rows where id <> 'before' order by (split_part(id, ':', 1))::int`,
    );
    expect(back).toEqual(rows);
  });

  it('rolls back with its transaction, and a bad row fails the batch whole', async () => {
    await pool.query(`delete from copied.rows`);
    const client = await pool.connect();
    let failed = false;
    try {
      const db = kyselyOnClient<Db>(client);
      const copy = copyWriter(client, 'copied');
      await db
        .transaction()
        .execute(async () => {
          await copy('rows', ['id', 'n', 'ok', 'tags', 'at'], [['a', 1, true, ['x'], new Date()]]);
          // The same id again: the primary key refuses it, and the batch goes with it.
          await copy('rows', ['id', 'n', 'ok', 'tags', 'at'], [['a', 2, false, [], new Date()]]);
        })
        .catch((error: { code?: string }) => {
          failed = true;
          expect(error.code).toBe('23505');
        });
    } finally {
      client.release(true);
    }
    expect(failed).toBe(true);
    const { rows } = await pool.query('select count(*)::int as n from copied.rows');
    expect(rows[0].n).toBe(0);
  });
});
