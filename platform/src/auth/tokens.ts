import { createSecretKey, type KeyObject, randomUUID } from 'node:crypto';
import { type Actor, type Role, roles, UnauthorizedError } from '@bugtrail/domain';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import type pg from 'pg';
import type { Logger } from '../logger.js';
import { generateTokenKey, getOrCreateSecret } from '../secrets.js';
import { ApiTokens } from './api-tokens.js';

const ISSUER = 'bugtrail';
const AUDIENCE = 'bugtrail-api';
const LIFETIME_SECONDS = 7 * 24 * 60 * 60;
const REVOCATION_CHANNEL = 'bugtrail_auth';

/** `auth_ms`: when the person last proved who they are (a sign-in, or a password just typed). */
export type TokenClaims = { sub: string; role: Role; iat_ms: number; auth_ms?: number; jti: string };
type VerifiedClaims = Readonly<{ sub: string; role: Role; iatMs: number; authMs: number; expMs: number }>;
/** Tokens whose signature was checked, kept so their next requests skip the HMAC. */
const VERIFIED_KEPT = 10_000;

/**
 * Issues and verifies HS256 tokens (algorithm pinned; iss, aud and exp checked).
 * Revocation ("log out everywhere", password change) is a per-user instant kept in
 * the database and cached here, refreshed by NOTIFY so every replica agrees at once.
 */
export class TokenService {
  private readonly revokedBefore = new Map<string, number>();
  private readonly verified = new Map<string, VerifiedClaims>();
  private readonly revocationListeners = new Set<(userId: string) => void>();
  /** Personal API tokens (`btp_…`), looked up on each use. */
  readonly apiTokens: ApiTokens;
  private listener: pg.PoolClient | null = null;
  private refreshTimer: NodeJS.Timeout | null = null;
  private closed = false;

  private constructor(
    private readonly key: KeyObject,
    private readonly pool: pg.Pool,
    private readonly logger: Logger,
  ) {
    this.apiTokens = new ApiTokens(pool);
  }

  static async create(pool: pg.Pool, configuredSecret: string | undefined, logger: Logger): Promise<TokenService> {
    const secret = configuredSecret ?? (await getOrCreateSecret(pool, 'jwt_secret', generateTokenKey));
    const key = new TextEncoder().encode(secret);
    if (key.length < 32) throw new Error('JWT_SECRET must be at least 32 bytes (256 bits)');
    // A KeyObject lets jose use node:crypto's HMAC directly; a raw byte array makes it
    // import a WebCrypto key on every sign and verify (measured: ~4% of a write's CPU).
    const service = new TokenService(createSecretKey(key), pool, logger);
    await service.refresh();
    await service.listen();
    return service;
  }

  /**
   * A session token. `authenticatedAtMs`: when its holder proved who they are; now unless it
   * replaces a token whose proof is older (a role change keeps the old sign-in's time).
   */
  async issue(user: { id: string; role: Role }, options: { authenticatedAtMs?: number } = {}): Promise<string> {
    // A token issued after a revocation must outlive it, even within the same millisecond.
    const iatMs = Math.max(Date.now(), (this.revokedBefore.get(user.id) ?? 0) + 1);
    return new SignJWT({ role: user.role, iat_ms: iatMs, auth_ms: Math.min(options.authenticatedAtMs ?? iatMs, iatMs) })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(user.id)
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setJti(randomUUID())
      .setIssuedAt(Math.floor(iatMs / 1000))
      .setExpirationTime(Math.floor(iatMs / 1000) + LIFETIME_SECONDS)
      .sign(this.key);
  }

  /** The actor of a valid token; UnauthorizedError for anything else. */
  async verify(token: string): Promise<Actor> {
    if (ApiTokens.isApiToken(token)) return this.apiTokens.verify(token);
    const claims = this.verified.get(token) ?? (await this.verifySignature(token));
    // Expiry and revocation are asked every time; only the signature check is remembered.
    if (Date.now() >= claims.expMs) {
      this.verified.delete(token);
      throw new UnauthorizedError('Token expired');
    }
    if (claims.iatMs <= (this.revokedBefore.get(claims.sub) ?? 0)) throw new UnauthorizedError('Token revoked');
    return { id: claims.sub, role: claims.role };
  }

  /**
   * When the holder of this session token last proved who they are (ms), or null for an API
   * token or an invalid one. For "a sign-in within the last 5 minutes" (fresh proof).
   */
  async authenticatedAt(token: string): Promise<number | null> {
    if (ApiTokens.isApiToken(token)) return null;
    try {
      const claims = this.verified.get(token) ?? (await this.verifySignature(token));
      return claims.authMs;
    } catch {
      return null;
    }
  }

