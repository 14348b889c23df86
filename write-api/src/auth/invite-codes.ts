import { createHash, timingSafeEqual } from 'node:crypto';
import { generateSixDigitCode, getOrCreateSecret } from '@bugtrail/platform';
import type pg from 'pg';

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

function sameCode(a: string, b: string): boolean {
  const x = Buffer.from(sha256(a));
  const y = Buffer.from(sha256(b));
  return timingSafeEqual(x, y);
}

/**
 * Admin invite codes: the bootstrap code (ADMIN_INVITE_CODE, or one generated at
 * first start and kept in the database) stays valid until changed; codes an admin
 * mints are 6 digits, single use, valid 24 hours, stored only as hashes.
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
  async mint(id: string, createdBy: string, now: Date): Promise<{ code: string; expiresAt: Date }> {
    const expiresAt = new Date(now.getTime() + 24 * 60 * 60 * 1000);
    for (;;) {
      const code = generateSixDigitCode();
      if (sameCode(code, this.bootstrapCode)) continue;
      const { rowCount } = await this.pool.query(
        `insert into auth.invite_codes (code_hash, id, created_by, created_at, expires_at) values ($1, $5, $2, $3, $4)
         on conflict (code_hash) do update set id = excluded.id, created_by = excluded.created_by,
           created_at = excluded.created_at, expires_at = excluded.expires_at, used_at = null, used_by = null,
           revoked_at = null
         where auth.invite_codes.used_at is not null or auth.invite_codes.revoked_at is not null
           or auth.invite_codes.expires_at < $3`,
        [sha256(code), createdBy, now, expiresAt, id],
      );
      if (rowCount === 1) return { code, expiresAt };
    }
  }

  /** Forgets a code minted for an event that was then not appended. */
  async discard(id: string): Promise<void> {
    await this.pool.query('delete from auth.invite_codes where id = $1 and used_at is null', [id]);
  }

  /**
   * Whether the code opens an admin signup: 'bootstrap', the minted code's id (used up by
   * this call), or null.
   */
  async consume(code: string, usedBy: string, now: Date): Promise<'bootstrap' | { id: string } | null> {
    const trimmed = code.trim();
    if (sameCode(trimmed, this.bootstrapCode)) return 'bootstrap';
    const { rows } = await this.pool.query<{ id: string | null }>(
      `update auth.invite_codes set used_at = $2, used_by = $3
       where code_hash = $1 and used_at is null and revoked_at is null and expires_at > $2
       returning id`,
      [sha256(trimmed), now, usedBy],
    );
    const row = rows[0];
    if (!row) return null;
    return row.id ? { id: row.id } : 'bootstrap';
  }

  /** A revoked code opens nothing from now on. False when there is no such unused code. */
  async revoke(id: string, now: Date): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      'update auth.invite_codes set revoked_at = coalesce(revoked_at, $2) where id = $1 and used_at is null',
      [id, now],
    );
    return rowCount === 1;
  }

  /** Gives back a minted code consumed for a signup that then failed (nothing was created with it). */
  async release(usedBy: string): Promise<void> {
    await this.pool.query('update auth.invite_codes set used_at = null, used_by = null where used_by = $1', [usedBy]);
  }
}
