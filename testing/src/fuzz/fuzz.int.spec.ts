/**
 * The fuzz at CI size: 20,000 requests generated from /api/openapi.json against the real
 * product, every operation, every role, valid and broken. It fails on any 5xx, any answer
 * outside its documented status and schema, and any success the permission table forbids,
 * listing each finding once with a reproduction. The seed is fixed (FUZZ_SEED overrides
 * it); `npm run fuzz -- --requests 200000` runs the same fuzz larger.
 */
import { describe, expect, it } from 'vitest';
import { startTestSystem } from '../system.js';
import { TEST_INVITE_CODE } from '../users.js';
import { FUZZ_RATE_LIMITS, TIGHT_RATE_LIMITS } from './limits.js';
import { formatReport, runFuzz } from './run.js';

const SEED = Number(process.env.FUZZ_SEED ?? 20_251_119);
const REQUESTS = 20_000;

describe('the API under a fuzz generated from its OpenAPI document', () => {
  it(`keeps to its document and its permission table over ${REQUESTS.toLocaleString('en-US')} requests`, async () => {
    const t = await startTestSystem({ config: { rateLimits: FUZZ_RATE_LIMITS } });
    try {
      console.log(`fuzz seed ${SEED} (FUZZ_SEED=${SEED} repeats it)`);
      const report = await runFuzz({
        url: t.url,
        requests: REQUESTS,
        seed: SEED,
        concurrency: 16,
        inviteCode: TEST_INVITE_CODE,
      });
      console.log(formatReport(report));
      expect(report.requests).toBe(REQUESTS);
      // Every operation of the document was reached.
      for (const [operation, counts] of Object.entries(report.byOperation)) {
        expect(counts.requests, operation).toBeGreaterThan(0);
      }
      if (report.findings.length > 0) expect.fail(`findings:\n${formatReport(report)}`);
    } finally {
      await t.close();
    }
    // A limit, not a measure: 20,000 requests share two cores with the other int files.
  }, 600_000);

  it('answers 429 only where the document says so when rate limits bite', async () => {
    const t = await startTestSystem({ config: { rateLimits: TIGHT_RATE_LIMITS } });
    try {
      const report = await runFuzz({
        url: t.url,
        requests: 600,
        seed: SEED,
        concurrency: 16,
        inviteCode: TEST_INVITE_CODE,
        invalidShare: 0.1,
        includeOperation: (op) => op.answers.has(429),
      });
      console.log(formatReport(report));
      const limited = Object.entries(report.byOperation).filter(([, counts]) => (counts.statuses[429] ?? 0) > 0);
      expect(limited.length, 'no operation answered 429').toBeGreaterThan(0);
      if (report.findings.length > 0) expect.fail(`findings:\n${formatReport(report)}`);
    } finally {
      await t.close();
    }
  }, 120_000);
});
