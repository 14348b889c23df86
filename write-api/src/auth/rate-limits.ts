import { RateLimitedError } from '@bugtrail/domain';
import type { Config } from '@bugtrail/platform';
import type pg from 'pg';

/**
 * Rate limits (api.md "Account safety"), counted in PostgreSQL so every replica shares
 * them: failed logins per (account, client address) and per address, wrong invite codes
 * per address, anonymous uploads per address. Fixed windows of `windowSeconds`.
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

  /** One admin invite code tried from `address`; `succeeded()` once the code was valid. */
  async reserveInviteCode(address: string): Promise<Reservation> {
    const [slot] = await this.reserve(
      [{ bucket: 'invite-address', key: address, limit: this.config.wrongInviteCodesPerIp }],
      tooManyAttempts,
    );
    return { succeeded: () => this.giveBack(slot!) };
  }

  /** Counts one anonymous upload from `address`, accepted or not. */
  async countUpload(address: string, message: string): Promise<void> {
    await this.reserve([{ bucket: 'upload-address', key: address, limit: this.config.anonymousUploadsPerIp }], message);
  }

  /** Adds one attempt to every counter in one statement; 429 when any is over its limit. */
  private async reserve(counters: readonly Counter[], message: string): Promise<Slot[]> {
    const { rows } = await this.pool.query<{
      bucket: string;
      count: number;
      window_start: string;
      retry_after: number;
    }>(
      `insert into auth.rate_limits as r (bucket, key, count, window_start)
       select bucket, key, 1, now() from unnest($1::text[], $2::text[]) with ordinality as a(bucket, key, n) order by n
       on conflict (bucket, key) do update set
         count = case when r.window_start > now() - $3::float8 * interval '1 second' then r.count + 1 else 1 end,
         window_start = case when r.window_start > now() - $3::float8 * interval '1 second' then r.window_start else now() end
       returning r.bucket, r.count, r.window_start::text as window_start,
         greatest(1, ceil(extract(epoch from r.window_start + $3::float8 * interval '1 second' - now())))::int as retry_after`,
      [counters.map((c) => c.bucket), counters.map((c) => c.key), this.config.windowSeconds],
    );
    this.sweepNowAndThen();
    const slots = counters.map((counter) => {
      const row = rows.find((r) => r.bucket === counter.bucket);
      if (!row) throw new Error(`rate limit ${counter.bucket} was not counted`);
      return { ...counter, count: row.count, windowStart: row.window_start, retryAfter: row.retry_after };
    });
    const over = slots.filter((slot) => slot.count > slot.limit);
    if (over.length > 0) throw new RateLimitedError(message, Math.max(...over.map((slot) => slot.retryAfter)));
    return slots;
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
      .query(`delete from auth.rate_limits where window_start <= now() - $1::float8 * interval '1 second'`, [
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

export const tooManyAttempts = 'Too many attempts. Please try again later.';
