import { http, registerUser, SseReader, type TestUser } from '@bugtrail/testing';
import { startTestSystem, type TestSystem } from '@bugtrail/testing/system';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const PASSWORD = 'correct horse battery'; // registerUser's

/**
 * api.md "Second round of safety": a password change or reset ends every session of the user
 * but the one that changed it (none for a reset), closes their live streams, and revokes every
 * API token they own, so nothing minted with a stolen session outlives it.
 */
describe('a new password ends the other sessions and every API token', () => {
  let t: TestSystem;
  let api: ReturnType<typeof http>;
  let admin: TestUser;

  beforeAll(async () => {
    t = await startTestSystem();
    api = http(t.url);
    admin = await registerUser(t.url, 'admin', 'Ada Admin');
  });
  afterAll(async () => {
    await t?.close();
  });

  const mintToken = async (user: TestUser) => {
    const minted = await api.post('/api/tokens', { name: 'stolen', scope: 'write' }, user.token);
    expect(minted.status, JSON.stringify(minted.body)).toBe(201);
    return minted.body.secret as string;
  };
  const signIn = async (user: TestUser, password = PASSWORD) => {
    const answer = await api.post('/api/auth/login', { email: user.email, password });
    expect(answer.status).toBe(200);
    return answer.body.token as string;
  };

  it('after a reset: a token minted before it, and every session, answer 401; the token stream ends', async () => {
    const user = await registerUser(t.url, 'tester', 'Rex Reset');
    const apiToken = await mintToken(user);
    const otherSession = await signIn(user);
    expect((await api.get('/api/auth/profile', apiToken)).status).toBe(200);
    const stream = await SseReader.open(t.url, apiToken);
    try {
      const link = await api.post(`/api/users/${user.id}/reset-link`, {}, admin.token);
      const token = new URL(link.body.url).searchParams.get('token');
      expect((await api.post('/api/auth/reset', { token, password: 'a brand new secret' })).status).toBe(200);

      expect((await api.get('/api/auth/profile', apiToken)).status).toBe(401);
      expect((await api.get('/api/auth/profile', otherSession)).status).toBe(401);
      expect((await api.get('/api/auth/profile', user.token)).status).toBe(401);
      await stream.waitForEnd(5_000);
      expect((await api.get('/api/tokens', await signIn(user, 'a brand new secret'))).body.tokens).toEqual([]);
    } finally {
      stream.close();
    }
  });

  it('after a change: the changing session goes on, the other session and the API token answer 401', async () => {
    const user = await registerUser(t.url, 'developer', 'Cara Change');
    const apiToken = await mintToken(user);
    const otherSession = await signIn(user);
    const changed = await api.put(
      `/api/users/${user.id}`,
      { password: 'another new secret', currentPassword: PASSWORD },
      user.token,
    );
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect((await api.get('/api/auth/profile', changed.body.token)).status).toBe(200);
    expect((await api.get('/api/auth/profile', otherSession)).status).toBe(401);
    expect((await api.get('/api/auth/profile', apiToken)).status).toBe(401);
  });
});
