import { countStoredEvents, expectRefused, http, registerUser, type TestUser } from '@bugtrail/testing';
import { startTestSystem, type TestSystem } from '@bugtrail/testing/system';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

describe('PUT /api/users/{id}', () => {
  let t: TestSystem;
  let api: ReturnType<typeof http>;
  let admin: TestUser;
  let tester: TestUser;
  let developer: TestUser;

  const eventCount = () => countStoredEvents(t.system.pool);
  const refused = (status: number, call: () => Promise<{ status: number; body: any }>) =>
    expectRefused(t.system.pool, status, call);
  const login = (email: string, password: string) => api.post('/api/auth/login', { email, password });
  /** What registerUser signs everyone up with: the proof a self-service email or password change needs. */
  const current = { currentPassword: 'correct horse battery' };

  beforeAll(async () => {
    t = await startTestSystem();
    api = http(t.url);
    admin = await registerUser(t.url, 'admin');
    tester = await registerUser(t.url, 'tester');
    developer = await registerUser(t.url, 'developer');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('updates own name; the profile shows it at once', async () => {
    const answer = await api.put(`/api/users/${tester.id}`, { name: 'Tess Renamed' }, tester.token);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.user).toEqual({
      _id: tester.id,
      name: 'Tess Renamed',
      email: tester.email,
      role: 'tester',
      profileImageURL: null,
      profileImageUrl: null,
    });
    const profile = await api.get('/api/auth/profile', tester.token);
    expect(profile.body.user).toMatchObject({ name: 'Tess Renamed' });
  });

  it('appends nothing when nothing changed', async () => {
    const me = await api.get('/api/auth/profile', developer.token);
    const before = await eventCount();
    const answer = await api.put(`/api/users/${developer.id}`, { name: me.body.user.name }, developer.token);
    expect(answer.status).toBe(200);
    expect(await eventCount()).toBe(before);
  });

  it('changes the email: login works with the new one only', async () => {
    const user = await registerUser(t.url, 'tester');
    const newEmail = `renamed.${Date.now()}@example.com`;
    const answer = await api.put(`/api/users/${user.id}`, { email: newEmail.toUpperCase(), ...current }, user.token);
    expect(answer.status).toBe(200);
    expect(answer.body.user.email).toBe(newEmail);
    expect((await login(newEmail, 'correct horse battery')).status).toBe(200);
    expect((await login(user.email, 'correct horse battery')).status).toBe(401);
  });

  it('refuses an email another account uses (400) and changes nothing', async () => {
    const answer = await refused(400, () =>
      api.put(`/api/users/${tester.id}`, { email: admin.email, ...current }, tester.token),
    );
    expect(answer.body.details).toEqual([{ field: 'email', message: 'Email is already in use' }]);
    expect((await login(admin.email, 'correct horse battery')).body._id).toBe(admin.id);
  });

  it('refuses an invalid email and a blank name with the spec messages', async () => {
    const email = await refused(400, () => api.put(`/api/users/${tester.id}`, { email: 'not-an-email' }, tester.token));
    expect(email.body.message).toBe('Please enter a valid email address');
    const name = await refused(400, () => api.put(`/api/users/${tester.id}`, { name: '   ' }, tester.token));
    expect(name.body.message).toBe('Please enter full name');
  });

  it('a failed command leaves the credentials untouched (email rolled back)', async () => {
    const user = await registerUser(t.url, 'tester');
    const newEmail = `rollback.${Date.now()}@example.com`;
    await refused(400, () => api.put(`/api/users/${user.id}`, { email: newEmail, name: '', ...current }, user.token));
    expect((await login(newEmail, 'correct horse battery')).status).toBe(401);
    expect((await login(user.email, 'correct horse battery')).status).toBe(200);
  });

  it('changes the password: earlier tokens stop working, the answer carries a fresh one, no secret in events', async () => {
    const user = await registerUser(t.url, 'developer');
    const answer = await api.put(`/api/users/${user.id}`, { password: 'a brand new secret', ...current }, user.token);
    expect(answer.status).toBe(200);
    expect(typeof answer.body.token).toBe('string');
    expect((await api.get('/api/auth/profile', user.token)).status).toBe(401);
    expect((await api.get('/api/auth/profile', answer.body.token)).status).toBe(200);
    expect((await login(user.email, 'correct horse battery')).status).toBe(401);
    expect((await login(user.email, 'a brand new secret')).status).toBe(200);
    const { rows } = await t.system.pool.query(
      "select type, data from eventstore.events where stream_id = $1 and type = 'PasswordChanged'",
      [`user-${user.id}`],
    );
    expect(rows).toEqual([{ type: 'PasswordChanged', data: { userId: user.id } }]);
    const leaks = await t.system.pool.query(
      "select 1 from eventstore.events where data::text ilike '%brand new secret%' or data::text ilike '%argon%'",
    );
    expect(leaks.rows).toEqual([]);
  });

  it('refuses passwords under 8 or over 128 characters', async () => {
    const short = await refused(400, () =>
      api.put(`/api/users/${tester.id}`, { password: 'short', ...current }, tester.token),
    );
    expect(short.body.details).toEqual([{ field: 'password', message: 'Password must be at least 8 characters long' }]);
    await refused(400, () =>
      api.put(`/api/users/${tester.id}`, { password: 'x'.repeat(129), ...current }, tester.token),
    );
  });

  it('the role is not writable: a different one is 400, the same one is fine', async () => {
    const answer = await refused(400, () => api.put(`/api/users/${tester.id}`, { role: 'admin' }, tester.token));
    expect(answer.body.message).toBe('Role cannot be changed');
    const same = await api.put(`/api/users/${tester.id}`, { role: 'tester', name: 'Tess Again' }, tester.token);
    expect(same.status).toBe(200);
    expect(same.body.user.role).toBe('tester');
  });

  it('an admin may update anyone; an admin password change revokes that user, not the admin', async () => {
    const user = await registerUser(t.url, 'tester');
    const answer = await api.put(
      `/api/users/${user.id}`,
      { name: 'Set By Admin', password: 'admin-chosen-1' },
      admin.token,
    );
    expect(answer.status).toBe(200);
    expect(answer.body.token).toBeUndefined();
    expect((await api.get('/api/auth/profile', user.token)).status).toBe(401);
    expect((await api.get('/api/auth/profile', admin.token)).status).toBe(200);
  });

  describe("changing one's own password or email needs the current password", () => {
    it('400 "Current password is required" without it, 403 "Current password is incorrect" when wrong; nothing changes', async () => {
      const user = await registerUser(t.url, 'tester');
      const missing = await refused(400, () =>
        api.put(`/api/users/${user.id}`, { password: 'another secret 1' }, user.token),
      );
      expect(missing.body.message).toBe('Current password is required');
      expect(missing.body.details).toEqual([{ field: 'currentPassword', message: 'Current password is required' }]);
      const wrong = await refused(403, () =>
        api.put(
          `/api/users/${user.id}`,
          { email: `x.${Date.now()}@example.com`, currentPassword: 'not it at all' },
          user.token,
        ),
      );
      expect(wrong.body.message).toBe('Current password is incorrect');
      expect((await login(user.email, 'correct horse battery')).status).toBe(200);
      expect((await api.get('/api/auth/profile', user.token)).status).toBe(200);
    });

    it('the same email again or a name change needs none', async () => {
      const user = await registerUser(t.url, 'developer');
      const answer = await api.put(`/api/users/${user.id}`, { email: user.email, name: 'Dev Renamed' }, user.token);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    });

    it("an admin changing their own password needs it too; changing someone else's does not", async () => {
      const other = await registerUser(t.url, 'admin');
      await refused(400, () => api.put(`/api/users/${other.id}`, { password: 'admin new secret' }, other.token));
      const byAdmin = await api.put(
        `/api/users/${other.id}`,
        { email: `moved.${Date.now()}@example.com` },
        admin.token,
      );
      expect(byAdmin.status, JSON.stringify(byAdmin.body)).toBe(200);
    });

    it('a password change ends every other session of the user and keeps the one that made it', async () => {
      const user = await registerUser(t.url, 'tester');
      const elsewhere = (await login(user.email, 'correct horse battery')).body.token as string;
      const answer = await api.put(`/api/users/${user.id}`, { password: 'fresh secret 42', ...current }, user.token);
      expect(answer.status).toBe(200);
      expect((await api.get('/api/auth/profile', elsewhere)).status).toBe(401);
      expect((await api.get('/api/auth/profile', answer.body.token)).status).toBe(200);
    });
  });

  describe('permission matrix (self / other)', () => {
    const cases: [string, () => TestUser, () => TestUser, number][] = [
      ['admin on self', () => admin, () => admin, 200],
      ['admin on a tester', () => admin, () => tester, 200],
      ['tester on self', () => tester, () => tester, 200],
      ['tester on another user', () => tester, () => developer, 403],
      ['tester on an admin', () => tester, () => admin, 403],
      ['developer on self', () => developer, () => developer, 200],
      ['developer on another user', () => developer, () => tester, 403],
    ];
    it.each(cases)('%s → %i', async (_label, actor, target, status) => {
      const before = await eventCount();
      const answer = await api.put(`/api/users/${target().id}`, { name: `Name ${Date.now()}` }, actor().token);
      expect(answer.status, JSON.stringify(answer.body)).toBe(status);
      if (status === 200) expect(await eventCount()).toBe(before + 1);
      else expect(await eventCount()).toBe(before);
    });

    it('unknown user: 404 for everyone (api.md: an id that does not exist is 404); anonymous 401', async () => {
      await refused(404, () => api.put('/api/users/no-such-user', { name: 'Nobody Here' }, admin.token));
      await refused(404, () => api.put('/api/users/no-such-user', { name: 'Nobody Here' }, tester.token));
      await refused(401, () => api.put(`/api/users/${tester.id}`, { name: 'Nobody Here' }));
    });
  });

  it('answers 400 for malformed JSON and 415 for another content type', async () => {
    await refused(400, () =>
      api.call('PUT', `/api/users/${tester.id}`, {
        raw: '{"name":',
        token: tester.token,
        headers: { 'content-type': 'application/json' },
      }),
    );
    await refused(415, () =>
      api.call('PUT', `/api/users/${tester.id}`, {
        raw: 'name=x',
        token: tester.token,
        headers: { 'content-type': 'text/plain' },
      }),
    );
  });
});
