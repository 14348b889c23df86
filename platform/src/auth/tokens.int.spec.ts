import { createTestDatabase } from '@bugtrail/testing';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { migrate } from '../db.js';
import { silentLogger } from '../logger.js';
import { platformMigrations } from '../migrations.js';
import { TokenService } from './tokens.js';

describe('token verification, remembered per token', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let pool: pg.Pool;
  let tokens: TokenService;

  beforeAll(async () => {
    database = await createTestDatabase();
    pool = new pg.Pool({ connectionString: database.url, max: 4 });
    pool.on('error', () => {});
    await migrate(pool, platformMigrations);
    tokens = await TokenService.create(pool, 'a-test-secret-of-at-least-thirty-two-bytes!', silentLogger);
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  afterAll(async () => {
    await tokens.close();
    await pool.end();
    await database.drop();
  });

  it('a token checked once is still refused after its user is revoked', async () => {
    const token = await tokens.issue({ id: 'user-1', role: 'tester' });
    expect(await tokens.verify(token)).toEqual({ id: 'user-1', role: 'tester' });
    expect(await tokens.verify(token)).toEqual({ id: 'user-1', role: 'tester' });
    await tokens.revokeAll('user-1');
    await expect(tokens.verify(token)).rejects.toThrow('Token revoked');
    // A token issued after the revocation works.
    const fresh = await tokens.issue({ id: 'user-1', role: 'tester' });
    expect(await tokens.verify(fresh)).toEqual({ id: 'user-1', role: 'tester' });
  });

  it('a token checked once is refused once it expires', async () => {
    const token = await tokens.issue({ id: 'user-2', role: 'developer' });
    expect(await tokens.verify(token)).toEqual({ id: 'user-2', role: 'developer' });
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 7 * 24 * 60 * 60 * 1000 + 1000 });
    await expect(tokens.verify(token)).rejects.toThrow('Token expired');
    await expect(tokens.verify(token)).rejects.toThrow('Token expired');
  });

  it('a changed character anywhere makes a different, refused token', async () => {
    const token = await tokens.issue({ id: 'user-3', role: 'admin' });
    await tokens.verify(token);
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const flip = (s: string) => `${s.slice(0, -2)}${s.at(-2) === 'A' ? 'B' : 'A'}${s.at(-1)}`;
    for (const forged of [
      `${header}.${payload}.${flip(signature)}`,
      `${header}.${flip(payload)}.${signature}`,
      `${token}x`,
    ]) {
      await expect(tokens.verify(forged)).rejects.toThrow('Not authorized, token failed');
    }
  });
});
