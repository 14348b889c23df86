import { userMessages } from '@bugtrail/domain';
import { createTestDatabase, eventually, http, mailText, registerUser, startSmtpServer } from '@bugtrail/testing';
import { startTestSystem, type TestSystem } from '@bugtrail/testing/system';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** Forgot password with SMTP set up, against a real SMTP server on 127.0.0.1 (smtp-server). */
describe('forgot password by mail (real SMTP server)', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let t: TestSystem;
  let api: ReturnType<typeof http>;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await startTestSystem({ config: { smtpUrl: smtp.url, mailFrom: 'Bugtrail <bugs@example.com>' } as never });
    api = http(t.url);
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it('mails a one-time link to an existing account, and nothing for an unknown address; the link works once', async () => {
    const user = await registerUser(t.url, 'tester', 'Mia Mail');
    const unknown = await api.post('/api/auth/forgot', { email: 'nobody.here@example.com' });
    expect(unknown.status).toBe(202);
    expect(unknown.body.message).toBe(userMessages.resetRequested);

    const asked = await api.post('/api/auth/forgot', { email: user.email.toUpperCase() });
    expect(asked.status).toBe(202);
    expect(asked.body.message).toBe(userMessages.resetRequested);
    const mail = await eventually(async () => smtp.mails.find((m) => m.to.includes(user.email)));
    expect(smtp.mails.filter((m) => m.to.includes('nobody.here@example.com'))).toEqual([]);
    expect(mail.from).toBe('bugs@example.com');
    const body = mailText(mail.raw);
    expect(body).toMatch(/^Subject: Reset your Bugtrail password/m);
    expect(body).toContain('text/plain');
    expect(body).toContain('text/html');
    const link = body.match(/https?:\/\/[^\s"<]+\/reset-password\?token=[\w-]+/)?.[0];
    expect(link).toBeDefined();
    const token = new URL(link!).searchParams.get('token')!;

    expect((await api.post('/api/auth/reset', { token, password: 'mailed new password' })).status).toBe(200);
    expect((await api.post('/api/auth/login', { email: user.email, password: 'mailed new password' })).status).toBe(
      200,
    );
    expect((await api.post('/api/auth/reset', { token, password: 'and once more please' })).status).toBe(400);
  });

  it('delays the mail while the SMTP server is down and sends it when it is back', async () => {
    const user = await registerUser(t.url, 'developer', 'Dan Delayed');
    await smtp.stop();
    expect((await api.post('/api/auth/forgot', { email: user.email })).status).toBe(202);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(smtp.mails.some((m) => m.to.includes(user.email))).toBe(false);
    await smtp.start();
    const mail = await eventually(async () => smtp.mails.find((m) => m.to.includes(user.email)), 200);
    expect(mailText(mail.raw)).toContain('/reset-password?token=');
  });

  it('keeps the mail across a restart while the SMTP server is down', async () => {
    const database = await createTestDatabase();
    const config = { smtpUrl: smtp.url, mailFrom: 'Bugtrail <bugs@example.com>' } as never;
    let first: TestSystem | null = await startTestSystem({ databaseUrl: database.url, config });
    let second: TestSystem | null = null;
    try {
      const user = await registerUser(first.url, 'tester', 'Rita Restart');
      await smtp.stop();
      expect((await http(first.url).post('/api/auth/forgot', { email: user.email })).status).toBe(202);
      await first.close();
      first = null;
      await smtp.start();
      expect(smtp.mails.some((m) => m.to.includes(user.email))).toBe(false);
      second = await startTestSystem({ databaseUrl: database.url, config });
      const mail = await eventually(async () => smtp.mails.find((m) => m.to.includes(user.email)), 200);
      const link = mailText(mail.raw).match(/\/reset-password\?token=([\w-]+)/)?.[1];
      expect(link).toBeDefined();
      expect(
        (await http(second.url).post('/api/auth/reset', { token: link, password: 'after the restart' })).status,
      ).toBe(200);
      // Sent, the mail (and its link) leaves the outbox.
      const { rowCount } = await second.system.pool.query('select 1 from platform.mail_outbox');
      expect(rowCount).toBe(0);
      expect(smtp.mails.filter((m) => m.to.includes(user.email))).toHaveLength(1);
    } finally {
      await first?.close();
      await second?.close();
      await database.drop();
    }
  });
});
