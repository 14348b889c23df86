import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '@bugtrail/platform';
import { eventually, http, registerUser, sendEndlessly, sendThenWait, type TestUser } from '@bugtrail/testing';
import { startTestSystem, type TestSystem } from '@bugtrail/testing/system';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Issue 40 "Bad input and resource limits", ADR 025: per-user and per-address spool quotas
 * and a free-disk floor bound what uploads write to disk at once. Each refused request here
 * would pass its route's own limit (20 MB a file); it is refused for what is in the spool
 * already (429 with Retry-After) or for the disk (507), and leaves nothing behind.
 */
const BOUNDARY = 'uploadquotasboundary';
const MB = 1024 * 1024;
const PER_USER = 8 * MB;
const PER_ADDRESS = 12 * MB;

const filePart = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="attachments"; filename="big.txt"\r\nContent-Type: text/plain\r\n\r\n`;
const closing = `\r\n--${BOUNDARY}--\r\n`;

/** The spool's folders with their bytes. */
async function spoolFolders(dir: string): Promise<Map<string, number>> {
  const sizes = new Map<string, number>();
  for (const name of await readdir(dir).catch(() => [])) {
    const size = await stat(path.join(dir, name, 'body')).then(
      (info) => info.size,
      () => 0,
    );
    sizes.set(name, size);
  }
  return sizes;
}

describe('spool quotas', () => {
  let t: TestSystem;
  let spoolDir: string;
  let users: TestUser[];
  let chatId: string;

  beforeAll(async () => {
    spoolDir = await mkdtemp(path.join(os.tmpdir(), 'bugtrail-spool-quotas-'));
    t = await startTestSystem({
      config: {
        spool: { dir: spoolDir, perUserBytes: PER_USER, perAddressBytes: PER_ADDRESS, minFreeBytes: 0 },
      },
    });
    users = [];
    for (const name of ['Ann', 'Ben', 'Cat']) users.push(await registerUser(t.url, 'tester', `${name} Uploader`));
    const chat = await http(t.url).post(
      '/api/chats',
      { name: 'Uploads', participants: users.map((u) => u.id) },
      users[0]!.token,
    );
    expect(chat.status).toBe(201);
    chatId = chat.body._id;
  });
  afterAll(async () => {
    await t?.close();
    await rm(spoolDir, { recursive: true, force: true });
  });

  const headers = (user: TestUser, length?: number) => ({
    'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
    authorization: `Bearer ${user.token}`,
    ...(length ? { 'content-length': String(length) } : {}),
  });

  /** An upload that sends `bytes` of a larger declared body and stalls; resolves once the spool holds them. */
  async function stalledUpload(user: TestUser, bytes: number) {
    const stall = new AbortController();
    const before = new Set((await spoolFolders(spoolDir)).keys());
    const answer = sendThenWait(t.url, {
      path: `/api/chats/${chatId}/messages`,
      headers: headers(user, bytes + MB),
      prefix: filePart,
      bytes: bytes - filePart.length,
      signal: stall.signal,
    });
    await eventually(async () => {
      for (const [name, size] of await spoolFolders(spoolDir)) if (!before.has(name) && size >= bytes) return true;
      return null;
    }, 300);
    return {
      async release() {
        stall.abort();
        await answer;
      },
    };
  }

  /** A message with a file of `bytes`, declared up front (refused before its end is sent). */
  const upload = (user: TestUser, bytes: number) =>
    sendThenWait(t.url, {
      path: `/api/chats/${chatId}/messages`,
      headers: headers(user, filePart.length + bytes + closing.length),
      prefix: filePart,
      bytes,
    });

  const finishedWithNothingLeft = async () =>
    eventually(async () => ((await spoolFolders(spoolDir)).size === 0 ? true : null));

  it('refuses a second upload that would take one user past the quota, then takes it', async () => {
    const [ann] = users;
    const first = await stalledUpload(ann!, 5 * MB);
    const folders = await spoolFolders(spoolDir);
    // 4 MB more is within the route's 20 MB, not within the 8 MB Ann may have at once.
    const refused = await upload(ann!, 4 * MB);
    expect(refused.status, refused.text).toBe(429);
    expect(JSON.parse(refused.text).message).toBe(
      'Too many uploads in progress for your account (at most 8 MB at once): try again when the others have finished',
    );
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Nothing of the refused request is on disk.
    expect([...(await spoolFolders(spoolDir)).keys()]).toEqual([...folders.keys()]);

    await first.release();
    await finishedWithNothingLeft();
    const form = new FormData();
    form.append('attachments', new Blob([Buffer.alloc(4 * MB, 0x61)], { type: 'text/plain' }), 'big.txt');
    const taken = await fetch(`${t.url}/api/chats/${chatId}/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ann!.token}` },
      body: form,
    });
    expect(taken.status, await taken.clone().text()).toBe(201);
    await finishedWithNothingLeft();
  });

  it('cuts a body without a declared length once it passes the quota', async () => {
    const [ann] = users;
    const first = await stalledUpload(ann!, 5 * MB);
    const folders = await spoolFolders(spoolDir);
    const cut = await sendEndlessly(t.url, {
      path: `/api/chats/${chatId}/messages`,
      headers: headers(ann!),
      prefix: filePart,
      maxBytes: 15 * MB,
    });
    expect([429, null], cut.text).toContain(cut.status);
    expect(cut.sent).toBeLessThan(15 * MB);
    await eventually(async () =>
      [...(await spoolFolders(spoolDir)).keys()].join() === [...folders.keys()].join() ? true : null,
    );
    await first.release();
    await finishedWithNothingLeft();
  });

  it('refuses an upload that would take one address past its quota, whoever sends it', async () => {
    const [ann, ben, cat] = users;
    const first = await stalledUpload(ann!, 5 * MB);
    const second = await stalledUpload(ben!, 5 * MB);
    const folders = await spoolFolders(spoolDir);
    const refused = await upload(cat!, 4 * MB);
    expect(refused.status, refused.text).toBe(429);
    expect(JSON.parse(refused.text).message).toMatch(/from your address \(at most 12 MB at once\)/);
    expect([...(await spoolFolders(spoolDir)).keys()]).toEqual([...folders.keys()]);
    await first.release();
    await second.release();
    await finishedWithNothingLeft();
  });
});

describe('the free-disk floor', () => {
  let t: TestSystem;
  let spoolDir: string;

  beforeAll(async () => {
    spoolDir = await mkdtemp(path.join(os.tmpdir(), 'bugtrail-spool-floor-'));
    // A floor no disk here reaches: every upload finds the disk "full".
    t = await startTestSystem({
      config: { spool: { ...loadConfig({}).spool, dir: spoolDir, minFreeBytes: Number.MAX_SAFE_INTEGER } },
    });
  });
  afterAll(async () => {
    await t?.close();
    await rm(spoolDir, { recursive: true, force: true });
  });

  it('answers 507 and writes nothing', async () => {
    const user = await registerUser(t.url, 'tester', 'Flo Floor');
    const chat = await http(t.url).post('/api/chats', { name: 'Floor' }, user.token);
    const form = new FormData();
    form.append('attachments', new Blob(['a small file'], { type: 'text/plain' }), 'small.txt');
    const answer = await fetch(`${t.url}/api/chats/${chat.body._id}/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.token}` },
      body: form,
    });
    expect(answer.status).toBe(507);
    expect(((await answer.json()) as { message: string }).message).toBe(
      'The server is short of disk space for uploads right now: try again later',
    );
    expect(await readdir(spoolDir)).toEqual([]);
    // A message without files needs no spool.
    const plain = await http(t.url).post(`/api/chats/${chat.body._id}/messages`, { content: 'hi' }, user.token);
    expect(plain.status).toBe(201);
  });
});
