import { createHash, randomBytes } from 'node:crypto';
import type pg from 'pg';

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/** How long a reset link works (api.md "People"). */
export const RESET_LINK_LIFETIME_MS = 24 * 60 * 60 * 1000;

/**
 * One-time password-reset links: a 256-bit random token in the link, only its hash here.
 * A link works once, for 24 hours; a new link does not end older ones (each is one use).
 */
export class PasswordResets {
  constructor(private readonly pool: pg.Pool) {}

  async create(userId: string, now: Date): Promise<{ token: string; expiresAt: Date }> {
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(now.getTime() + RESET_LINK_LIFETIME_MS);
    await this.pool.query(
      'insert into auth.password_resets (token_hash, user_id, created_at, expires_at) values ($1, $2, $3, $4)',
      [sha256(token), userId, now, expiresAt],
    );
    return { token, expiresAt };
  }

  /** Forgets a link whose event was then not appended: it was never given to anyone. */
  async discard(token: string): Promise<void> {
    await this.pool.query('delete from auth.password_resets where token_hash = $1', [sha256(token)]);
  }

  /**
   * Uses the link up inside the caller's transaction (rolled back with it if the reset then
   * fails): the user it was made for, or null when it is unknown, used or expired.
   */
  async consume(client: pg.PoolClient, token: string, now: Date): Promise<string | null> {
    if (!token || token.length > 200) return null;
    const { rows } = await client.query<{ user_id: string }>(
      `update auth.password_resets set used_at = $2
       where token_hash = $1 and used_at is null and expires_at > $2
       returning user_id`,
      [sha256(token), now],
    );
    return rows[0]?.user_id ?? null;
  }
}
