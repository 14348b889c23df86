import type pg from 'pg';
import { expect } from 'vitest';

/** How many events the store holds (the PostgreSQL adapter's table). */
export async function countStoredEvents(pool: pg.Pool): Promise<number> {
  return Number((await pool.query('select count(*)::int as n from eventstore.events')).rows[0].n);
}

/**
 * Asserts a call is refused with `status` and a message saying why, and that nothing was
 * appended ("a failed command appends nothing"). Answers the refusal for further checks.
 */
export async function expectRefused(
  pool: pg.Pool,
  status: number,
  call: () => Promise<{ status: number; body: any }>,
): Promise<{ status: number; body: any }> {
  const before = await countStoredEvents(pool);
  const answer = await call();
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  expect(typeof answer.body?.message).toBe('string');
  expect(await countStoredEvents(pool)).toBe(before);
  return answer;
}
