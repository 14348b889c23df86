import { http, registerUser, type TestUser } from '@bugtrail/testing';
import { startTestSystem, type TestSystem } from '@bugtrail/testing/system';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * X-Min-Position (api.md "Bad input and limits"): honoured only for a signed-in caller,
 * so an anonymous request can never be made to wait; a position past the store's head
 * is waited on (bounded) and answered with X-Read-Model-Lag: 1, never a 400.
 */
describe('X-Min-Position', () => {
  let t: TestSystem;
  let tester: TestUser;
  const beyondHead = 'ffffffffffffffffffffffffffffffff';

  beforeAll(async () => {
    t = await startTestSystem({ config: { readYourWritesTimeoutMs: 300 } });
    tester = await registerUser(t.url, 'tester');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('is ignored on anonymous requests: /health does not wait for it', async () => {
    const answer = await http(t.url).get('/health', undefined, { 'X-Min-Position': beyondHead });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-read-model-lag')).toBeNull();
  });

  it('is ignored with a bad token too', async () => {
    const answer = await http(t.url).get('/health', 'not-a-token', { 'X-Min-Position': beyondHead });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-read-model-lag')).toBeNull();
  });

  it('a signed-in caller waits for a position past the head and gets the answer with X-Read-Model-Lag: 1', async () => {
    const answer = await http(t.url).get('/api/bugs', tester.token, { 'X-Min-Position': beyondHead });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-read-model-lag')).toBe('1');
  });

  it('a signed-in caller whose position was reached gets no lag header', async () => {
    const signup = await http(t.url).post('/api/auth/register', {
      name: 'Late Comer',
      email: `late.${Date.now()}@example.com`,
      password: 'correct horse battery',
    });
    const position = signup.headers.get('x-event-position');
    expect(position).toMatch(/^[0-9a-f]{32}$/);
    // The premise: the read models have reached it (on a loaded machine the signup's own
    // 300 ms wait can end first).
    expect(await t.system.changeFeed.waitFor(position!, 30_000)).toBe(true);
    const answer = await http(t.url).get('/api/bugs', tester.token, { 'X-Min-Position': position! });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-read-model-lag')).toBeNull();
  });
});
