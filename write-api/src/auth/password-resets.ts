import { createHash, randomBytes } from 'node:crypto';
import type pg from 'pg';

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/** How long a reset link works (api.md "People"). */
export const RESET_LINK_LIFETIME_MS = 24 * 60 * 60 * 1000;

/** A link about to be made: its token (told once, never stored) and when it ends. */
export type NewResetLink = Readonly<{ token: string; expiresAt: Date }>;

/**
 * One-time password-reset links: a 256-bit random token in the link, only its hash here.
 * A link works once, for 24 hours; a new link does not end older ones (each is one use).
 * A link is stored and used up in the transaction of its user event (ADR 026): there is
 * never a link without its `PasswordResetRequested`, nor a used one without the reset.
 */
export class PasswordResets {
  constructor(private readonly pool: pg.Pool) {}

  /** A new link's token and end; `store` keeps it with the event's append. */
  static newLink(now: Date): NewResetLink {
    return {
      token: randomBytes(32).toString('base64url'),
      expiresAt: new Date(now.getTime() + RESET_LINK_LIFETIME_MS),
    };
  }

  async store(tx: pg.ClientBase, link: NewResetLink, userId: string, now: Date): Promise<void> {
    await tx.query(
      'insert into auth.password_resets (token_hash, user_id, created_at, expires_at) values ($1, $2, $3, $4)',
      [sha256(link.token), userId, now, link.expiresAt],
    );
  }

  /** Whose link this is while it still works: the user it was made for, or null. */
  async holder(token: string, now: Date): Promise<string | null> {
    if (!token || token.length > 200) return null;
    const { rows } = await this.pool.query<{ user_id: string }>(
      'select user_id from auth.password_resets where token_hash = $1 and used_at is null and expires_at > $2',
      [sha256(token), now],
    );
    return rows[0]?.user_id ?? null;
  }

  /**
   * Uses the link up inside the reset's transaction: the user it was made for, or null when it
   * is unknown, used or expired (by now, perhaps by a reset that raced this one).
   */
  async consume(tx: pg.ClientBase, token: string, now: Date): Promise<string | null> {
    if (!token || token.length > 200) return null;
    const { rows } = await tx.query<{ user_id: string }>(
      `update auth.password_resets set used_at = $2
       where token_hash = $1 and used_at is null and expires_at > $2
       returning user_id`,
      [sha256(token), now],
    );
    return rows[0]?.user_id ?? null;
  }
}
