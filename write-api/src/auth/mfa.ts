import { createHash, randomBytes, randomInt } from 'node:crypto';
import { ConflictError, RateLimitedError, UnauthorizedError, ValidationError } from '@bugtrail/domain';
import { inTransaction } from '@bugtrail/platform';
import { Secret, TOTP } from 'otpauth';
import type pg from 'pg';
import type { MfaSecretBox } from './mfa-secret-box.js';
import { tooManyAttempts } from './rate-limits.js';

/**
 * Optional TOTP second factor (api.md "Account safety"). Like the password hash it lives
 * write-side in the `auth` schema and never in an event: the secret, the hashes of the
 * recovery codes, and the short-lived login challenges (`mfaToken`s).
 *
 * - TOTP as RFC 6238 (HMAC-SHA1, 6 digits, 30 s steps, a 32-character base32 secret without
 *   padding), one step of clock drift either way. A code works once: the last step used is
 *   kept, and only a later one is accepted.
 * - Ten recovery codes, each good for one sign-in or one disable, stored as SHA-256 hashes
 *   (salted with the user id; 50 random bits each).
 * - A correct password of an MFA user buys an `mfaToken`: 32 random bytes, stored hashed, valid
 *   5 minutes, for `/mfa/verify` only. It is no JWT, so requireAuth refuses it everywhere.
 * - Guessing is capped twice: 5 codes per mfaToken (then it is spent), and 10 wrong codes (or
 *   wrong passwords on disable) per user per 15 minutes across every MFA call, so fetching new
 *   mfaTokens buys no more guesses. Each attempt is counted before it is checked, in one
 *   statement, so parallel guesses cannot slip past either cap.
 */

export const mfaLimits = {
  issuer: 'Bugtrail',
  periodSeconds: 30,
  digits: 6,
  /** Steps accepted before and after the current one. */
  window: 1,
  challengeSeconds: 5 * 60,
  attemptsPerChallenge: 5,
  wrongCodesPerUser: 10,
  wrongCodeWindowSeconds: 15 * 60,
  recoveryCodes: 10,
} as const;

export const mfaMessages = {
  codeRequired: 'Authentication code is required',
  codeInvalid: 'Invalid authentication code',
  mfaTokenRequired: 'mfaToken is required',
  challengeExpired: 'Two-factor sign-in expired. Please log in again',
  notSetUp: 'Set up two-factor authentication first',
  notEnabled: 'Two-factor authentication is not enabled',
  alreadyEnabled: 'Two-factor authentication is already enabled',
  setupChanged: 'Two-factor setup changed. Please scan the new code and try again',
} as const;

type Db = pg.Pool | pg.PoolClient;

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/** A new base32 secret (160 bits, as RFC 4226 recommends: 32 characters, no padding). */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The key URI authenticator apps scan; the email keeps its `@`, anything else URI-unsafe is escaped. */
export function otpauthUrl(email: string, secret: string): string {
  const account = encodeURIComponent(email).replace(/%40/g, '@');
  return `otpauth://totp/${mfaLimits.issuer}:${account}?secret=${secret}&issuer=${mfaLimits.issuer}`;
}

/** The time step a 6-digit code belongs to, or null when it matches none within the window. */
export function totpStep(secret: string, code: string, at: Date): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = TOTP.validate({
    token: code,
    secret: Secret.fromBase32(secret),
    algorithm: 'SHA1',
    digits: mfaLimits.digits,
    period: mfaLimits.periodSeconds,
    timestamp: at.getTime(),
    window: mfaLimits.window,
  });
  if (delta === null) return null;
  return Math.floor(at.getTime() / 1000 / mfaLimits.periodSeconds) + delta;
}

/** What the user typed: spaces dropped (apps show "123 456"); a recovery code also loses its dash and case. */
function normaliseCode(code: string): { totp: string } | { recovery: string } {
  const compact = code.replace(/\s+/g, '');
  if (/^\d{6}$/.test(compact)) return { totp: compact };
  return { recovery: compact.replace(/-/g, '').toLowerCase() };
}

// No 0/o, 1/l/i: codes are read off paper.
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

function newRecoveryCode(): string {
  let code = '';
  for (let i = 0; i < 10; i += 1) code += RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)];
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

const recoveryHash = (userId: string, normalised: string) => sha256(`${userId}:${normalised}`);

