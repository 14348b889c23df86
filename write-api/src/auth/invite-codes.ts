import { createHash, timingSafeEqual } from 'node:crypto';
import type { InvitedRole } from '@bugtrail/domain';
import { generateSixDigitCode, getOrCreateSecret } from '@bugtrail/platform';
import type pg from 'pg';

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

function sameCode(a: string, b: string): boolean {
  const x = Buffer.from(sha256(a));
  const y = Buffer.from(sha256(b));
  return timingSafeEqual(x, y);
}

/** Whom a code signs up: an admin, or an invited tester or developer. */
export type CodeRole = 'admin' | InvitedRole;

/** How long a minted code lives: an admin code a day (api.md "Auth"), an invitation a week. */
const lifetimeMs = (role: CodeRole) => (role === 'admin' ? 1 : 7) * 24 * 60 * 60 * 1000;

/** When a code minted now for `role` stops opening signups. */
export const codeExpiry = (now: Date, role: CodeRole): Date => new Date(now.getTime() + lifetimeMs(role));

/**
 * Invite codes: the bootstrap code (ADMIN_INVITE_CODE, or one generated at first start
 * and kept in the database) stays valid until changed and opens an admin signup; codes an
 * admin mints are 6 digits, single use, stored only as hashes, each for one role: an admin
 * (valid 24 hours) or, when sign-up is by invitation, a tester or developer (valid 7 days).
 */
export class InviteCodes {
  private constructor(
    private readonly pool: pg.Pool,
    readonly bootstrapCode: string,
  ) {}

  static async create(pool: pg.Pool, configured: string | undefined): Promise<InviteCodes> {
    const code = configured ?? (await getOrCreateSecret(pool, 'admin_invite_code', generateSixDigitCode));
    return new InviteCodes(pool, code);
  }

  /**
   * A new code under the id `id` (the caller appends InviteCodeMinted with it). A row whose
   * code was used, revoked or expired may be reused for a new code of the same digits.
   */
  async mint(
    id: string,
    createdBy: string,
    now: Date,
    role: CodeRole = 'admin',
    db: pg.ClientBase | pg.Pool = this.pool,
  ): Promise<{ code: string; expiresAt: Date }> {
    const expiresAt = codeExpiry(now, role);
    for (;;) {
      const code = generateSixDigitCode();
      if (sameCode(code, this.bootstrapCode)) continue;
      const { rowCount } = await db.query(
        `insert into auth.invite_codes (code_hash, id, created_by, created_at, expires_at, role)
         values ($1, $5, $2, $3, $4, $6)
         on conflict (code_hash) do update set id = excluded.id, created_by = excluded.created_by,
           created_at = excluded.created_at, expires_at = excluded.expires_at, used_at = null, used_by = null,
           revoked_at = null, role = excluded.role
         where auth.invite_codes.used_at is not null or auth.invite_codes.revoked_at is not null
           or auth.invite_codes.expires_at < $3`,
        [sha256(code), createdBy, now, expiresAt, id, role],
      );
      if (rowCount === 1) return { code, expiresAt };
    }
  }

  /**
   * Whether the code opens a signup as `role`, without using it up: 'bootstrap' (admins only),
   * the minted code's id, or null. A code minted for another role opens nothing.
   */
  async check(code: string, now: Date, role: CodeRole = 'admin'): Promise<'bootstrap' | { id: string } | null> {
    const trimmed = code.trim();
    if (role === 'admin' && sameCode(trimmed, this.bootstrapCode)) return 'bootstrap';
    const { rows } = await this.pool.query<{ id: string | null }>(
      `select id from auth.invite_codes
       where code_hash = $1 and used_at is null and revoked_at is null and expires_at > $2 and role = $3`,
      [sha256(trimmed), now, role],
    );
    const row = rows[0];
    if (!row) return null;
    return row.id ? { id: row.id } : 'bootstrap';
  }

  /**
   * Uses up the stored code `check` found, in the transaction of the signup's append: false when
   * it no longer opens anything (a signup racing this one took it first). The bootstrap code is
   * not stored and never used up.
   */
  async consume(
    tx: pg.ClientBase,
    code: string,
    usedBy: string,
    now: Date,
    role: CodeRole = 'admin',
  ): Promise<boolean> {
    const trimmed = code.trim();
    if (role === 'admin' && sameCode(trimmed, this.bootstrapCode)) return true;
    const { rowCount } = await tx.query(
      `update auth.invite_codes set used_at = $2, used_by = $3
       where code_hash = $1 and used_at is null and revoked_at is null and expires_at > $2 and role = $4`,
      [sha256(trimmed), now, usedBy, role],
    );
    return rowCount === 1;
  }

  /** A revoked code opens nothing from now on. False when there is no such unused code. */
  async revoke(id: string, now: Date, db: pg.ClientBase | pg.Pool = this.pool): Promise<boolean> {
    const { rowCount } = await db.query(
      'update auth.invite_codes set revoked_at = coalesce(revoked_at, $2) where id = $1 and used_at is null',
      [id, now],
    );
    return rowCount === 1;
  }
}
