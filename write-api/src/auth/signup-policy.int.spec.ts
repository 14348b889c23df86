import { signupMessages, userMessages } from '@bugtrail/domain';
import {
  countStoredEvents,
  expectRefused,
  http,
  registerUser,
  TEST_INVITE_CODE,
  type TestUser,
} from '@bugtrail/testing';
import { startTestSystem, type TestSystem } from '@bugtrail/testing/system';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const PASSWORD = 'correct horse battery';
let counter = 0;
const newEmail = (who: string) => `${who}.${Date.now().toString(36)}${++counter}@example.com`;

/**
 * Issue 40: a self-hoster chooses who may sign up. Open (the spec's default) or by
 * invitation: then testers and developers sign up with a code or link an admin made for
 * their role; an admin signup needs an admin invite code either way. Each choice is an
 * event, set by admins only.
 */
describe('signup policy: open or by invitation', () => {
  let t: TestSystem;
  let api: ReturnType<typeof http>;
  let admin: TestUser;
  let developer: TestUser;

  const refused = (status: number, call: () => Promise<{ status: number; body: any }>) =>
    expectRefused(t.system.pool, status, call);
  const signup = (body: Record<string, unknown>) =>
    api.post('/api/auth/register', { name: 'Ivy Invited', email: newEmail('ivy'), password: PASSWORD, ...body });
  const setMode = (mode: string, token = admin.token) => api.put('/api/auth/signup-policy', { mode }, token);
  const invite = async (role: string) => {
    const minted = await api.post('/api/auth/invite-codes', { role }, admin.token);
    expect(minted.status, JSON.stringify(minted.body)).toBe(201);
    return minted.body as { _id: string; code: string; role: string; url: string; expiresAt: string };
  };

  beforeAll(async () => {
    t = await startTestSystem();
    api = http(t.url);
    admin = await registerUser(t.url, 'admin', 'Ada Admin');
    developer = await registerUser(t.url, 'developer', 'Dev Eloper');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('is open by default: anyone signs up as tester or developer with no code', async () => {
    expect((await api.get('/api/auth/signup-policy')).body).toEqual({ mode: 'open' });
    expect((await signup({ role: 'developer' })).status).toBe(201);
  });

  it('is set by admins only, as an event; a bad mode is 400 and appends nothing', async () => {
    await refused(403, () => setMode('invitation', developer.token));
    await refused(401, () => api.put('/api/auth/signup-policy', { mode: 'invitation' }));
    const bad = await refused(400, () => setMode('closed'));
    expect(bad.body.message).toBe(signupMessages.modeInvalid);
    await refused(400, () => api.put('/api/auth/signup-policy', {}, admin.token));

    const set = await setMode('invitation');
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ mode: 'invitation' });
    const { rows } = await t.system.pool.query(
      "select type, data, metadata from eventstore.events where stream_id = 'settings-signup' order by stream_revision",
    );
    expect(rows.map((row) => [row.type, row.data.mode, row.metadata.actorId])).toEqual([
      ['SignupPolicySet', 'invitation', admin.id],
    ]);
    // The same choice again changes nothing.
    const before = await countStoredEvents(t.system.pool);
    expect((await setMode('invitation')).status).toBe(200);
    expect(await countStoredEvents(t.system.pool)).toBe(before);
    // Read at once by the signup page, with no account.
    expect((await api.get('/api/auth/signup-policy')).body).toEqual({ mode: 'invitation' });
  });

  it('by invitation: no code is 400, a wrong one 403, and nothing is made', async () => {
    const email = newEmail('walk.in');
    const missing = await refused(400, () =>
      api.post('/api/auth/register', { name: 'Walk In', email, password: PASSWORD, role: 'tester' }),
    );
    expect(missing.body.message).toBe(signupMessages.codeRequired);
    const wrong = await refused(403, () =>
      api.post('/api/auth/register', { name: 'Walk In', email, password: PASSWORD, inviteCode: '000000' }),
    );
    expect(wrong.body.message).toBe(signupMessages.codeInvalid);
    // The admin's bootstrap code is not an invitation for a tester.
    await refused(403, () =>
      api.post('/api/auth/register', { name: 'Walk In', email, password: PASSWORD, inviteCode: TEST_INVITE_CODE }),
    );
    expect((await api.post('/api/auth/login', { email, password: PASSWORD })).status).toBe(401);
  });

  it('by invitation: a code or link made for a role signs up that role once; another role or a second use is 403', async () => {
    const invitation = await invite('developer');
    expect(invitation.code).toMatch(/^\d{6}$/);
    expect(invitation.role).toBe('developer');
    const link = new URL(invitation.url);
    expect(link.pathname).toBe('/signup');
    expect(link.searchParams.get('invite')).toBe(invitation.code);
    expect(link.searchParams.get('role')).toBe('developer');
    // A week to accept, not a day.
    const days = (Date.parse(invitation.expiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThan(7.1);

    const listed = await api.get('/api/auth/invite-codes', admin.token);
    expect(listed.body.codes.find((code: { _id: string }) => code._id === invitation._id)?.role).toBe('developer');

    // A developer's invitation does not make a tester, nor an admin.
    await refused(403, () => signup({ role: 'tester', inviteCode: invitation.code }));
    const asAdmin = await refused(403, () => signup({ role: 'admin', adminInviteToken: invitation.code }));
    expect(asAdmin.body.message).toBe(userMessages.inviteInvalid);

    const joined = await signup({ role: 'developer', inviteCode: ` ${invitation.code} ` });
    expect(joined.status, JSON.stringify(joined.body)).toBe(201);
    expect(joined.body.role).toBe('developer');
    const registered = await t.system.pool.query(
      "select data from eventstore.events where stream_id = $1 and type = 'UserRegistered'",
      [`user-${joined.body._id}`],
    );
    expect(registered.rows[0].data.inviteCodeId).toBe(invitation._id);
    // Used: off the list, and no second account with it.
    const after = await api.get('/api/auth/invite-codes', admin.token);
    expect(after.body.codes.some((code: { _id: string }) => code._id === invitation._id)).toBe(false);
    await refused(403, () => signup({ role: 'developer', inviteCode: invitation.code }));
  });

  it('by invitation: a revoked invitation opens nothing; an admin still signs up with an admin code', async () => {
    const invitation = await invite('tester');
    expect((await api.delete(`/api/auth/invite-codes/${invitation._id}`, admin.token)).status).toBe(204);
    await refused(403, () => signup({ role: 'tester', inviteCode: invitation.code }));
    const another = await signup({ role: 'admin', adminInviteToken: TEST_INVITE_CODE });
    expect(another.status).toBe(201);
  });

  it('only admins make invitations; a bad role is 400', async () => {
    await refused(403, () => api.post('/api/auth/invite-codes', { role: 'tester' }, developer.token));
    const bad = await refused(400, () => api.post('/api/auth/invite-codes', { role: 'auditor' }, admin.token));
    expect(bad.body.message).toBe(signupMessages.inviteRoleInvalid);
    // No body: an admin invite code, as api.md pins it.
    const plain = await api.post('/api/auth/invite-codes', undefined, admin.token);
    expect(Object.keys(plain.body).sort()).toEqual(['_id', 'code', 'expiresAt', 'singleUse']);
  });

  it('open again: people sign up with no code, and an unused invitation code is simply ignored', async () => {
    expect((await setMode('open')).body).toEqual({ mode: 'open' });
    expect((await signup({ role: 'tester' })).status).toBe(201);
    expect((await signup({ role: 'tester', inviteCode: 'anything' })).status).toBe(201);
  });
});