/** `secret`: the base32 secret, opened; `stored`: the column as it is (sealed, or plain from before). */
export type MfaRow = { secret: string; stored: string; isEnabled: boolean };

export async function findMfa(db: Db, userId: string, box: MfaSecretBox): Promise<MfaRow | null> {
  const { rows } = await db.query<{ secret: string; enabled_at: Date | null }>(
    'select secret, enabled_at from auth.mfa where user_id = $1',
    [userId],
  );
  const row = rows[0];
  return row ? { secret: box.open(userId, row.secret), stored: row.secret, isEnabled: row.enabled_at !== null } : null;
}

/** A fresh pending secret (replacing an earlier pending one), stored sealed; 409 when MFA is already on. */
export async function beginSetup(db: Db, userId: string, at: Date, box: MfaSecretBox): Promise<string> {
  const secret = newTotpSecret();
  const { rowCount } = await db.query(
    `insert into auth.mfa (user_id, secret, created_at) values ($1, $2, $3)
     on conflict (user_id) do update set secret = excluded.secret, last_used_step = null, created_at = excluded.created_at
     where auth.mfa.enabled_at is null`,
    [userId, box.seal(userId, secret), at],
  );
  if (rowCount !== 1) throw new ConflictError(mfaMessages.alreadyEnabled);
  return secret;
}

/**
 * Counts one attempt against the user's budget of wrong codes before it is checked (a
 * success gives it back with `forgiveAttempts`); 429 once the budget is spent.
 */
export async function countAttempt(db: Db, userId: string, at: Date): Promise<void> {
  const windowStart = new Date(at.getTime() - mfaLimits.wrongCodeWindowSeconds * 1000);
  const { rowCount } = await db.query(
    `update auth.mfa set
       failed_codes = case when failed_since is null or failed_since <= $2 then 1 else failed_codes + 1 end,
       failed_since = case when failed_since is null or failed_since <= $2 then $3 else failed_since end
     where user_id = $1 and (failed_since is null or failed_since <= $2 or failed_codes < $4)`,
    [userId, windowStart, at, mfaLimits.wrongCodesPerUser],
  );
  if (rowCount === 1) return;
  const { rows } = await db.query<{ failed_since: Date | null }>(
    'select failed_since from auth.mfa where user_id = $1',
    [userId],
  );
  const since = rows[0]?.failed_since;
  if (!since) return; // no MFA row (disabled meanwhile): the caller's own check answers
  const retryAfterMs = since.getTime() + mfaLimits.wrongCodeWindowSeconds * 1000 - at.getTime();
  throw new RateLimitedError(tooManyAttempts, Math.max(1, Math.ceil(retryAfterMs / 1000)));
}

export async function forgiveAttempts(db: Db, userId: string): Promise<void> {
  await db.query('update auth.mfa set failed_codes = 0, failed_since = null where user_id = $1', [userId]);
}

/**
 * True when `code` is a TOTP code of the enabled secret not used before (it is used up now), or,
 * if allowed, an unused recovery code (used up now).
 */
export async function useCode(
  db: Db,
  userId: string,
  secret: string,
  code: string,
  at: Date,
  options: { allowRecovery: boolean },
): Promise<boolean> {
  const typed = normaliseCode(code);
  if ('totp' in typed) {
    const step = totpStep(secret, typed.totp, at);
    if (step === null) return false;
    const { rowCount } = await db.query(
      `update auth.mfa set last_used_step = $2
       where user_id = $1 and enabled_at is not null and (last_used_step is null or last_used_step < $2)`,
      [userId, step],
    );
    return rowCount === 1;
  }
  if (!options.allowRecovery || !/^[a-z0-9]{10}$/.test(typed.recovery)) return false;
  const { rowCount } = await db.query(
    `update auth.mfa_recovery_codes set used_at = $3 where user_id = $1 and code_hash = $2 and used_at is null`,
    [userId, recoveryHash(userId, typed.recovery), at],
  );
  return rowCount === 1;
}

/**
 * Turns the pending secret on when `code` matches it, and answers ten new recovery codes
 * (their hashes replace any older ones). 400 without a setup, 409 when already on, null for
 * a wrong code (the caller answers it).
 */
