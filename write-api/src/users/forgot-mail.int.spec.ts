import { request } from 'node:http';
import { userMessages } from '@bugtrail/domain';
import { createTestDatabase, eventually, http, mailText, registerUser, startSmtpServer } from '@bugtrail/testing';
import { startTestSystem, type TestSystem } from '@bugtrail/testing/system';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const PUBLIC_URL = 'https://bugs.example.org';

/** POST /api/auth/forgot with a Host header of the caller's choosing (fetch would not let it be set). */
function forgotWithHost(baseUrl: string, host: string, email: string): Promise<number> {
  const body = JSON.stringify({ email });
  return new Promise((resolve, reject) => {
    const req = request(
      `${baseUrl}/api/auth/forgot`,
      {
        method: 'POST',
        headers: { host, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Forgot password with SMTP set up, against a real SMTP server on 127.0.0.1 (smtp-server). */
describe('forgot password by mail (real SMTP server)', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let t: TestSystem;
  let api: ReturnType<typeof http>;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await startTestSystem({
      config: { smtpUrl: smtp.url, mailFrom: 'Bugtrail <bugs@example.com>', publicUrl: PUBLIC_URL } as never,
    });
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
    expect(link!.startsWith(`${PUBLIC_URL}/reset-password?token=`)).toBe(true);
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
    const config = { smtpUrl: smtp.url, mailFrom: 'Bugtrail <bugs@example.com>', publicUrl: PUBLIC_URL } as never;
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

  it('builds the link from PUBLIC_URL, never from the Host the request names', async () => {
    const user = await registerUser(t.url, 'tester', 'Hana Host');
    expect(await forgotWithHost(t.url, 'evil.example', user.email)).toBe(202);
    const mail = await eventually(async () => smtp.mails.find((m) => m.to.includes(user.email)));
    const body = mailText(mail.raw);
    expect(body).not.toContain('evil.example');
    expect(body).toContain(`${PUBLIC_URL}/reset-password?token=`);
  });
});

describe('forgot password with SMTP but no PUBLIC_URL', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let t: TestSystem;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await startTestSystem({ config: { smtpUrl: smtp.url, mailFrom: 'Bugtrail <bugs@example.com>' } as never });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it('mails nothing (there is no trustworthy origin for the link) and says to ask an admin', async () => {
    const user = await registerUser(t.url, 'tester', 'Nora NoUrl');
    expect(await forgotWithHost(t.url, 'evil.example', user.email)).toBe(202);
    const answer = await http(t.url).post('/api/auth/forgot', { email: user.email });
    expect(answer.status).toBe(202);
    expect(answer.body.message).toBe(userMessages.resetNotMailed);
    // No link was made at all (the route makes it before answering), so none can be on its way.
    const { rows } = await t.system.pool.query<{ n: string }>(
      'select count(*) as n from auth.password_resets where user_id = $1',
      [user.id],
    );
    expect(Number(rows[0]!.n)).toBe(0);
    expect(smtp.mails.filter((m) => m.to.includes(user.email))).toEqual([]);
  });
});

describe('forgot password: limited per address and per client address', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let t: TestSystem;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await startTestSystem({
      config: { smtpUrl: smtp.url, mailFrom: 'Bugtrail <bugs@example.com>', publicUrl: PUBLIC_URL } as never,
    });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  const linksMadeFor = async (userId: string) => {
    const { rows } = await t.system.pool.query<{ n: string }>(
      'select count(*) as n from auth.password_resets where user_id = $1',
      [userId],
    );
    return Number(rows[0]!.n);
  };

  it('mails one address at most 3 times for 30 parallel requests, answering each 202', async () => {
    const user = await registerUser(t.url, 'tester', 'Paula Parallel');
    const api = http(t.url);
    const answers = await Promise.all(
      Array.from({ length: 30 }, () => api.post('/api/auth/forgot', { email: user.email })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(30).fill(202));
    expect(new Set(answers.map((a) => a.body.message))).toEqual(new Set([userMessages.resetRequested]));
    expect(await linksMadeFor(user.id)).toBe(3);
    // Each link made is one mail: the three arrive, and there is no fourth to come.
    await eventually(async () => smtp.mails.filter((m) => m.to.includes(user.email)).length >= 3 || undefined);
    expect(smtp.mails.filter((m) => m.to.includes(user.email))).toHaveLength(3);
  });

  it('answers a client address 20 times an hour, then mails nothing more from it', async () => {
    const api = http(t.url);
    const user = await registerUser(t.url, 'tester', 'Ivo Inbox');
    // 20 requests (for addresses with no account) use this client address's hour up.
    for (let i = 0; i < 20; i += 1) {
      expect((await api.post('/api/auth/forgot', { email: `nobody.${i}@example.com` })).status).toBe(202);
    }
    const answer = await api.post('/api/auth/forgot', { email: user.email });
    expect(answer.status).toBe(202);
    expect(answer.body.message).toBe(userMessages.resetRequested);
    expect(await linksMadeFor(user.id)).toBe(0);
  });
});
