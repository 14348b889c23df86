import { userMessages } from '@bugtrail/domain';
import { countStoredEvents, expectRefused, http, registerUser, SseReader, type TestUser } from '@bugtrail/testing';
import { startTestSystem, type TestSystem } from '@bugtrail/testing/system';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const PASSWORD = 'correct horse battery';

/** api.md "People": deactivation, reset links, forgot/reset, invite codes, each an event with its actor. */
describe('managing people', () => {
  let t: TestSystem;
  let api: ReturnType<typeof http>;
  let admin: TestUser;
  let tester: TestUser;

  const eventCount = () => countStoredEvents(t.system.pool);
  const refused = (status: number, call: () => Promise<{ status: number; body: any }>) =>
    expectRefused(t.system.pool, status, call);
  const lastEvent = async (streamId: string) =>
    (
      await t.system.pool.query(
        'select type, data, metadata from eventstore.events where stream_id = $1 order by stream_revision desc limit 1',
        [streamId],
      )
    ).rows[0];
  const login = (user: TestUser, password = PASSWORD) => api.post('/api/auth/login', { email: user.email, password });

  beforeAll(async () => {
    t = await startTestSystem();
    api = http(t.url);
    admin = await registerUser(t.url, 'admin', 'Ada Admin');
    tester = await registerUser(t.url, 'tester', 'Tess Tester');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('deactivates: tokens stop at once, the live stream closes, login says why; the person stays listed', async () => {
    const developer = await registerUser(t.url, 'developer', 'Dora Deactivated');
    const stream = await SseReader.open(t.url, developer.token);
    const answer = await api.post(`/api/users/${developer.id}/deactivate`, {}, admin.token);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.user).toMatchObject({ _id: developer.id, name: 'Dora Deactivated', deactivated: true });
    const event = await lastEvent(`user-${developer.id}`);
    expect(event.type).toBe('UserDeactivated');
    expect(event.metadata.actorId).toBe(admin.id);

    expect((await api.get('/api/auth/profile', developer.token)).status).toBe(401);
    await stream.waitForEnd();
    const refusedLogin = await login(developer);
    expect(refusedLogin.status).toBe(403);
    expect(refusedLogin.body.message).toBe(userMessages.deactivated);
    // A wrong password learns nothing about the account.
    expect((await login(developer, 'not the password')).status).toBe(401);

    const team = await api.get('/api/users', admin.token);
    expect(team.body.find((u: { _id: string }) => u._id === developer.id)).toMatchObject({ deactivated: true });
    expect(team.body.find((u: { _id: string }) => u._id === tester.id)).not.toHaveProperty('deactivated');
    const pickers = await api.get('/api/users/developers', tester.token);
    expect(pickers.body.some((u: { _id: string }) => u._id === developer.id)).toBe(false);
    // Again: the same answer, nothing appended.
    const before = await eventCount();
    const repeat = await api.post(`/api/users/${developer.id}/deactivate`, {}, admin.token);
    expect(repeat.status).toBe(200);
    expect(repeat.body.user.deactivated).toBe(true);
    expect(await eventCount()).toBe(before);

    const back = await api.post(`/api/users/${developer.id}/reactivate`, {}, admin.token);
    expect(back.status).toBe(200);
    expect(back.body.user).not.toHaveProperty('deactivated');
    expect((await lastEvent(`user-${developer.id}`)).type).toBe('UserReactivated');
    const again = await login(developer);
    expect(again.status).toBe(200);
    expect((await api.get('/api/auth/profile', again.body.token)).status).toBe(200);
  });

  it('refuses non-admins, unknown people and the last active admin', async () => {
    const other = await registerUser(t.url, 'developer');
    await refused(403, () => api.post(`/api/users/${other.id}/deactivate`, {}, tester.token));
    await refused(403, () => api.post(`/api/users/${other.id}/reactivate`, {}, other.token));
    await refused(403, () => api.post(`/api/users/${other.id}/reset-link`, {}, tester.token));
    await refused(401, () => api.post(`/api/users/${other.id}/deactivate`, {}));
    await refused(404, () => api.post('/api/users/no-such-user/deactivate', {}, admin.token));
    await refused(404, () => api.post('/api/users/no-such-user/reset-link', {}, admin.token));

    // With a second admin deactivated, the first is the last active one: it cannot go, nor be demoted.
    const second = await registerUser(t.url, 'admin');
    expect((await api.post(`/api/users/${second.id}/deactivate`, {}, admin.token)).status).toBe(200);
    const last = await refused(409, () => api.post(`/api/users/${admin.id}/deactivate`, {}, admin.token));
    expect(last.body.message).toBe(userMessages.lastAdmin);
    await refused(400, () => api.put(`/api/users/${admin.id}/role`, { role: 'tester' }, admin.token));
    expect((await api.post(`/api/users/${second.id}/reactivate`, {}, admin.token)).status).toBe(200);
  });

  it('checks a preferences change in order: token, body, then whose they are', async () => {
    const other = await registerUser(t.url, 'developer');
    const preferences = (id: string, body: unknown, token?: string) =>
      api.put(`/api/users/${id}/preferences`, body, token);
    await refused(401, () => preferences(other.id, { email: 'off' }));
    // The body is read before who may change whose: someone else's with a bad body is 400, not 403.
    await refused(400, () => preferences(other.id, ['off'], tester.token));
    const forbidden = await refused(403, () => preferences(other.id, { email: 'off' }, tester.token));
    expect(forbidden.body.message).toBe("You don't have permission to update this user");
    // Nobody by that id: 404 for anyone (an admin hears it from the empty stream).
    for (const caller of [tester, admin]) {
      const missing = await refused(404, () => preferences('no-such-user', { email: 'off' }, caller.token));
      expect(missing.body.message).toBe('User not found');
    }
    const set = await preferences(other.id, { email: 'daily' }, admin.token);
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body).toEqual({ preferences: { email: 'daily' } });
    expect((await lastEvent(`user-${other.id}`)).metadata.actorId).toBe(admin.id);
  });

  it('makes a one-time reset link that sets a new password and ends every session', async () => {
    const user = await registerUser(t.url, 'tester', 'Rita Reset');
    const made = await api.post(`/api/users/${user.id}/reset-link`, {}, admin.token);
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const url = new URL(made.body.url);
    expect(url.origin).toBe(new URL(t.url).origin);
    expect(url.pathname).toBe('/reset-password');
    const token = url.searchParams.get('token') ?? '';
    expect(token.length).toBeGreaterThan(30);
    const hours = (Date.parse(made.body.expiresAt) - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(23);
    expect(hours).toBeLessThanOrEqual(24);
    const event = await lastEvent(`user-${user.id}`);
    expect(event.type).toBe('PasswordResetRequested');
    expect(event.metadata.actorId).toBe(admin.id);
    expect(JSON.stringify(event.data)).not.toContain(token);

    const weak = await refused(400, () => api.post('/api/auth/reset', { token, password: 'short' }));
    expect(weak.body.message).toBe(userMessages.passwordTooShort);
    const done = await api.post('/api/auth/reset', { token, password: 'a brand new password' });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect((await lastEvent(`user-${user.id}`)).type).toBe('PasswordChanged');
    expect((await api.get('/api/auth/profile', user.token)).status).toBe(401);
    expect((await login(user)).status).toBe(401);
    expect((await login(user, 'a brand new password')).status).toBe(200);

    const reused = await refused(400, () => api.post('/api/auth/reset', { token, password: 'yet another password' }));
    expect(reused.body.message).toBe(userMessages.resetLinkInvalid);
    await refused(400, () => api.post('/api/auth/reset', { token: 'made-up', password: 'yet another password' }));
    await refused(400, () => api.post('/api/auth/reset', { password: 'yet another password' }));
  });

  it('answers forgot with 202 for any address, and without SMTP says to ask an admin', async () => {
    for (const email of [tester.email, 'nobody@example.com']) {
      const answer = await refused(202, () => api.post('/api/auth/forgot', { email }));
      expect(answer.body.message).toBe(userMessages.resetNotMailed);
    }
    await refused(400, () => api.post('/api/auth/forgot', { email: 'not an email' }));
  });

  it('mints, lists (never the code) and revokes invite codes; a revoked code opens no signup', async () => {
    const minted = await api.post('/api/auth/invite-codes', {}, admin.token);
    expect(minted.status).toBe(201);
    expect(minted.body).toMatchObject({ _id: expect.any(String), code: expect.stringMatching(/^\d{6}$/) });
    const used = await api.post('/api/auth/invite-codes', {}, admin.token);

    const listed = await api.get('/api/auth/invite-codes', admin.token);
    expect(listed.status).toBe(200);
    const mine = listed.body.codes.find((code: { _id: string }) => code._id === minted.body._id);
    expect(mine).toEqual({
      _id: minted.body._id,
      createdBy: { _id: admin.id, name: 'Ada Admin' },
      createdAt: expect.any(String),
      expiresAt: minted.body.expiresAt,
      role: 'admin',
    });
    expect(JSON.stringify(listed.body)).not.toContain(minted.body.code);
    expect((await api.get('/api/auth/invite-codes', tester.token)).status).toBe(403);

    // A signup with the second code takes it off the list.
    const signup = await api.post('/api/auth/register', {
      name: 'New Admin',
      email: `new.admin.${Date.now()}@example.com`,
      password: PASSWORD,
      role: 'admin',
      adminInviteToken: used.body.code,
    });
    expect(signup.status, JSON.stringify(signup.body)).toBe(201);
    const afterSignup = await api.get('/api/auth/invite-codes', admin.token);
    expect(afterSignup.body.codes.some((code: { _id: string }) => code._id === used.body._id)).toBe(false);

    await refused(403, () => api.delete(`/api/auth/invite-codes/${minted.body._id}`, tester.token));
    await refused(404, () => api.delete('/api/auth/invite-codes/00000000-0000-4000-8000-000000000000', admin.token));
    await refused(404, () => api.delete('/api/auth/invite-codes/not-an-id', admin.token));
    const revoked = await api.delete(`/api/auth/invite-codes/${minted.body._id}`, admin.token);
    expect(revoked.status).toBe(204);
    expect((await lastEvent(`invite-${minted.body._id}`)).type).toBe('InviteCodeRevoked');
    const afterRevoke = await api.get('/api/auth/invite-codes', admin.token);
    expect(afterRevoke.body.codes.some((code: { _id: string }) => code._id === minted.body._id)).toBe(false);
    const refusedSignup = await api.post('/api/auth/register', {
      name: 'Too Late',
      email: `too.late.${Date.now()}@example.com`,
      password: PASSWORD,
      role: 'admin',
      adminInviteToken: minted.body.code,
    });
    expect(refusedSignup.status).toBe(403);
    expect((await api.delete(`/api/auth/invite-codes/${minted.body._id}`, admin.token)).status).toBe(204);
  });
});
