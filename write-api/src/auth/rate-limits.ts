import { RateLimitedError } from '@bugtrail/domain';
import type { Config } from '@bugtrail/platform';
import type pg from 'pg';

/**
 * Rate limits (api.md "Account safety"), counted in PostgreSQL so every replica shares
 * them: failed logins per (account, client address) and per address, wrong invite codes
 * per address, anonymous uploads per address: fixed windows of `windowSeconds`. Forgot-password
 * mails per address and per client address: fixed windows of an hour.
 *
 * An attempt is reserved BEFORE the password or code is checked, with one upsert that
 * adds it and returns the new count: N parallel attempts can never have more than the
 * limit checked. A successful attempt gives its reservation back.
 */
export class RateLimits {
  private nextSweepAt = 0;

  constructor(
    private readonly pool: pg.Pool,
    private readonly config: Config['rateLimits'],
  ) {}

  /** One login attempt from `address` for `email`; `succeeded()` once the password matched. */
  async reserveLogin(address: string, email: string): Promise<Reservation> {
    const account = JSON.stringify([email, address]);
    const [byAddress] = await this.reserve(
      [
        // The address first: every statement touching both rows locks them in this order.
        { bucket: 'login-address', key: address, limit: this.config.failedLoginsPerIp },
        { bucket: 'login-account', key: account, limit: this.config.failedLoginsPerAccount },
      ],
      tooManyAttempts,
    );
    return {
      succeeded: async () => {
        await this.giveBack(byAddress!);
        // The owner's own typos are forgiven once they get in (from that address only).
        await this.pool.query('delete from auth.rate_limits where bucket = $1 and key = $2', [
          'login-account',
          account,
        ]);
      },
    };
  }

  /**
   * One invite code tried from `address`; `succeeded()` once the code was valid. Wrong codes are
   * limited per address, and from all addresses together (`wrongInviteCodesTotal`): 60 addresses
   * of 10 tries each must not add up to 600 guesses at six digits. Only an attempt its own
   * address may make counts toward the total, so one address cannot use it up by itself.
   */
  async reserveInviteCode(address: string): Promise<Reservation> {
    const [bySource] = await this.reserve(
      [{ bucket: 'invite-address', key: address, limit: this.config.wrongInviteCodesPerIp }],
      tooManyAttempts,
    );
    let overall: Slot | undefined;
    try {
      [overall] = await this.reserve(
        [{ bucket: 'invite-all', key: '*', limit: this.config.wrongInviteCodesTotal }],
        tooManyAttempts,
      );
    } catch (error) {
      // Not checked, so not this address's failure.
      await this.giveBack(bySource!);
      throw error;
    }
    return {
      succeeded: async () => {
        await this.giveBack(bySource!);
        await this.giveBack(overall!);
      },
    };
  }

  /** Counts one anonymous upload from `address`, accepted or not. */
  async countUpload(address: string, message: string): Promise<void> {
    await this.reserve([{ bucket: 'upload-address', key: address, limit: this.config.anonymousUploadsPerIp }], message);
  }

  /**
   * Counts one forgot-password request for `email` from `address`: whether a mail may go
   * (api.md "Second round of safety": 3 per address and 20 per client address an hour;
   * beyond, the request is answered as before and nothing is mailed).
   */
  async allowForgotMail(address: string, email: string): Promise<boolean> {
    const slots = await this.count([
      // The client address first, as for logins: one lock order for statements touching both.
      { bucket: 'forgot-address', key: address, limit: this.config.forgotMailsPerIp },
      { bucket: 'forgot-account', key: email, limit: this.config.forgotMailsPerAccount },
    ]);
    return slots.every((slot) => slot.count <= slot.limit);
  }

  /** Adds one attempt to every counter in one statement; 429 when any is over its limit. */
  private async reserve(counters: readonly Counter[], message: string): Promise<Slot[]> {
    const slots = await this.count(counters);
    const over = slots.filter((slot) => slot.count > slot.limit);
    if (over.length > 0) throw new RateLimitedError(message, Math.max(...over.map((slot) => slot.retryAfter)));
    return slots;
  }

  /** Adds one attempt to every counter in one statement (each in its own window) and returns the counts. */
  private async count(counters: readonly Counter[]): Promise<Slot[]> {
    const { rows } = await this.pool.query<{
      bucket: string;
      count: number;
      window_start: string;
      retry_after: number;
    }>(
      // Each row's window is its bucket's (`windowOfR`): an hour for forgot-password, else windowSeconds.
      `insert into auth.rate_limits as r (bucket, key, count, window_start)
       select bucket, key, 1, now() from unnest($1::text[], $2::text[]) with ordinality as a(bucket, key, n) order by n
       on conflict (bucket, key) do update set
         count = case when r.window_start > now() - ${windowOfR('$3')} then r.count + 1 else 1 end,
         window_start = case when r.window_start > now() - ${windowOfR('$3')} then r.window_start else now() end
       returning r.bucket, r.count, r.window_start::text as window_start,
         greatest(1, ceil(extract(epoch from r.window_start + ${windowOfR('$3')} - now())))::int as retry_after`,
      [counters.map((c) => c.bucket), counters.map((c) => c.key), this.config.windowSeconds],
    );
    this.sweepNowAndThen();
    return counters.map((counter) => {
      const row = rows.find((r) => r.bucket === counter.bucket);
      if (!row) throw new Error(`rate limit ${counter.bucket} was not counted`);
      return { ...counter, count: row.count, windowStart: row.window_start, retryAfter: row.retry_after };
    });
  }

  /** Undoes one reservation, unless its window has ended meanwhile (the new one never had it). */
  private async giveBack(slot: Slot): Promise<void> {
    await this.pool.query(
      `update auth.rate_limits set count = count - 1
       where bucket = $1 and key = $2 and window_start = $3::timestamptz and count > 0`,
      [slot.bucket, slot.key, slot.windowStart],
    );
  }

  /** Ended windows are dead rows: delete them about once a minute, off the request's path. */
  private sweepNowAndThen(): void {
    const now = Date.now();
    if (now < this.nextSweepAt) return;
    this.nextSweepAt = now + 60_000;
    this.pool
      .query(`delete from auth.rate_limits as r where window_start <= now() - ${windowOfR('$1')}`, [
        this.config.windowSeconds,
      ])
      // Only housekeeping: the next sweep tries again.
      .catch(() => {});
  }
}

/** A reserved attempt: it counts as a failure unless `succeeded()` gives it back. */
export type Reservation = { succeeded(): Promise<void> };

type Counter = { bucket: string; key: string; limit: number };
type Slot = Counter & { count: number; windowStart: string; retryAfter: number };

/** The forgot-password limits' window: an hour (api.md "Second round of safety"). */
const FORGOT_WINDOW = 60 * 60;
/** The window of row `r` in SQL: an hour for the forgot-password buckets, else `windowSeconds` (the parameter named). */
function windowOfR(windowSecondsParam: string): string {
  return `(case when r.bucket like 'forgot-%' then ${FORGOT_WINDOW} else ${windowSecondsParam}::float8 end) * interval '1 second'`;
}

export const tooManyAttempts = 'Too many attempts. Please try again later.';
