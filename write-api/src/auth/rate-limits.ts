import { RateLimitedError } from '@bugtrail/domain';
import type { Config } from '@bugtrail/platform';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';

/**
 * Failure-counting limits (api.md): failed logins per account and per IP, wrong
 * invite codes per IP, anonymous uploads per IP. Counted per process.
 */
export class RateLimits {
  readonly loginPerAccount: RateLimiterMemory;
  readonly loginPerIp: RateLimiterMemory;
  readonly invitePerIp: RateLimiterMemory;
  readonly uploadsPerIp: RateLimiterMemory;

  constructor(config: Config['rateLimits']) {
    const duration = config.windowSeconds;
    this.loginPerAccount = new RateLimiterMemory({ points: config.failedLoginsPerAccount, duration });
    this.loginPerIp = new RateLimiterMemory({ points: config.failedLoginsPerIp, duration });
    this.invitePerIp = new RateLimiterMemory({ points: config.wrongInviteCodesPerIp, duration });
    this.uploadsPerIp = new RateLimiterMemory({ points: config.anonymousUploadsPerIp, duration });
  }

  /** 429 when the key has used up its failures already (checked before the attempt). */
  async assertNotBlocked(limiter: RateLimiterMemory, key: string, message: string): Promise<void> {
    const res = await limiter.get(key);
    if (res && res.consumedPoints >= limiter.points) {
      throw new RateLimitedError(message, Math.max(1, Math.ceil(res.msBeforeNext / 1000)));
    }
  }

  /** Counts one failure (or one use, for uploads); 429 once the limit is passed. */
  async count(limiter: RateLimiterMemory, key: string, message: string): Promise<void> {
    try {
      await limiter.consume(key);
    } catch (error) {
      if (error instanceof RateLimiterRes) {
        throw new RateLimitedError(message, Math.max(1, Math.ceil(error.msBeforeNext / 1000)));
      }
      throw error;
    }
  }
}

export const tooManyAttempts = 'Too many attempts. Please try again later.';
