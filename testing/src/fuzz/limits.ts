import type { Config } from '@bugtrail/platform';

/** Rate limits out of the fuzzer's way: thousands of failed logins and uploads from one address are its job. */
export const FUZZ_RATE_LIMITS: Config['rateLimits'] = {
  failedLoginsPerAccount: 1_000_000_000,
  failedLoginsPerIp: 1_000_000_000,
  wrongInviteCodesPerIp: 1_000_000_000,
  wrongInviteCodesTotal: 1_000_000_000,
  anonymousUploadsPerIp: 1_000_000_000,
  windowSeconds: 900,
  forgotMailsPerAccount: 1_000_000_000,
  forgotMailsPerIp: 1_000_000_000,
  sseConnectionsPerUser: 1_000,
};

/** Rate limits low enough that a short fuzz reaches every 429. */
export const TIGHT_RATE_LIMITS: Config['rateLimits'] = {
  failedLoginsPerAccount: 3,
  failedLoginsPerIp: 6,
  wrongInviteCodesPerIp: 3,
  wrongInviteCodesTotal: 6,
  anonymousUploadsPerIp: 4,
  windowSeconds: 900,
  forgotMailsPerAccount: 3,
  forgotMailsPerIp: 6,
  sseConnectionsPerUser: 1,
};
