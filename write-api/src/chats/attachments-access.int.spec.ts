import { access } from 'node:fs/promises';
import path from 'node:path';
import type { MessageSentData } from '@bugtrail/domain';
import {
  getOrCreateSecret,
  signedUploadPath,
  UPLOAD_LINK_SECONDS,
  UPLOADS_SIGNING_SECRET_NAME,
  uploadKeyOf,
} from '@bugtrail/platform';
import { http, registerUser, type TestUser } from '@bugtrail/testing';
import { startTestSystem, type TestSystem } from '@bugtrail/testing/system';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChat, PNG, postMultipart } from './chats.fixture.js';

/** api.md "Chat attachments": only members reach them, through short-lived signed links. */

const SIGNED = /^\/uploads\/chat\/\d{4}\/\d{2}\/[0-9a-f-]{36}\.(png|txt)\?exp=(\d+)&sig=([A-Za-z0-9_-]+)$/;
const text = (s: string) => new TextEncoder().encode(s);

type Attachment = { filename: string; path: string; mimetype: string; size: number };

function parts(signed: string) {
  const match = SIGNED.exec(signed);
  if (!match) throw new Error(`not a signed chat path: ${signed}`);
  const url = new URL(signed, 'http://x');
  return { key: uploadKeyOf(signed)!, exp: Number(match[2]), sig: match[3]!, bare: url.pathname };
}

const exists = (file: string) =>
  access(file).then(
    () => true,
    () => false,
  );

