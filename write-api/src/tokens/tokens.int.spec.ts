import { http, registerAuditor, registerUser, SseReader, type TestUser } from '@bugtrail/testing';
import { startTestSystem, type TestSystem } from '@bugtrail/testing/system';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const SCOPE = 'Token scope does not allow this';
const NOT_WITH_TOKEN = 'An API token cannot do this; sign in instead';

/** Personal API tokens (api.md "Integrations"), over real HTTP on a real PostgreSQL. */
describe('API tokens', () => {
  let t: TestSystem;
  let api: ReturnType<typeof http>;
  let admin: TestUser;
  let tester: TestUser;
  let developer: TestUser;

  const eventCount = async () =>
    Number((await t.system.pool.query('select count(*)::int as n from eventstore.events')).rows[0].n);
  const create = async (by: TestUser, body: Record<string, unknown> = { name: 'CI', scope: 'write' }) => {
    const answer = await api.post('/api/tokens', body, by.token);
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    return answer.body as { token: { _id: string; name: string; scope: string; expiresAt: string }; secret: string };
  };
  const validBug = () => ({
    title: 'Export drops the last row',
    description: 'The xlsx export loses its final row every time',
    priority: 'High',
    severity: 'Major',
    assignedTo: [developer.id],
  });

  beforeAll(async () => {
    t = await startTestSystem();
    api = http(t.url);
    admin = await registerUser(t.url, 'admin', 'Ada Admin');
    tester = await registerUser(t.url, 'tester', 'Tess Tester');
    developer = await registerUser(t.url, 'developer', 'Dan Dev');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers the secret once, keeps only its hash, and lists the token without it', async () => {
    const before = Date.now();
    const { token, secret } = await create(tester, { name: '  nightly import  ', scope: 'read' });
    expect(secret).toMatch(/^btp_[A-Za-z0-9_-]{43}$/);
    expect(token).toMatchObject({ name: 'nightly import', scope: 'read', lastUsedAt: null });
    // Default expiry: 90 days.
    const days = (Date.parse(token.expiresAt) - before) / 86_400_000;
    expect(days).toBeGreaterThan(89.9);
    expect(days).toBeLessThan(90.1);

    const listed = await api.get('/api/tokens', tester.token);
    expect(listed.status).toBe(200);
    expect(listed.body.tokens).toContainEqual({ ...token });
    expect(JSON.stringify(listed.body)).not.toContain(secret);
    const stored = await t.system.pool.query('select * from platform.api_tokens where id = $1', [token._id]);
    expect(JSON.stringify(stored.rows)).not.toContain(secret.slice(4));
    // Nobody else's list has it.
    expect((await api.get('/api/tokens', developer.token)).body.tokens).toEqual([]);
  });

  it('acts as its user: a write token reports a bug, and lastUsedAt moves on first use', async () => {
    const { token, secret } = await create(tester);
    const reported = await api.post('/api/bugs', validBug(), secret);
    expect(reported.status, JSON.stringify(reported.body)).toBe(201);
    expect(reported.body.bug.createdBy._id).toBe(tester.id);
    const read = await api.get(`/api/bugs/${reported.body.bug._id}`, secret);
    expect(read.status).toBe(200);
    const listed = await api.get('/api/tokens', tester.token);
    const used = listed.body.tokens.find((x: { _id: string }) => x._id === token._id);
    expect(used.lastUsedAt).not.toBeNull();
  });

  it('refuses every method but GET and HEAD to a read token, appending nothing', async () => {
    const { secret } = await create(tester, { name: 'dashboards', scope: 'read' });
    expect((await api.get('/api/bugs', secret)).status).toBe(200);
    const before = await eventCount();
    const report = await api.post('/api/bugs', validBug(), secret);
    expect(report.status).toBe(403);
    expect(report.body.message).toBe(SCOPE);
    // read-api's POST (triage suggestions) too.
    const suggestions = await api.post('/api/bugs/suggestions', { title: 'Export drops rows' }, secret);
    expect(suggestions.status).toBe(403);
    expect(suggestions.body.message).toBe(SCOPE);
    const del = await api.delete('/api/tokens/00000000-0000-4000-8000-000000000000', secret);
    expect(del.status).toBe(403);
    expect(await eventCount()).toBe(before);
  });

  it('never mints tokens, changes a password, email, role or MFA', async () => {
    const { secret } = await create(admin, { name: 'admin script', scope: 'write' });
    const refusals = [
      await api.post('/api/tokens', { name: 'another', scope: 'write' }, secret),
      await api.put(
        `/api/users/${admin.id}`,
        { password: 'a whole new secret', currentPassword: 'correct horse battery' },
        secret,
      ),
      await api.put(
        `/api/users/${admin.id}`,
        { email: `new.${Date.now()}@example.com`, currentPassword: 'correct horse battery' },
        secret,
      ),
      await api.put(`/api/users/${tester.id}`, { password: 'a whole new secret' }, secret),
      await api.put(`/api/users/${developer.id}/role`, { role: 'tester' }, secret),
      await api.post('/api/auth/mfa/setup', {}, secret),
      await api.post('/api/webhooks', { url: 'https://example.com/hook', events: ['*'] }, secret),
      await api.post(`/api/users/${tester.id}/reset-link`, {}, secret),
      await api.post('/api/auth/invite-codes', {}, secret),
    ];
    for (const answer of refusals) {
      expect(answer.status).toBe(403);
      expect(answer.body.message).toBe(NOT_WITH_TOKEN);
    }
    // Its name it may change.
    const renamed = await api.put(`/api/users/${admin.id}`, { name: 'Ada Scripted' }, secret);
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    // The same requests with a session work (the role change, for one).
    expect((await api.put(`/api/users/${developer.id}/role`, { role: 'developer' }, admin.token)).status).toBe(200);
  });

  it('is dead once deleted, expired, or its user deactivated (401)', async () => {
    const deleted = await create(tester);
    expect((await api.delete(`/api/tokens/${deleted.token._id}`, tester.token)).status).toBe(204);
    expect((await api.get('/api/bugs', deleted.secret)).status).toBe(401);

    const expired = await create(tester);
    await t.system.pool.query("update platform.api_tokens set expires_at = now() - interval '1 second' where id = $1", [
      expired.token._id,
    ]);
    const late = await api.get('/api/bugs', expired.secret);
    expect(late.status).toBe(401);
    expect(late.body.message).toBe('Token expired');

    const leaver = await registerUser(t.url, 'developer', 'Leo Leaver');
    const own = await create(leaver, { name: 'bot', scope: 'read' });
    expect((await api.get('/api/bugs', own.secret)).status).toBe(200);
    expect((await api.post(`/api/users/${leaver.id}/deactivate`, {}, admin.token)).status).toBe(200);
    expect((await api.get('/api/bugs', own.secret)).status).toBe(401);
    expect((await api.get('/api/bugs', 'btp_not-a-token-at-all')).status).toBe(401);
  });

  it('ends the live stream a token opened when the token is deleted', async () => {
    const { token, secret } = await create(developer, { name: 'watcher', scope: 'read' });
    const stream = await SseReader.open(t.url, secret);
    const session = await SseReader.open(t.url, developer.token);
    try {
      expect((await api.delete(`/api/tokens/${token._id}`, developer.token)).status).toBe(204);
      await stream.waitForEnd(5000);
      // The person's own session stream goes on.
      expect(session.isEnded).toBe(false);
    } finally {
      stream.close();
      session.close();
    }
  });

  it('acts with the role its user has now', async () => {
    const changing = await registerUser(t.url, 'tester', 'Rita Role');
    const { secret } = await create(changing, { name: 'ci', scope: 'read' });
    expect((await api.get('/api/audit/verify', secret)).status).toBe(403);
    expect((await api.put(`/api/users/${changing.id}/role`, { role: 'admin' }, admin.token)).status).toBe(200);
    expect((await api.get('/api/audit/verify', secret)).status).toBe(200);
  });

  it("revokes one's own; an admin anyone's; others' are not found", async () => {
    const mine = await create(tester);
    const theirs = await create(developer);
    expect((await api.delete(`/api/tokens/${theirs.token._id}`, tester.token)).status).toBe(404);
    expect((await api.delete('/api/tokens/not-an-id', tester.token)).status).toBe(404);
    expect((await api.get('/api/bugs', theirs.secret)).status).toBe(200);
    expect((await api.delete(`/api/tokens/${theirs.token._id}`, admin.token)).status).toBe(204);
    expect((await api.get('/api/bugs', theirs.secret)).status).toBe(401);
    // A write token may revoke a token of its user (itself included).
    expect((await api.delete(`/api/tokens/${mine.token._id}`, mine.secret)).status).toBe(204);
    expect((await api.get('/api/bugs', mine.secret)).status).toBe(401);
  });

  it("lists everyone's for an admin (and an auditor) with ?all=true, never for others", async () => {
    const { token } = await create(developer, { name: 'deploy bot', scope: 'write' });
    const all = await api.get('/api/tokens?all=true', admin.token);
    expect(all.status).toBe(200);
    expect(all.body.tokens).toContainEqual(
      expect.objectContaining({ _id: token._id, user: { _id: developer.id, name: 'Dan Dev' } }),
    );
    const auditor = await registerAuditor(t.url, admin.token);
    expect((await api.get('/api/tokens?all=true', auditor.token)).status).toBe(200);
    const refused = await api.get('/api/tokens?all=true', developer.token);
    expect(refused.status).toBe(403);
    // An auditor's own read token: created, and it reads.
    const auditorToken = await create(auditor, { name: 'audit export', scope: 'read' });
    expect((await api.get('/api/audit/verify', auditorToken.secret)).status).toBe(200);
  });

  it('refuses bad input with the field and its message, creating nothing', async () => {
    const before = await t.system.pool.query('select count(*)::int as n from platform.api_tokens');
    for (const body of [
      { name: '', scope: 'read' },
      { name: 'x'.repeat(101), scope: 'read' },
      { name: 'ok', scope: 'admin' },
      { name: 'ok', scope: 'read', expiresInDays: 0 },
      { name: 'ok', scope: 'read', expiresInDays: 367 },
      { name: 'ok', scope: 'read', expiresInDays: 1.5 },
      { name: 'ok', scope: 'read', expiresInDays: '30' },
      {},
    ]) {
      const answer = await api.post('/api/tokens', body, tester.token);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.details?.[0]?.message, JSON.stringify(answer.body)).toEqual(expect.any(String));
    }
    const after = await t.system.pool.query('select count(*)::int as n from platform.api_tokens');
    expect(after.rows[0].n).toBe(before.rows[0].n);
    const year = await create(tester, { name: 'yearly', scope: 'read', expiresInDays: 366 });
    expect(Date.parse(year.token.expiresAt) - Date.now()).toBeGreaterThan(365 * 86_400_000);
    expect((await api.post('/api/tokens', { name: 'x', scope: 'read' })).status).toBe(401);
  });

  describe('a fresh proof to mint one', () => {
    /** A session of `user` that signed in `minutesAgo` minutes ago (still valid, but not fresh). */
    const sessionSignedIn = (user: TestUser, minutesAgo: number) =>
      t.system.tokens.issue(
        { id: user.id, role: user.role === 'auditor' ? 'auditor' : user.role },
        { authenticatedAtMs: Date.now() - minutesAgo * 60_000 },
      );

    it('takes a session that signed in within the last 5 minutes without the password', async () => {
      const fresh = await sessionSignedIn(developer, 1);
      expect((await api.post('/api/tokens', { name: 'fresh', scope: 'read' }, fresh)).status).toBe(201);
    });

    it('asks an older session for the current password: 400 without, 403 wrong, 201 right', async () => {
      const stale = await sessionSignedIn(developer, 6);
      const before = await t.system.pool.query('select count(*)::int as n from platform.api_tokens');
      const missing = await api.post('/api/tokens', { name: 'stale', scope: 'write' }, stale);
      expect(missing.status).toBe(400);
      expect(missing.body.message).toBe('Current password is required');
      const wrong = await api.post('/api/tokens', { name: 'stale', scope: 'write', currentPassword: 'nope' }, stale);
      expect(wrong.status).toBe(403);
      expect(wrong.body.message).toBe('Current password is incorrect');
      const after = await t.system.pool.query('select count(*)::int as n from platform.api_tokens');
      expect(after.rows[0].n).toBe(before.rows[0].n);
      const right = await api.post(
        '/api/tokens',
        { name: 'stale', scope: 'write', currentPassword: 'correct horse battery' },
        stale,
      );
      expect(right.status, JSON.stringify(right.body)).toBe(201);
    });

    it('keeps the sign-in time across a role change: the new session is no fresher', async () => {
      const someone = await registerUser(t.url, 'admin', 'Rolf Role');
      const stale = await sessionSignedIn(someone, 6);
      const changed = await api.put(`/api/users/${someone.id}/role`, { role: 'developer' }, stale);
      expect(changed.status, JSON.stringify(changed.body)).toBe(200);
      const missing = await api.post('/api/tokens', { name: 'after role', scope: 'read' }, changed.body.token);
      expect(missing.status).toBe(400);
    });
  });
});
