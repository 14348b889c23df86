import { type HttpAnswer, http, registerUser, TEST_INVITE_CODE, type TestUser } from '@bugtrail/testing';
import { startTestSystem, type TestSystem } from '@bugtrail/testing/system';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tooManyAttempts } from './rate-limits.js';

const PASSWORD = 'correct horse battery';
const WINDOW_SECONDS = 15 * 60;

let lastAddress = 0;
/** A client address no other test uses (the systems trust X-Forwarded-For). */
function newAddress(): string {
  lastAddress += 1;
  return `198.51.100.${lastAddress}`;
}

function login(url: string, address: string, email: string, password: string): Promise<HttpAnswer> {
  return http(url).post('/api/auth/login', { email, password }, undefined, { 'x-forwarded-for': address });
}

function registerAdmin(url: string, address: string, code: string): Promise<HttpAnswer> {
  const email = `admin.${Math.random().toString(36).slice(2)}@example.com`;
  return http(url).post(
    '/api/auth/register',
    { name: 'Ada Admin', email, password: PASSWORD, role: 'admin', adminInviteToken: code },
    undefined,
    { 'x-forwarded-for': address },
  );
}

function countStatuses(answers: readonly HttpAnswer[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const { status } of answers) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

function expectRateLimited(answer: HttpAnswer, windowSeconds = WINDOW_SECONDS): void {
  expect(answer.status).toBe(429);
  expect(answer.body).toEqual({ message: tooManyAttempts });
  const retryAfter = Number(answer.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(windowSeconds);
}

describe('rate limits: counted before the check, in PostgreSQL, shared by replicas', () => {
  let t: TestSystem;
  /** A second write-api on the same database, as another replica. */
  let replica: TestSystem;
  /** A third one whose window is one second long. */
  let shortWindow: TestSystem;
  let owner: TestUser;

  beforeAll(async () => {
    t = await startTestSystem({ config: { trustProxy: 1 } });
    const shared = { databaseUrl: t.databaseUrl, parts: ['write-api' as const] };
    replica = await startTestSystem({ ...shared, config: { trustProxy: 1 } });
    shortWindow = await startTestSystem({
      ...shared,
      config: { trustProxy: 1, rateLimits: { windowSeconds: 1 } as never },
    });
    owner = await registerUser(t.url, 'tester');
  });
  afterAll(async () => {
    await shortWindow?.close();
    await replica?.close();
    await t?.close();
  });

  describe('failed logins', () => {
    it('checks no more than 10 of 600 parallel wrong passwords, and refuses the right one after them', async () => {
      const address = newAddress();
      const answers = await Promise.all(
        Array.from({ length: 600 }, (_, i) => login(t.url, address, owner.email, `wrong ${i}`)),
      );
      expect(countStatuses(answers)).toEqual({ 401: 10, 429: 590 });
      expectRateLimited(answers.find((a) => a.status === 429)!);
      expectRateLimited(await login(t.url, address, owner.email, PASSWORD));
    });

    it('never lets the right password through beyond the limit, wherever it falls in a parallel burst', async () => {
      const address = newAddress();
      const passwords = Array.from({ length: 100 }, (_, i) => (i === 50 ? PASSWORD : `wrong ${i}`));
      const answers = await Promise.all(passwords.map((p) => login(t.url, address, owner.email, p)));
      const counts = countStatuses(answers);
      // Exactly 10 wrong passwords were checked; the right one only if it was among the first 10 reserved.
      expect(counts[401]).toBe(10);
      expect(answers[50]!.status === 200 || answers[50]!.status === 429).toBe(true);
      expect((counts[200] ?? 0) + (counts[429] ?? 0)).toBe(90);
    });

    it('does not let a stranger elsewhere lock the owner out (no account-wide lock)', async () => {
      const stranger = newAddress();
      const answers: HttpAnswer[] = [];
      for (let i = 0; i < 12; i += 1) answers.push(await login(t.url, stranger, owner.email, `guess ${i}`));
      expect(countStatuses(answers)).toEqual({ 401: 10, 429: 2 });
      expectRateLimited(await login(t.url, stranger, owner.email, PASSWORD));

      const home = newAddress();
      const ownLogin = await login(t.url, home, owner.email, PASSWORD);
      expect(ownLogin.status).toBe(200);
      expect(ownLogin.body).toMatchObject({ _id: owner.id });
    });

    it("forgives the account's failures from an address once the owner gets in from it", async () => {
      const address = newAddress();
      for (let i = 0; i < 9; i += 1) expect((await login(t.url, address, owner.email, 'typo')).status).toBe(401);
      expect((await login(t.url, address, owner.email, PASSWORD)).status).toBe(200);
      for (let i = 0; i < 10; i += 1) expect((await login(t.url, address, owner.email, 'typo')).status).toBe(401);
      expectRateLimited(await login(t.url, address, owner.email, 'typo'));
    });

    it('caps failed logins at 100 per address across accounts, even in parallel', async () => {
      const address = newAddress();
      const answers = await Promise.all(
        Array.from({ length: 150 }, (_, i) => login(t.url, address, `nobody.${i % 15}@example.com`, 'guess')),
      );
      expect(countStatuses(answers)).toEqual({ 401: 100, 429: 50 });
      // Every account from that address is refused now, the owner's too; from elsewhere it is not.
      expectRateLimited(await login(t.url, address, owner.email, PASSWORD));
      expect((await login(t.url, newAddress(), owner.email, PASSWORD)).status).toBe(200);
    });

    it('shares the counters between write-api replicas', async () => {
      const address = newAddress();
      const answers = await Promise.all(
        Array.from({ length: 40 }, (_, i) => login(i % 2 ? replica.url : t.url, address, owner.email, `wrong ${i}`)),
      );
      expect(countStatuses(answers)).toEqual({ 401: 10, 429: 30 });
      expectRateLimited(await login(t.url, address, owner.email, PASSWORD));
      expectRateLimited(await login(replica.url, address, owner.email, PASSWORD));
    });

    it('starts a new window once the old one has passed', async () => {
      // Bursts of 12 in parallel from a new address each, until one lands in a single 1-second
      // window and its 11th attempt is refused: a busy machine may spread a burst over two
      // windows (the exact count of 10 per window is held above, at the usual window).
      let address = '';
      let refused: HttpAnswer | undefined;
      for (let burst = 1; !refused; burst++) {
        if (burst > 20) throw new Error('no burst of 12 attempts landed in one 1-second window');
        address = newAddress();
        const answers = await Promise.all(
          Array.from({ length: 12 }, () => login(shortWindow.url, address, owner.email, 'wrong')),
        );
        expect(Object.keys(countStatuses(answers)).filter((status) => status !== '401' && status !== '429')).toEqual(
          [],
        );
        refused = answers.find((answer) => answer.status === 429);
      }
      expectRateLimited(refused, 1);
      await new Promise((resolve) => setTimeout(resolve, 1100));
      expect((await login(shortWindow.url, address, owner.email, PASSWORD)).status).toBe(200);
    });
  });

  describe('admin invite codes', () => {
    it('checks no more than 10 of 100 parallel codes, and refuses the right one once over the limit', async () => {
      const address = newAddress();
      const codes = Array.from({ length: 100 }, (_, i) => (i === 50 ? TEST_INVITE_CODE : String(100_000 + i)));
      const answers = await Promise.all(codes.map((code) => registerAdmin(t.url, address, code)));
      const counts = countStatuses(answers);
      expect(counts[403]).toBe(10);
      expect(answers[50]!.status === 201 || answers[50]!.status === 429).toBe(true);
      expect((counts[201] ?? 0) + (counts[429] ?? 0)).toBe(90);
      const retry = await registerAdmin(t.url, address, TEST_INVITE_CODE);
      expectRateLimited(retry);
    });

    it('caps wrong codes from all addresses together: many addresses do not add up to a search', async () => {
      const capped = await startTestSystem({
        config: { trustProxy: 1, rateLimits: { wrongInviteCodesTotal: 20 } as never },
      });
      try {
        const statuses: number[] = [];
        // Six addresses, five wrong codes each: each address stays under its own limit of 10.
        for (let a = 0; a < 6; a += 1) {
          const address = newAddress();
          for (let i = 0; i < 5; i += 1)
            statuses.push((await registerAdmin(capped.url, address, String(200_000 + i))).status);
        }
        expect(countStatuses(statuses.map((status) => ({ status }) as HttpAnswer))).toEqual({ 403: 20, 429: 10 });
        // Over the cap even the right code waits for the window, from an address never seen.
        expectRateLimited(await registerAdmin(capped.url, newAddress(), TEST_INVITE_CODE));
        // A try refused by the cap was never checked, so it does not count against its address.
        const { rows } = await capped.system.pool.query<{ tries: number }>(
          `select sum(count)::int as tries from auth.rate_limits where bucket = 'invite-address'`,
        );
        expect(rows[0]?.tries).toBe(20);
      } finally {
        await capped.close();
      }
    });

    it('does not count the right code against the address', async () => {
      const address = newAddress();
      for (let i = 0; i < 12; i += 1) expect((await registerAdmin(t.url, address, TEST_INVITE_CODE)).status).toBe(201);
      for (let i = 0; i < 10; i += 1) expect((await registerAdmin(t.url, address, '000000')).status).toBe(403);
      expectRateLimited(await registerAdmin(replica.url, address, TEST_INVITE_CODE));
    });
  });
});