describe('chat attachments: only for members', () => {
  let t: TestSystem;
  let api: ReturnType<typeof http>;
  let ann: TestUser;
  let bob: TestUser;
  let eve: TestUser;
  let chatId: string;
  const fileOf = (key: string) => path.join(t.dataDir, 'uploads', ...key.split('/'));
  /** Fetched as a stranger's browser would: no Authorization, no cookies. */
  const fetchAnon = (p: string) => fetch(t.url + p);

  async function send(token: string, id: string, files: { name: string; bytes: Uint8Array }[], content = '') {
    const sent = await postMultipart(t.url, token, `/chats/${id}/messages`, files, content ? { content } : {});
    expect(sent.status).toBe(201);
    return sent.body as { _id: string; attachments: Attachment[] };
  }

  async function messagesOf(id: string, token: string) {
    const page = await api.get(`/chats/${id}/messages`, token);
    expect(page.status).toBe(200);
    return page.body.messages as { _id: string; isDeleted: boolean; attachments: Attachment[] }[];
  }

  async function expectGone(signed: string) {
    const answer = await fetchAnon(signed);
    expect(answer.status).toBe(404);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    expect(((await answer.json()) as { message: unknown }).message).toEqual(expect.any(String));
  }

  beforeAll(async () => {
    // No UPLOADS_SIGNING_SECRET: write-api and read-api must agree through the database's secret.
    t = await startTestSystem();
    api = http(t.url);
    ann = await registerUser(t.url, 'tester', 'Ann');
    bob = await registerUser(t.url, 'developer', 'Bob');
    eve = await registerUser(t.url, 'developer', 'Eve');
    chatId = (await createChat(t.url, ann.token, { name: 'Crash logs', type: 'team', participants: [bob.id] }))._id;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('gives members a signed path, in the 201 and in GET messages, that works without Authorization', async () => {
    const before = Math.floor(Date.now() / 1000);
    const sent = await send(ann.token, chatId, [
      { name: 'screen.png', bytes: PNG },
      { name: 'notes.txt', bytes: text('boom') },
    ]);
    const after = Math.floor(Date.now() / 1000);
    const txt = sent.attachments[1]!;
    for (const a of sent.attachments) {
      const { exp } = parts(a.path);
      // Valid 24 hours (rounded down to a few minutes, so re-reads share one link and the browser's cache).
      expect(exp).toBeLessThanOrEqual(after + UPLOAD_LINK_SECONDS);
      expect(exp).toBeGreaterThan(before + UPLOAD_LINK_SECONDS - 10 * 60);
    }

    // The event keeps the file's unsigned path, never a link.
    const events = await t.system.store.readStream(`chatmsgs-${chatId}`);
    const stored = events.find((e) => e.type === 'MessageSent' && (e.data as MessageSentData).messageId === sent._id);
    const storedPaths = (stored!.data as MessageSentData).attachments.map((a) => a.path);
    expect(storedPaths).toEqual(sent.attachments.map((a) => parts(a.path).bare));

    const listed = (await messagesOf(chatId, bob.token)).find((m) => m._id === sent._id)!;
    expect(listed.attachments.map((a) => a.filename)).toEqual(['screen.png', 'notes.txt']);
    for (const [i, a] of listed.attachments.entries()) {
      expect(a.path).toMatch(SIGNED);
      expect(parts(a.path).key).toBe(parts(sent.attachments[i]!.path).key);
    }

    const image = await fetchAnon(listed.attachments[0]!.path);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(new Uint8Array(await image.arrayBuffer())).toEqual(PNG);
    const cache = image.headers.get('cache-control') ?? '';
    expect(cache).toMatch(/^private, max-age=\d+$/);
    const maxAge = Number(/max-age=(\d+)/.exec(cache)![1]);
    expect(maxAge).toBeGreaterThan(0);
    expect(maxAge).toBeLessThanOrEqual(parts(listed.attachments[0]!.path).exp - before);

    const notes = await fetchAnon(txt.path);
    expect(notes.status).toBe(200);
    expect(await notes.text()).toBe('boom');
    expect(notes.headers.get('content-disposition')).toBe('attachment');
    expect(notes.headers.get('cache-control')).not.toContain('immutable');
  });

  it('answers 404 to an unsigned, altered or forged link, or one signed for another file', async () => {
    const sent = await send(ann.token, chatId, [
      { name: 'a.png', bytes: PNG },
      { name: 'b.txt', bytes: text('other file') },
    ]);
    const a = parts(sent.attachments[0]!.path);
    const b = parts(sent.attachments[1]!.path);
    expect((await fetchAnon(sent.attachments[0]!.path)).status).toBe(200);

    await expectGone(a.bare);
    await expectGone(`${a.bare}?exp=${a.exp}`);
    await expectGone(`${a.bare}?sig=${a.sig}`);
    await expectGone(`${a.bare}?exp=${a.exp - 1}&sig=${a.sig}`);
    await expectGone(`${a.bare}?exp=${a.exp + 3600}&sig=${a.sig}`);
    const flipped = `${a.sig[0] === 'A' ? 'B' : 'A'}${a.sig.slice(1)}`;
    await expectGone(`${a.bare}?exp=${a.exp}&sig=${flipped}`);
    await expectGone(`${a.bare}?exp=${a.exp}&sig=${a.sig.slice(0, -1)}`);
    // b's signature does not open a, nor the other way round.
    await expectGone(`${a.bare}?exp=${b.exp}&sig=${b.sig}`);
    await expectGone(`${b.bare}?exp=${a.exp}&sig=${a.sig}`);
    // A bearer token is no substitute for the signature.
    const withToken = await fetch(t.url + a.bare, { headers: { authorization: `Bearer ${ann.token}` } });
    expect(withToken.status).toBe(404);
    // Through the public area's path, a chat file is still out of reach.
    const sneaky = `/uploads/profile/2020/01/..%2F..%2F..%2F${a.key.replaceAll('/', '%2F')}`;
    await expectGone(sneaky);
    await expectGone(`${sneaky}?exp=${a.exp}&sig=${a.sig}`);
  });

  it('answers 404 once a link has expired', async () => {
    const sent = await send(ann.token, chatId, [{ name: 'old.png', bytes: PNG }]);
    const { key } = parts(sent.attachments[0]!.path);
    // The secret both servers share, kept in the database when UPLOADS_SIGNING_SECRET is unset.
    const secret = await getOrCreateSecret(t.system.pool, UPLOADS_SIGNING_SECRET_NAME, () => 'never used');
    const now = Math.floor(Date.now() / 1000);
    // The same helper with a time still ahead opens the file: the 404 below is the expiry alone.
    expect((await fetchAnon(signedUploadPath(secret, key, now + 120))).status).toBe(200);
    await expectGone(signedUploadPath(secret, key, now - 1));
    await expectGone(signedUploadPath(secret, key, now - UPLOAD_LINK_SECONDS));
    // Nor does a well-signed link live longer than a day.
    await expectGone(signedUploadPath(secret, key, now + 7 * UPLOAD_LINK_SECONDS));
  });

  it("never gives a non-member a link: they cannot read the chat's messages", async () => {
    await send(ann.token, chatId, [{ name: 'private.png', bytes: PNG }]);
    expect((await api.get(`/chats/${chatId}/messages`, eve.token)).status).toBe(404);
    expect((await api.get(`/chats/${chatId}`, eve.token)).status).toBe(404);
    const list = await api.get('/chats', eve.token);
    expect(list.status).toBe(200);
    expect(JSON.stringify(list.body)).not.toContain('/uploads/chat/');
    const posted = await postMultipart(t.url, eve.token, `/chats/${chatId}/messages`, [{ name: 'x.png', bytes: PNG }]);
    expect(posted.status).toBeGreaterThanOrEqual(403);
    expect(JSON.stringify(posted.body)).not.toContain('/uploads/chat/');
  });

  it('deletes the files of a deleted message, and only those', async () => {
    const kept = await send(bob.token, chatId, [{ name: 'keep.png', bytes: PNG }]);
    const doomed = await send(ann.token, chatId, [
      { name: 'one.png', bytes: PNG },
      { name: 'two.txt', bytes: text('two') },
    ]);
    const keys = doomed.attachments.map((a) => parts(a.path).key);
    for (const key of keys) expect(await exists(fileOf(key))).toBe(true);

    const deleted = await api.delete(`/chats/${chatId}/messages/${doomed._id}`, ann.token);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ isDeleted: true, attachments: [] });
    for (const key of keys) expect(await exists(fileOf(key))).toBe(false);
    for (const a of doomed.attachments) await expectGone(a.path);
    const listed = (await messagesOf(chatId, bob.token)).find((m) => m._id === doomed._id)!;
    expect(listed).toMatchObject({ isDeleted: true, attachments: [] });

    // Asked again: the same answer, nothing else touched.
    const again = await api.delete(`/chats/${chatId}/messages/${doomed._id}`, ann.token);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ isDeleted: true, attachments: [] });
    expect(await exists(fileOf(parts(kept.attachments[0]!.path).key))).toBe(true);
    expect((await fetchAnon(kept.attachments[0]!.path)).status).toBe(200);
  });

  it('deletes every file of a deleted chat, and no other chat loses any', async () => {
    const doomedChat = (await createChat(t.url, ann.token, { name: 'Doomed', type: 'team', participants: [bob.id] }))
      ._id;
    const first = await send(ann.token, doomedChat, [{ name: 'a.png', bytes: PNG }], 'first');
    const second = await send(bob.token, doomedChat, [
      { name: 'b.png', bytes: PNG },
      { name: 'c.txt', bytes: text('c') },
    ]);
    const other = await send(ann.token, chatId, [{ name: 'elsewhere.png', bytes: PNG }]);
    const doomed = [...first.attachments, ...second.attachments];
    for (const a of doomed) expect(await exists(fileOf(parts(a.path).key))).toBe(true);

    expect((await api.delete(`/chats/${doomedChat}`, bob.token)).status).toBe(403);
    for (const a of doomed) expect(await exists(fileOf(parts(a.path).key))).toBe(true);

    expect((await api.delete(`/chats/${doomedChat}`, ann.token)).status).toBe(200);
    for (const a of doomed) {
      expect(await exists(fileOf(parts(a.path).key))).toBe(false);
      await expectGone(a.path);
    }
    expect((await api.get(`/chats/${doomedChat}/messages`, ann.token)).status).toBe(404);
    expect((await fetchAnon(other.attachments[0]!.path)).status).toBe(200);
  });

  it('keeps profile images public', async () => {
    const form = new FormData();
    form.append('image', new Blob([PNG], { type: 'image/png' }), 'me.png');
    const uploaded = await fetch(`${t.url}/api/auth/upload-image`, { method: 'POST', body: form });
    expect(uploaded.status).toBe(201);
    const { imageURL } = (await uploaded.json()) as { imageURL: string };
    const relative = new URL(imageURL, t.url).pathname;
    expect(relative).toMatch(/^\/uploads\/profile\//);
    const image = await fetchAnon(relative);
    expect(image.status).toBe(200);
    expect(new Uint8Array(await image.arrayBuffer())).toEqual(PNG);
  });
});
