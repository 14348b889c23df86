import { Mailer, silentLogger } from '@bugtrail/platform';
import { eventually, http, mailText, registerUser, startSmtpServer, type TestUser } from '@bugtrail/testing';
import { startTestSystem, type TestSystem } from '@bugtrail/testing/system';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MailReactor } from './mail-reactor.js';

const BASE = 'http://bugs.example.test';

/** Notification mail against a real SMTP server on 127.0.0.1 (smtp-server): api.md "People", Email. */
describe('notification mail (real SMTP server)', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let t: TestSystem;
  let api: ReturnType<typeof http>;
  let tester: TestUser;

  const mailsTo = (user: TestUser) => smtp.mails.filter((m) => m.to.includes(user.email));
  const report = async (title: string, assignee: TestUser) => {
    const answer = await api.post(
      '/api/bugs',
      { title, description: 'Steps are in the attached log file.', assignedTo: [assignee.id] },
      tester.token,
    );
    expect(answer.status).toBe(201);
    return answer.body.bug as { _id: string; number: number };
  };
  const settle = () => new Promise((resolve) => setTimeout(resolve, 3_000));

  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await startTestSystem({ config: { smtpUrl: smtp.url, publicUrl: BASE } as never });
    api = http(t.url);
    tester = await registerUser(t.url, 'tester', 'Tia Tester');
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it('mails each notification once, within seconds, with a link and an unsubscribe link; never to the actor', async () => {
    const developer = await registerUser(t.url, 'developer', 'Dev Mailed');
    const bug = await report('Upload stalls at 99%', developer);
    const mail = await eventually(async () => mailsTo(developer)[0]);
    const body = mailText(mail.raw);
    expect(body).toMatch(new RegExp(`^Subject: Tia Tester assigned you to #${bug.number} Upload stalls at 99%`, 'm'));
    expect(body).toContain(`${BASE}/bugs/${bug.number}`);
    expect(body).toContain('text/plain');
    expect(body).toContain('text/html');
    expect(body).toMatch(/^List-Unsubscribe:\s+<http:\/\/bugs\.example\.test\/unsubscribe\?token=/m);
    expect(body).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/m);
    expect(mailsTo(tester)).toEqual([]);

    // A second reactor (another projector node) and a restarted system mail nothing again.
    const mailer = Mailer.fromConfig({ smtpUrl: smtp.url, mailFrom: 'x <x@example.com>' })!;
    expect(await new MailReactor(mailer, t.system.pool, { logger: silentLogger, baseUrl: BASE }).runOnce()).toBe(0);
    mailer.close();
    const again = await startTestSystem({ databaseUrl: t.databaseUrl, config: { smtpUrl: smtp.url } as never });
    await settle();
    await again.close();
    expect(mailsTo(developer)).toHaveLength(1);

    // The unsubscribe link turns mail off, without a login.
    const token = new URL(body.match(/http:\/\/bugs\.example\.test\/unsubscribe\?token=[^\s>"]+/)![0]).searchParams.get(
      'token',
    );
    const unsubscribed = await api.post('/api/notifications/unsubscribe', { token });
    expect(unsubscribed.status, JSON.stringify(unsubscribed.body)).toBe(200);
    expect(unsubscribed.body).toEqual({
      message: 'You will no longer receive notification emails',
      email: developer.email,
    });
    expect((await api.get('/api/auth/profile', developer.token)).body.user.preferences).toEqual({ email: 'off' });
    expect((await api.post('/api/notifications/unsubscribe', { token: `${token}x` })).status).toBe(400);

    // RFC 8058: a mail client posts "List-Unsubscribe=One-Click" to the List-Unsubscribe URI itself.
    expect(
      (await api.put(`/api/users/${developer.id}/preferences`, { email: 'immediate' }, developer.token)).status,
    ).toBe(200);
    const oneClick = (query: string) =>
      fetch(`${t.url}/unsubscribe?${query}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'List-Unsubscribe=One-Click',
      });
    const clicked = await oneClick(`token=${encodeURIComponent(token!)}`);
    expect(clicked.status).toBe(200);
    expect(await clicked.json()).toEqual({
      message: 'You will no longer receive notification emails',
      email: developer.email,
    });
    expect((await api.get('/api/auth/profile', developer.token)).body.user.preferences).toEqual({ email: 'off' });
    expect((await oneClick(`token=${encodeURIComponent(`${token}x`)}`)).status).toBe(400);
    expect((await oneClick('')).status).toBe(400);
  });

  it('never mails what was made while mail was off, and delays mail while SMTP is down', async () => {
    const developer = await registerUser(t.url, 'developer', 'Dev Quiet');
    expect((await api.put(`/api/users/${developer.id}/preferences`, { email: 'off' }, developer.token)).status).toBe(
      200,
    );
    await report('Tooltip hides the save button', developer);
    await settle();
    expect(
      (await api.put(`/api/users/${developer.id}/preferences`, { email: 'immediate' }, developer.token)).body,
    ).toEqual({ preferences: { email: 'immediate' } });
    await settle();
    expect(mailsTo(developer)).toEqual([]);
    expect((await api.put(`/api/users/${developer.id}/preferences`, { email: 'weekly' }, developer.token)).status).toBe(
      400,
    );
    expect((await api.put(`/api/users/${developer.id}/preferences`, { email: 'off' }, tester.token)).status).toBe(403);

    await smtp.stop();
    await report('Sorting by date is reversed', developer);
    await settle();
    await smtp.start();
    const mail = await eventually(async () => mailsTo(developer)[0], 150);
    expect(mailText(mail.raw)).toContain('Sorting by date is reversed');
  });

  it('gathers daily notifications into one digest a day', async () => {
    const developer = await registerUser(t.url, 'developer', 'Dev Digest');
    expect((await api.put(`/api/users/${developer.id}/preferences`, { email: 'daily' }, developer.token)).status).toBe(
      200,
    );
    await report('Avatar crops faces', developer);
    await report('Emoji break the search', developer);
    await settle();
    expect(mailsTo(developer)).toEqual([]);
    const mailer = Mailer.fromConfig({ smtpUrl: smtp.url, mailFrom: 'x <x@example.com>' })!;
    const reactor = new MailReactor(mailer, t.system.pool, { logger: silentLogger, baseUrl: BASE });
    await reactor.runOnce();
    expect(mailsTo(developer)).toEqual([]);
    expect(await reactor.runOnce(new Date(Date.now() + 25 * 3_600_000))).toBe(1);
    mailer.close();
    const [digest] = mailsTo(developer);
    const body = mailText(digest!.raw);
    expect(body).toMatch(/^Subject: Your Bugtrail digest: 2 notifications/m);
    expect(body).toContain('Avatar crops faces');
    expect(body).toContain('Emoji break the search');
  });
});