  /**
   * The claims of a token whose signature, algorithm, issuer, audience and expiry jose
   * checked; kept for its next requests (a bounded, oldest-out map keyed by the whole token:
   * nothing enters it without a valid signature).
   */
  private async verifySignature(token: string): Promise<VerifiedClaims> {
    let payload: Partial<TokenClaims> & { exp?: number };
    try {
      ({ payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'], issuer: ISSUER, audience: AUDIENCE }));
    } catch (error) {
      if (error instanceof joseErrors.JWTExpired) throw new UnauthorizedError('Token expired');
      throw new UnauthorizedError('Not authorized, token failed');
    }
    const { sub, role, iat_ms: iatMs, auth_ms: authMs, exp } = payload;
    if (!sub || !(roles as readonly unknown[]).includes(role) || typeof iatMs !== 'number' || typeof exp !== 'number') {
      throw new UnauthorizedError('Not authorized, token failed');
    }
    // Tokens from before `auth_ms` existed were issued at their sign-in.
    const authenticatedMs = typeof authMs === 'number' ? authMs : iatMs;
    const claims: VerifiedClaims = { sub, role: role as Role, iatMs, authMs: authenticatedMs, expMs: exp * 1000 };
    if (this.verified.size >= VERIFIED_KEPT) {
      const oldest = this.verified.keys().next().value;
      if (oldest !== undefined) this.verified.delete(oldest);
    }
    this.verified.set(token, claims);
    return claims;
  }

  /** Every token of the user issued up to now stops working, on every replica. */
  async revokeAll(userId: string): Promise<void> {
    const at = Math.max(Date.now(), (this.revokedBefore.get(userId) ?? 0) + 1);
    const { rows } = await this.pool.query<{ revoked_before_ms: number }>(
      `insert into platform.token_revocations (user_id, revoked_before_ms) values ($1, $2)
       on conflict (user_id) do update set revoked_before_ms = greatest(platform.token_revocations.revoked_before_ms, excluded.revoked_before_ms)
       returning revoked_before_ms`,
      [userId, at],
    );
    const value = Number(rows[0]?.revoked_before_ms ?? at);
    this.markRevoked(userId, value);
    await this.pool.query('select pg_notify($1, $2)', [REVOCATION_CHANNEL, JSON.stringify({ userId, at: value })]);
  }

  /**
   * A new password (changed or reset): every session token issued so far and every API token
   * the user owns stop at once, on every replica, and their live streams close. The API tokens
   * go first, so the streams' re-check that `revokeAll` sets off finds them gone.
   */
  async endEverything(userId: string): Promise<void> {
    await this.apiTokens.revokeAllOf(userId);
    await this.revokeAll(userId);
  }

  /**
   * Calls `listener` with the user's id whenever their tokens are revoked, here or on another
   * replica (live streams end at once instead of at their next heartbeat). Returns the unsubscribe.
   */
  onRevoked(listener: (userId: string) => void): () => void {
    this.revocationListeners.add(listener);
    return () => this.revocationListeners.delete(listener);
  }

  /**
   * One of the user's credentials ended without the others (an API token deleted): the
   * revocation listeners recheck the user's streams here and on every replica.
   */
  async credentialRevoked(userId: string): Promise<void> {
    this.tellRevocationListeners(userId);
    await this.pool.query('select pg_notify($1, $2)', [REVOCATION_CHANNEL, JSON.stringify({ userId })]);
  }

  private markRevoked(userId: string, at: number): void {
    const before = this.revokedBefore.get(userId) ?? 0;
    if (at <= before) return;
    this.revokedBefore.set(userId, at);
    this.tellRevocationListeners(userId);
  }

  private tellRevocationListeners(userId: string): void {
    for (const listener of this.revocationListeners) {
      try {
        listener(userId);
      } catch (error) {
        this.logger.warn('token revocation listener failed', { error });
      }
    }
  }

  private async refresh(): Promise<void> {
    const { rows } = await this.pool.query<{ user_id: string; revoked_before_ms: number }>(
      'select user_id, revoked_before_ms from platform.token_revocations',
    );
    for (const row of rows) this.markRevoked(row.user_id, Number(row.revoked_before_ms));
  }

  private async listen(): Promise<void> {
    try {
      const client = await this.pool.connect();
      client.on('notification', (msg) => {
        if (msg.channel !== REVOCATION_CHANNEL || !msg.payload) return;
        const { userId, at } = JSON.parse(msg.payload) as { userId: string; at?: number };
        if (at === undefined) this.tellRevocationListeners(userId);
        else this.markRevoked(userId, at);
      });
      client.on('error', () => {
        if (this.listener !== client) return;
        this.listener = null;
        client.release(true);
        if (!this.closed)
          setTimeout(
            () =>
              void this.refresh()
                .then(() => this.listen())
                .catch(() => {}),
            1000,
          ).unref();
      });
      await client.query(`listen ${REVOCATION_CHANNEL}`);
      this.listener = client;
    } catch (error) {
      this.logger.warn('token revocation listener unavailable; polling', { error });
    }
    // A fallback for notifications lost while the listener was down.
    this.refreshTimer ??= setInterval(() => void this.refresh().catch(() => {}), 30_000).unref();
  }

  async close(): Promise<void> {
    if (this.refreshTimer) clearInterval(this.refreshTimer);
    const client = this.listener;
    this.listener = null;
    client?.release();
    this.closed = true;
  }
}
