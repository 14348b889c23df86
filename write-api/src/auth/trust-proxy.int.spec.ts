import { registerUser, type TestUser } from '@bugtrail/testing';
import { type RunningNginx, startNginx } from '@bugtrail/testing/nginx';
import { startTestSystem, type TestSystem } from '@bugtrail/testing/system';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const PASSWORD = 'correct horse battery';

/**
 * TRUST_PROXY=1 behind the shipped nginx (deploy/nginx.conf run by Debian's nginx, which
 * appends the address it sees to X-Forwarded-For): the client address is the rightmost
 * entry, so what a client writes into the header never counts (api.md "General").
 */
describe('TRUST_PROXY=1 through the shipped nginx', () => {
  let t: TestSystem;
  let proxy: RunningNginx;
  let owner: TestUser;
  let other: TestUser;

  beforeAll(async () => {
    t = await startTestSystem({ config: { trustProxy: 1 } });
    proxy = await startNginx({ readApi: [t.url], writeApi: [t.url] });
    owner = await registerUser(t.url, 'tester');
    other = await registerUser(t.url, 'tester');
  });
  afterAll(async () => {
    await proxy?.stop();
    await t?.close();
  });

  const login = (base: string, email: string, password: string, forwardedFor: string) =>
    fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': forwardedFor },
      body: JSON.stringify({ email, password }),
    });

  it("a client claiming the owner's address cannot make its failed logins count against it", async () => {
    const ownersAddress = '203.0.113.50';
    for (let i = 0; i < 12; i += 1) await (await login(proxy.url, owner.email, `guess ${i}`, ownersAddress)).text();
    // The owner's own login, as nginx would forward it from that address (one entry: the one it appends).
    const own = await login(t.url, owner.email, PASSWORD, ownersAddress);
    expect(own.status, await own.clone().text()).toBe(200);
  });

  it('the per-address login limit is reached by the real client address, whatever it claims', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 11; i += 1) {
      const answer = await login(proxy.url, other.email, `guess ${i}`, `198.51.100.${i + 1}`);
      await answer.text();
      statuses.push(answer.status);
    }
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(statuses[10]).toBe(429);
  });
});