export async function enable(
  pool: pg.Pool,
  userId: string,
  code: string,
  at: Date,
  box: MfaSecretBox,
): Promise<string[] | null> {
  const mfa = await findMfa(pool, userId, box);
  if (!mfa) throw ValidationError.field('code', mfaMessages.notSetUp);
  if (mfa.isEnabled) throw new ConflictError(mfaMessages.alreadyEnabled);
  await countAttempt(pool, userId, at);
  const typed = normaliseCode(code);
  const step = 'totp' in typed ? totpStep(mfa.secret, typed.totp, at) : null;
  if (step === null) return null;
  const codes = Array.from({ length: mfaLimits.recoveryCodes }, newRecoveryCode);
  const client = await pool.connect();
  try {
    await client.query('begin');
    const { rowCount } = await client.query(
      `update auth.mfa set enabled_at = $3, last_used_step = $4, failed_codes = 0, failed_since = null
       where user_id = $1 and secret = $2 and enabled_at is null`,
      [userId, mfa.stored, at, step],
    );
    if (rowCount !== 1) throw new ConflictError(mfaMessages.setupChanged);
    await client.query('delete from auth.mfa_recovery_codes where user_id = $1', [userId]);
    await client.query(
      `insert into auth.mfa_recovery_codes (user_id, code_hash)
       select $1, unnest($2::text[])`,
      [userId, codes.map((c) => recoveryHash(userId, c.replace('-', '')))],
    );
    await client.query('commit');
  } catch (error) {
    await client.query('rollback').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
  return codes;
}

/** Whether the user has begun setting MFA up or has it on. */
export async function hasMfa(db: Db, userId: string): Promise<boolean> {
  const { rowCount } = await db.query('select 1 from auth.mfa where user_id = $1', [userId]);
  return Boolean(rowCount);
}

/** MFA off: the secret, the recovery codes and any open challenge go, in the caller's transaction. */
export async function removeMfa(tx: pg.ClientBase, userId: string): Promise<void> {
  await tx.query('delete from auth.mfa_challenges where user_id = $1', [userId]);
  await tx.query('delete from auth.mfa_recovery_codes where user_id = $1', [userId]);
  await tx.query('delete from auth.mfa where user_id = $1', [userId]);
}

/** MFA off, on its own. */
export async function disable(pool: pg.Pool, userId: string): Promise<void> {
  await inTransaction(pool, (client) => removeMfa(client, userId));
}

export type MfaChallengeAnswer = { mfaRequired: true; mfaToken: string };

/**
 * For /login after the password checked out: null when the user has no MFA (the normal
 * answer follows), else a new mfaToken. Expired challenges of the user are swept here.
 */
export async function startMfaChallenge(pool: pg.Pool, userId: string, at: Date): Promise<MfaChallengeAnswer | null> {
  const { rows } = await pool.query('select 1 from auth.mfa where user_id = $1 and enabled_at is not null', [userId]);
  if (rows.length === 0) return null;
  const mfaToken = randomBytes(32).toString('base64url');
  await pool.query('delete from auth.mfa_challenges where user_id = $1 and (expires_at <= $2 or used_at is not null)', [
    userId,
    at,
  ]);
  await pool.query('insert into auth.mfa_challenges (token_hash, user_id, expires_at) values ($1, $2, $3)', [
    sha256(mfaToken),
    userId,
    new Date(at.getTime() + mfaLimits.challengeSeconds * 1000),
  ]);
  return { mfaRequired: true, mfaToken };
}

/**
 * Counts one code attempt on a live challenge and answers its user; 401 when the token is
 * unknown, expired, used, or out of attempts (then it is dead for good).
 */
export async function attemptChallenge(db: Db, mfaToken: string, at: Date): Promise<string> {
  const { rows } = await db.query<{ user_id: string }>(
    `update auth.mfa_challenges set attempts = attempts + 1
     where token_hash = $1 and used_at is null and expires_at > $2 and attempts < $3
     returning user_id`,
    [sha256(mfaToken), at, mfaLimits.attemptsPerChallenge],
  );
  const userId = rows[0]?.user_id;
  if (!userId) throw new UnauthorizedError(mfaMessages.challengeExpired);
  return userId;
}

/** Spends the challenge on success: an mfaToken gives one session at most. */
export async function completeChallenge(db: Db, mfaToken: string, at: Date): Promise<void> {
  const { rowCount } = await db.query(
    'update auth.mfa_challenges set used_at = $2 where token_hash = $1 and used_at is null',
    [sha256(mfaToken), at],
  );
  if (rowCount !== 1) throw new UnauthorizedError(mfaMessages.challengeExpired);
}
