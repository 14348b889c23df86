import { createTestDatabase } from '@bugtrail/testing';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPipelinedDb, inline } from './pipelined-dialect.js';

type Db = { 'pipe.rows': { id: string; n: number; tags: string[]; doc: unknown; at: Date | null; raw: Buffer | null } };

describe('pipelined batch transactions', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let pool: pg.Pool;
  let statements: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    pool = new pg.Pool({ connectionString: database.url, max: 4 });
    pool.on('error', () => {});
    // Count what reaches the server: one entry per message sent.
    pool.on('connect', (client) => {
      const query = client.query.bind(client) as (...args: unknown[]) => unknown;
      (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
        const first = args[0];
        statements.push(typeof first === 'string' ? first : String((first as { text?: string }).text));
        return query(...args);
      };
    });
    await pool.query(`create schema pipe;
      create table pipe.rows (id text primary key, n int not null, tags text[] not null, doc jsonb, at timestamptz, raw bytea)`);
  });

  afterAll(async () => {
    await pool.end();
    await database.drop();
  });

  it('sends held writes with the next read, in order, and commits them with the commit', async () => {
    const db = createPipelinedDb<Db>(pool);
    statements = [];
    const at = new Date('2026-11-25T10:11:12.345Z');
    const seen = await db.transaction().execute(async (tx) => {
      await tx
        .insertInto('pipe.rows')
        .values({ id: "o'brien", n: 1, tags: ['a', 'b,c', 'd"e', '{x}'], doc: JSON.stringify({ q: "it's" }), at })
        .execute();
      await tx.updateTable('pipe.rows').set({ n: 2 }).where('id', '=', "o'brien").execute();
      await sql`insert into pipe.rows (id, n, tags, raw) values (${'back\\slash $1'}, ${3}, ${[]}::text[], ${Buffer.from([0, 255])}) -- a held write ending in a comment`.execute(
        tx,
      );
      const { rows } = await sql<{ id: string; n: number }>`select id, n from pipe.rows order by id`.execute(tx);
      await sql`/* deferred */ with x as (update pipe.rows set n = n + 10 returning 1) select count(*) from x`.execute(
        tx,
      );
      return rows;
    });
    // Three writes and the read in one message (with begin), the marked statement with the commit.
    expect(statements).toHaveLength(2);
    expect(seen).toEqual([
      { id: 'back\\slash $1', n: 3 },
      { id: "o'brien", n: 2 },
    ]);
    const { rows } = await pool.query('select id, n, tags, doc, at, raw from pipe.rows order by id');
    expect(rows).toEqual([
      { id: 'back\\slash $1', n: 13, tags: [], doc: null, at: null, raw: Buffer.from([0, 255]) },
      { id: "o'brien", n: 12, tags: ['a', 'b,c', 'd"e', '{x}'], doc: { q: "it's" }, at, raw: null },
    ]);
  });

  it('a large batch goes statement by statement with parameters, never as one long literal text', async () => {
    const db = createPipelinedDb<Db>(pool);
    await pool.query('delete from pipe.rows');
    statements = [];
    const big = 'x'.repeat(100_000);
    await db.transaction().execute(async (tx) => {
      await tx
        .insertInto('pipe.rows')
        .values({ id: 'big', n: 1, tags: [big], doc: null, at: null })
        .execute();
      await tx.selectFrom('pipe.rows').select('id').execute();
    });
    // begin, the insert, the select, the commit: each its own message, the value a parameter.
    expect(statements).toHaveLength(4);
    expect(statements.every((text) => !text.includes(big))).toBe(true);
    expect((await pool.query("select length(tags[1]) as n from pipe.rows where id = 'big'")).rows[0].n).toBe(100_000);
  });

  it('a held write that fails fails the transaction: nothing of it stays', async () => {
    const db = createPipelinedDb<Db>(pool);
    await pool.query('delete from pipe.rows');
    const attempt = db.transaction().execute(async (tx) => {
      await tx.insertInto('pipe.rows').values({ id: 'one', n: 1, tags: [], doc: null, at: null }).execute();
      // Held, answered at once: the duplicate key surfaces with the commit.
      await tx.insertInto('pipe.rows').values({ id: 'one', n: 2, tags: [], doc: null, at: null }).execute();
    });
    await expect(attempt).rejects.toMatchObject({ code: '23505' });
    expect((await pool.query('select count(*)::int as n from pipe.rows')).rows[0].n).toBe(0);
    // The pool is healthy afterwards.
    expect((await pool.query('select 1 as ok')).rows[0].ok).toBe(1);
  });

  it('an error thrown before anything was sent sends nothing at all', async () => {
    const db = createPipelinedDb<Db>(pool);
    statements = [];
    await expect(
      db.transaction().execute(async (tx) => {
        await tx.insertInto('pipe.rows').values({ id: 'never', n: 1, tags: [], doc: null, at: null }).execute();
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(statements).toEqual([]);
    expect((await pool.query("select count(*)::int as n from pipe.rows where id = 'never'")).rows[0].n).toBe(0);
  });

  it('inlines values as literals and leaves quoted text alone', () => {
    expect(inline({ text: `select $1, '$2', "$3", $2::int[], $10`, parameters: [...'abcdefghij'].map((c) => c) })).toBe(
      `select 'a', '$2', "$3", 'b'::int[], 'j'`,
    );
    expect(inline({ text: 'select $1', parameters: [null] })).toBe('select NULL');
    expect(inline({ text: 'select $1', parameters: ["x'; drop table t; --"] })).toBe(`select 'x''; drop table t; --'`);
    expect(() => inline({ text: 'select $2', parameters: ['a'] })).toThrow('no value for $2');
  });
});
