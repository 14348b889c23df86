import { createHash, randomBytes, randomUUID } from 'node:crypto';
import {
  type Actor,
  API_TOKEN_PREFIX,
  type ApiTokenDto,
  type ApiTokenScope,
  apiTokenLimits,
  apiTokenMessages,
  ConflictError,
  NotFoundError,
  type Role,
  roles,
  UnauthorizedError,
} from '@bugtrail/domain';
import type pg from 'pg';

/** `lastUsedAt` moves at most this often per token (api.md). */
const LAST_USED_EVERY_MS = 60_000;

type Row = {
  id: string;
  name: string;
  scope: ApiTokenScope;
  created_at: Date;
  expires_at: Date;
  last_used_at: Date | null;
  user_id?: string;
  user_name?: string | null;
};

const toDto = (row: Row, withUser: boolean): ApiTokenDto => ({
  _id: row.id,
  name: row.name,
  scope: row.scope,
  createdAt: row.created_at.toISOString(),
  expiresAt: row.expires_at.toISOString(),
  lastUsedAt: row.last_used_at?.toISOString() ?? null,
  ...(withUser && row.user_id ? { user: { _id: row.user_id, name: row.user_name ?? '' } } : {}),
});

/** The stored form of a secret: SHA-256 suffices for 256 random bits (no guessing to slow down). */
const hashOf = (secret: string) => createHash('sha256').update(secret).digest('hex');

/**
 * Personal API tokens (api.md "Integrations"), kept beside the credentials like MFA secrets
 * are: never events, never their secrets (only a hash). A token acts as its user with the
 * user's role of the moment; each use reads its row with the user's, so a deleted token, an
 * expired one or one whose user was deactivated is refused on every replica at once.
 */
export class ApiTokens {
  /** When this process last moved each token's `lastUsedAt` (bounded: cleared when large). */
  private readonly touched = new Map<string, number>();

  constructor(private readonly pool: pg.Pool) {}

  static isApiToken(bearer: string): boolean {
    return bearer.startsWith(API_TOKEN_PREFIX);
  }

  async create(
    userId: string,
    input: { name: string; scope: ApiTokenScope; expiresInDays?: number | undefined },
  ): Promise<{ token: ApiTokenDto; secret: string }> {
    const secret = `${API_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
    const days = input.expiresInDays ?? apiTokenLimits.expiresInDaysDefault;
    // One statement: counts the person's live tokens and adds this one under the limit.
    const { rows } = await this.pool.query<Row>(
      `insert into platform.api_tokens (id, user_id, name, scope, secret_hash, expires_at)
       select $1, c.user_id, $3, $4, $5, now() + make_interval(days => $6::int)
       from auth.credentials c
       where c.user_id = $2
         and (select count(*) from platform.api_tokens t where t.user_id = $2 and t.expires_at > now()) < $7
       returning id, name, scope, created_at, expires_at, last_used_at`,
      [randomUUID(), userId, input.name, input.scope, hashOf(secret), days, apiTokenLimits.perUser],
    );
    const row = rows[0];
    if (!row) throw new ConflictError(apiTokenMessages.limitReached);
    return { token: toDto(row, false), secret };
  }

  /** The caller's tokens, newest first; `all` (admins): everyone's, with their user. */
  async list(userId: string, all: boolean): Promise<ApiTokenDto[]> {
    const { rows } = await this.pool.query<Row>(
      `select t.id, t.name, t.scope, t.created_at, t.expires_at, t.last_used_at, t.user_id, c.name as user_name
       from platform.api_tokens t left join auth.credentials c on c.user_id = t.user_id
       where ($1::boolean or t.user_id = $2)
       order by t.created_at desc, t.id`,
      [all, userId],
    );
    return rows.map((row) => toDto(row, all));
  }

  /** Deletes a token of the caller's, or anyone's for an admin; 404 for a token the caller cannot see. Answers its owner. */
  async revoke(id: string, actor: Actor): Promise<{ userId: string }> {
    const { rows } = await this.pool.query<{ user_id: string }>(
      'delete from platform.api_tokens where id::text = $1 and ($2::boolean or user_id = $3) returning user_id',
      [id, actor.role === 'admin', actor.id],
    );
    if (!rows[0]) throw new NotFoundError(apiTokenMessages.notFound);
    return { userId: rows[0].user_id };
  }

  /** Deletes every token the user owns (a new password: nothing minted before it goes on working). */
  async revokeAllOf(userId: string): Promise<void> {
    await this.pool.query('delete from platform.api_tokens where user_id = $1', [userId]);
  }

  /** The actor of a live token; UnauthorizedError for anything else. */
  async verify(secret: string): Promise<Actor> {
    const { rows } = await this.pool.query<{
      id: string;
      user_id: string;
      scope: ApiTokenScope;
      role: string;
      expired: boolean;
      deactivated: boolean;
    }>(
      `select t.id, t.user_id, t.scope, c.role, t.expires_at <= now() as expired,
              c.deactivated_at is not null as deactivated
       from platform.api_tokens t join auth.credentials c on c.user_id = t.user_id
       where t.secret_hash = $1`,
      [hashOf(secret)],
    );
    const row = rows[0];
    if (!row || row.deactivated || !(roles as readonly string[]).includes(row.role)) {
      throw new UnauthorizedError(apiTokenMessages.invalid);
    }
    if (row.expired) throw new UnauthorizedError(apiTokenMessages.expired);
    await this.touch(row.id);
    return { id: row.user_id, role: row.role as Role, apiToken: { id: row.id, scope: row.scope } };
  }

  /** Moves `lastUsedAt` when it is a minute old (here, and in the row: other replicas move it too). */
  private async touch(id: string): Promise<void> {
    const now = Date.now();
    if (now - (this.touched.get(id) ?? 0) < LAST_USED_EVERY_MS) return;
    if (this.touched.size > 10_000) this.touched.clear();
    this.touched.set(id, now);
    await this.pool.query(
      `update platform.api_tokens set last_used_at = now()
       where id = $1 and (last_used_at is null or last_used_at < now() - interval '1 minute')`,
      [id],
    );
  }
}
