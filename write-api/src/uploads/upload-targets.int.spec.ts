import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '@bugtrail/platform';
import { type BodyAnswer, http, registerUser, sendThenWait, type TestUser } from '@bugtrail/testing';
import { startTestSystem, type TestSystem } from '@bugtrail/testing/system';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * api.md "Second round of safety": multipart requests are authorised and their target
 * checked before the body is read. Each request here declares a 20 MB body, sends its first
 * 64 kB and then waits without sending more: the refusal must come on those 64 kB alone
 * (a server that reads on would wait for the rest and never answer), the connection must
 * then end (the rest is not drained off the socket), and nothing may reach the spool.
 */
const BOUNDARY = 'uploadtargetsboundary';
const DECLARED = 20 * 1024 * 1024;
const SENT = 64 * 1024;
/** Only a bound on a failure: a refusal that needs no more bytes comes at once. */
const NO_ANSWER_AFTER_MS = 20_000;

const filePart = (field: string) =>
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${field}"; filename="big.txt"\r\n` +
  'Content-Type: text/plain\r\n\r\n';

describe('multipart uploads to a target the caller may not reach', () => {
  let t: TestSystem;
  let spoolDir: string;
  let tester: TestUser;
  let stranger: TestUser;
  let developer: TestUser;
  let chatId: string;
  let bugId: string;

  beforeAll(async () => {
    spoolDir = await mkdtemp(path.join(os.tmpdir(), 'bugtrail-spool-targets-'));
    t = await startTestSystem({ config: { spool: { ...loadConfig({}).spool, dir: spoolDir } } });
    const api = http(t.url);
    tester = await registerUser(t.url, 'tester', 'Tess Tester');
    stranger = await registerUser(t.url, 'tester', 'Stan Stranger');
    developer = await registerUser(t.url, 'developer', 'Dan Dev');
    const chat = await api.post('/api/chats', { name: 'Members only', type: 'private' }, tester.token);
    expect(chat.status).toBe(201);
    chatId = chat.body._id;
    const bug = await api.post(
      '/api/bugs',
      {
        title: 'Files only from those who may edit it',
        description: 'A bug to attach files to',
        priority: 'Low',
        severity: 'Minor',
        assignedTo: [developer.id],
      },
      tester.token,
    );
    expect(bug.status).toBe(201);
    bugId = bug.body.bug._id;
  });
  afterAll(async () => {
    await t?.close();
    await rm(spoolDir, { recursive: true, force: true });
  });

  /** Declares 20 MB, sends 64 kB (framing included) and waits for the answer. */
  async function upload(
    urlPath: string,
    token: string | null,
    field: string,
    headers: Record<string, string> = {},
  ): Promise<BodyAnswer> {
    const prefix = filePart(field);
    const sending = sendThenWait(t.url, {
      path: urlPath,
      headers: {
        'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
        'content-length': String(DECLARED),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...headers,
      },
      prefix,
      bytes: SENT - Buffer.byteLength(prefix),
    });
    let timer: NodeJS.Timeout | undefined;
    const noAnswer = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), NO_ANSWER_AFTER_MS);
    });
    const answer = await Promise.race([sending, noAnswer]);
    clearTimeout(timer);
    expect(answer, `${urlPath}: no answer on the first 64 kB of the body`).not.toBeNull();
    // The server ends the connection rather than take in the rest of the body.
    await answer!.closed;
    expect(answer!.headers.connection).toBe('close');
    expect(answer!.sent).toBeLessThanOrEqual(SENT);
    expect(await readdir(spoolDir)).toEqual([]);
    return answer!;
  }

  const message = (answer: BodyAnswer) => (JSON.parse(answer.text) as { message: string }).message;

  it('answers 404 for a chat that does not exist, on both chat paths', async () => {
    for (const base of ['/api/chats', '/chats']) {
      const answer = await upload(`${base}/${randomUUID()}/messages`, tester.token, 'attachments');
      expect(answer.status).toBe(404);
      expect(message(answer)).toBe('Chat not found');
    }
  });

  it('answers 403 or 404 for a chat the caller is not in', async () => {
    const answer = await upload(`/api/chats/${chatId}/messages`, stranger.token, 'attachments');
    expect([403, 404]).toContain(answer.status);
  });

  it('refuses the same with an Idempotency-Key (its fingerprint reads no more than 64 kB)', async () => {
    const answer = await upload(`/chats/${randomUUID()}/messages`, tester.token, 'attachments', {
      'idempotency-key': randomUUID(),
    });
    expect(answer.status).toBe(404);
  });

  it('answers 401 without a token', async () => {
    const answer = await upload(`/api/chats/${chatId}/messages`, null, 'attachments');
    expect(answer.status).toBe(401);
  });

  it('answers 404 for a bug that does not exist and 403 to one who may not attach', async () => {
    const missing = await upload(`/api/bugs/${randomUUID()}/attachments`, tester.token, 'file');
    expect(missing.status).toBe(404);
    const notAllowed = await upload(`/api/bugs/${bugId}/attachments`, developer.token, 'file');
    expect(notAllowed.status).toBe(403);
  });

  it('still takes the member\u2019s own upload in whole', async () => {
    const form = new FormData();
    form.append('content', 'with a file');
    form.append('attachments', new Blob(['hello'], { type: 'text/plain' }), 'hello.txt');
    const sent = await fetch(`${t.url}/api/chats/${chatId}/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tester.token}` },
      body: form,
    });
    expect(sent.status).toBe(201);
    expect(await readdir(spoolDir)).toEqual([]);
  });
});
