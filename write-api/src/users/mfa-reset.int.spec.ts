import {
  eventually,
  http,
  mailText,
  registerAuditor,
  registerUser,
  startSmtpServer,
  type TestUser,
} from '@bugtrail/testing';
import { startTestSystem, type TestSystem } from '@bugtrail/testing/system';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const PASSWORD = 'correct horse battery'; // registerUser's

/** DELETE /api/users/{id}/mfa (api.md "Second round of safety"): an admin unlocks a locked-out owner. */
describe('an admin resets someone’s two-factor sign-in', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let t: TestSystem;
  let api: ReturnType<typeof http>;
  let admin: TestUser;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await startTestSystem({
      config: {
        smtpUrl: smtp.url,
        mailFrom: 'Bugtrail <bugs@example.com>',
        publicUrl: 'https://bugs.example.org',
      } as never,
    });
    api = http(t.url);
    admin = await registerUser(t.url, 'admin', 'Ada Admin');
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  async function userWithMfa(): Promise<TestUser> {
    const user = await registerUser(t.url, 'developer', 'Lou Locked');
    const setup = await api.post('/api/auth/mfa/setup', { currentPassword: PASSWORD }, user.token);
    expect(setup.status).toBe(200);
    const code = TOTP.generate({ secret: Secret.fromBase32(setup.body.secret) });
    expect((await api.post('/api/auth/mfa/enable', { code }, user.token)).status).toBe(200);
    return user;
  }
  const count = async (table: string, userId: string) =>
    Number(
      (await t.system.pool.query(`select count(*)::int as n from ${table} where user_id = $1`, [userId])).rows[0].n,
    );

  it('is for admins only: 403 for others (auditors too), 404 for an unknown user; nothing changes', async () => {
    const user = await userWithMfa();
    const tester = await registerUser(t.url, 'tester');
    const auditor = await registerAuditor(t.url, admin.token);
    expect((await api.delete(`/api/users/${user.id}/mfa`, tester.token)).status).toBe(403);
    expect((await api.delete(`/api/users/${user.id}/mfa`, auditor.token)).status).toBe(403);
    expect((await api.delete(`/api/users/${user.id}/mfa`, user.token)).status).toBe(403);
    const unknown = await api.delete('/api/users/no-such-user/mfa', admin.token);
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('User not found');
    expect(await count('auth.mfa', user.id)).toBe(1);
  });

  it('removes the MFA and recovery codes, records it on the user’s stream, and tells the user', async () => {
    const user = await userWithMfa();
    expect((await api.post('/api/auth/login', { email: user.email, password: PASSWORD })).body.mfaRequired).toBe(true);

    const reset = await api.delete(`/api/users/${user.id}/mfa`, admin.token);
    expect(reset.status, JSON.stringify(reset.body)).toBe(200);
    expect(await count('auth.mfa', user.id)).toBe(0);
    expect(await count('auth.mfa_recovery_codes', user.id)).toBe(0);
    const { rows } = await t.system.pool.query<{ type: string; actor: string }>(
      "select type, metadata->>'actorId' as actor from eventstore.events where stream_id = $1 and type = 'MfaReset'",
      [`user-${user.id}`],
    );
    expect(rows).toEqual([{ type: 'MfaReset', actor: admin.id }]);

    // The password alone signs in again.
    const login = await api.post('/api/auth/login', { email: user.email, password: PASSWORD });
    expect(login.status).toBe(200);
    expect(typeof login.body.token).toBe('string');

    const notifications = await api.get('/api/notifications', user.token);
    expect(notifications.body.notifications).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'mfa_reset', actor: expect.objectContaining({ _id: admin.id }) }),
      ]),
    );
    const mail = await eventually(async () => smtp.mails.find((m) => m.to.includes(user.email)));
    expect(mailText(mail.raw)).toContain('two-factor authentication');
  });

  it('mails the security notice even to someone who turned notification mail off or to a daily digest', async () => {
    for (const email of ['off', 'daily'] as const) {
      const user = await userWithMfa();
      const set = await api.put(`/api/users/${user.id}/preferences`, { email }, user.token);
      expect(set.status, JSON.stringify(set.body)).toBe(200);
      expect((await api.delete(`/api/users/${user.id}/mfa`, admin.token)).status).toBe(200);
      const mail = await eventually(async () => smtp.mails.find((m) => m.to.includes(user.email)));
      expect(mailText(mail.raw)).toContain('two-factor authentication');
    }
  });
});
