import { randomBytes, randomInt } from 'node:crypto';
import type pg from 'pg';

/**
 * Generated secrets live in the database, so every replica agrees on them
 * (the token key when JWT_SECRET is unset, the bootstrap admin invite code).
 */
export async function getOrCreateSecret(pool: pg.Pool, name: string, generate: () => string): Promise<string> {
  await pool.query('insert into platform.secrets (name, value) values ($1, $2) on conflict (name) do nothing', [
    name,
    generate(),
  ]);
  const { rows } = await pool.query<{ value: string }>('select value from platform.secrets where name = $1', [name]);
  const value = rows[0]?.value;
  if (!value) throw new Error(`secret ${name} missing`);
  return value;
}

export async function setSecret(pool: pg.Pool, name: string, value: string): Promise<void> {
  await pool.query(
    'insert into platform.secrets (name, value) values ($1, $2) on conflict (name) do update set value = excluded.value',
    [name, value],
  );
}

export const generateTokenKey = () => randomBytes(32).toString('base64url');
export const generateSixDigitCode = () => String(randomInt(0, 1_000_000)).padStart(6, '0');
