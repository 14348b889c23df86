import { createTestDatabase } from '@bugtrail/testing';
import { type Migration, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createPool, migrate } from './db.js';
import { silentLogger } from './logger.js';

const creates = (table: string): Migration => ({
  async up(db) {
    await sql`create table ${sql.table(table)} (id int)`.execute(db);
  },
});

/** Each package numbers its own migrations: a new one of an earlier package still runs on an existing database. */
describe('migrate', () => {
  it('runs a new migration that sorts before ones already run, once', async () => {
    const database = await createTestDatabase();
    const pool = createPool(database.url, { max: 2, logger: silentLogger });
    try {
      await migrate(pool, { '0100_first': creates('first'), '0600_later_package': creates('later') });
      const grown = {
        '0100_first': creates('first'),
        '0101_added': creates('added'),
        '0600_later_package': creates('later'),
      };
      await migrate(pool, grown);
      await migrate(pool, grown);
      const { rows } = await pool.query<{ name: string }>('select name from public.bugtrail_migrations order by name');
      expect(rows.map((r) => r.name)).toEqual(['0100_first', '0101_added', '0600_later_package']);
      expect((await pool.query('select count(*)::int as n from added')).rows[0].n).toBe(0);
    } finally {
      await pool.end();
      await database.drop();
    }
  });
});
