import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { http, registerUser, type TestUser } from '@bugtrail/testing';
import { startTestSystem, type TestSystem } from '@bugtrail/testing/system';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countEvents, createChat, exeBytes, PNG, postMultipart } from './chats.fixture.js';

const MB = 1024 * 1024;

async function filesUnder(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).map((e) => e.name);
  } catch {
    return [];
  }
}

describe('chat messages over HTTP', () => {
  let t: TestSystem;
  let api: ReturnType<typeof http>;
  let ann: TestUser;
  let bob: TestUser;
  let cid: TestUser;
  let chatId: string;
  const uploads = () => path.join(t.dataDir, 'uploads');

  beforeAll(async () => {
    t = await startTestSystem();
    api = http(t.url);
    ann = await registerUser(t.url, 'tester', 'Ann');
    bob = await registerUser(t.url, 'developer', 'Bob');
    cid = await registerUser(t.url, 'developer', 'Cid');
    chatId = (await createChat(t.url, ann.token, { name: 'Work', type: 'team', participants: [bob.id] }))._id;
  });
  afterAll(async () => {
    await t.close();
  });

  async function refused(request: Promise<{ status: number; body: any }>, status: number, message?: string) {
    const events = await countEvents(t.system.pool);
    const files = await filesUnder(uploads());
    const answer = await request;
    expect(answer.status).toBe(status);
    if (message) expect(answer.body.message).toContain(message);
    expect(await countEvents(t.system.pool)).toBe(events);
    expect(await filesUnder(uploads())).toEqual(files);
    return answer;
  }

  it("answers 201 with the sender's message", async () => {
    const sent = await api.post(
      `/chats/${chatId}/messages`,
      { content: ' Hello @Bob ', mentions: [bob.id] },
      ann.token,
    );
    expect(sent.status).toBe(201);
    expect(sent.body).toEqual({
      _id: expect.any(String),
      chat: chatId,
      sender: { _id: ann.id, name: 'Ann', profileImageURL: null, profileImageUrl: null },
      content: 'Hello @Bob',
      attachments: [],
      mentions: [bob.id],
      replyTo: null,
      isDeleted: false,
      isAIMessage: false,
      createdAt: expect.any(String),
    });
    const page = await api.get(`/chats/${chatId}/messages`, bob.token);
    expect(page.body.messages.at(-1)).toEqual(sent.body);
  });

  it('refuses blank messages, mentions of non-members and replies to another chat', async () => {
    await refused(
      api.post(`/chats/${chatId}/messages`, { content: '  \n ' }, ann.token),
      400,
      'Message must have text or at least one attachment',
    );
    await refused(
      api.post(`/chats/${chatId}/messages`, { content: 'hey', mentions: [cid.id] }, ann.token),
      400,
      'Mentioned users must be members of this chat',
    );
    const other = await createChat(t.url, ann.token, { name: 'Elsewhere', participants: [bob.id] });
    const foreign = await api.post(`/chats/${other._id}/messages`, { content: 'over here' }, ann.token);
    await refused(
      api.post(`/chats/${chatId}/messages`, { content: 're', replyTo: foreign.body._id }, ann.token),
      400,
      'A reply must quote a message of this chat',
    );
    await refused(api.post(`/chats/${chatId}/messages`, { content: 're', replyTo: 'no-such-message' }, ann.token), 400);
  });

  it('quotes the replied message of the same chat', async () => {
    const original = await api.post(`/chats/${chatId}/messages`, { content: 'Is #12 fixed?' }, ann.token);
    const reply = await api.post(
      `/chats/${chatId}/messages`,
      { content: 'Yes', replyTo: original.body._id },
      bob.token,
    );
    expect(reply.status).toBe(201);
    expect(reply.body.replyTo).toMatchObject({
      _id: original.body._id,
      content: 'Is #12 fixed?',
      sender: { _id: ann.id, name: 'Ann' },
    });
  });

  it('deletes a message for its sender or a chat admin; it then reads "This message was deleted"', async () => {
    const mine = await api.post(`/chats/${chatId}/messages`, { content: 'oops, secret' }, bob.token);
    const deleted = await api.delete(`/chats/${chatId}/messages/${mine.body._id}`, bob.token);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({
      _id: mine.body._id,
      content: 'This message was deleted',
      isDeleted: true,
      attachments: [],
    });
    const page = await api.get(`/chats/${chatId}/messages`, ann.token);
    expect(page.body.messages.find((m: any) => m._id === mine.body._id)).toMatchObject({
      content: 'This message was deleted',
      isDeleted: true,
    });
    const list = await api.get('/chats', ann.token);
    expect(list.body.find((c: any) => c._id === chatId).lastMessage).toMatchObject({
      content: 'This message was deleted',
      isDeleted: true,
    });

    const annsMessage = await api.post(`/chats/${chatId}/messages`, { content: 'from the admin' }, ann.token);
    await refused(api.delete(`/chats/${chatId}/messages/${annsMessage.body._id}`, bob.token), 403);
    await refused(api.delete(`/chats/${chatId}/messages/${annsMessage.body._id}`, cid.token), 404);
    await refused(api.delete(`/chats/${chatId}/messages/no-such-message`, ann.token), 404, 'Message not found');
    // A chat admin may delete anyone's message.
    const bobs = await api.post(`/chats/${chatId}/messages`, { content: 'spam' }, bob.token);
    expect((await api.delete(`/api/chats/${chatId}/messages/${bobs.body._id}`, ann.token)).status).toBe(200);
  });

  it('a message deleted already is still refused to those who may not delete it', async () => {
    const annsMessage = await api.post(`/chats/${chatId}/messages`, { content: 'mine to delete' }, ann.token);
    expect((await api.delete(`/chats/${chatId}/messages/${annsMessage.body._id}`, ann.token)).status).toBe(200);
    // The sender again: the same answer, nothing appended.
    const again = await api.delete(`/chats/${chatId}/messages/${annsMessage.body._id}`, ann.token);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ _id: annsMessage.body._id, isDeleted: true });
    // A member who may not delete it, and a stranger to the chat, learn nothing more than before.
    await refused(api.delete(`/chats/${chatId}/messages/${annsMessage.body._id}`, bob.token), 403);
    await refused(api.delete(`/api/chats/${chatId}/messages/${annsMessage.body._id}`, cid.token), 404);
  });

  describe('attachments', () => {
    it('stores images, PDFs, text and logs with server-made names and serves them safely', async () => {
      const sent = await postMultipart(
        t.url,
        ann.token,
        `/chats/${chatId}/messages`,
        [
          { name: 'screen.png', bytes: PNG, type: 'image/png' },
          { name: 'server.log', bytes: new TextEncoder().encode('ERROR boom at line 3\nstack…\n') },
          { name: 'notes.txt', bytes: new TextEncoder().encode('<script>alert(1)</script>') },
          { name: 'spec.pdf', bytes: new TextEncoder().encode('%PDF-1.4\n%âãÏÓ\n') },
        ],
        { content: 'see attached', mentions: [bob.id] },
      );
      expect(sent.status).toBe(201);
      expect(sent.body.mentions).toEqual([bob.id]);
      const [png, log, txt, pdf] = sent.body.attachments;
      expect(png).toMatchObject({ filename: 'screen.png', mimetype: 'image/png', size: PNG.byteLength });
      expect(log).toMatchObject({ filename: 'server.log', mimetype: 'text/plain' });
      expect(txt).toMatchObject({ filename: 'notes.txt', mimetype: 'text/plain' });
      expect(pdf).toMatchObject({ filename: 'spec.pdf', mimetype: 'application/pdf' });
      for (const a of sent.body.attachments) {
        expect(a.path).toMatch(/^\/uploads\/chat\/\d{4}\/\d{2}\/[0-9a-f-]{36}\.(png|log|txt|pdf)\?exp=\d+&sig=[\w-]+$/);
        expect(a.path).not.toContain(a.filename);
      }
      const image = await fetch(t.url + png.path);
      expect(image.status).toBe(200);
      expect(image.headers.get('x-content-type-options')).toBe('nosniff');
      expect(image.headers.get('content-disposition')).toBeNull();
      expect(new Uint8Array(await image.arrayBuffer())).toEqual(PNG);
      const text = await fetch(t.url + txt.path);
      expect(text.headers.get('content-disposition')).toBe('attachment');
      expect(text.headers.get('x-content-type-options')).toBe('nosniff');
    });

    it('accepts a message with attachments and no text', async () => {
      const sent = await postMultipart(t.url, ann.token, `/chats/${chatId}/messages`, [{ name: 'a.png', bytes: PNG }]);
      expect(sent.status).toBe(201);
      expect(sent.body.content).toBe('');
      expect(sent.body.attachments).toHaveLength(1);
    });

    it('refuses a renamed .exe by its bytes', async () => {
      await refused(
        postMultipart(
          t.url,
          ann.token,
          `/chats/${chatId}/messages`,
          [{ name: 'cute-cat.png', bytes: exeBytes(), type: 'image/png' }],
          {
            content: 'open me',
          },
        ),
        400,
        'Attachment type not allowed',
      );
    });

    it('refuses binary files that pretend to be text', async () => {
      const binary = Uint8Array.from([0x68, 0x69, 0x00, 0x01, 0xff, 0xfe]);
      await refused(
        postMultipart(t.url, ann.token, `/chats/${chatId}/messages`, [{ name: 'readme.txt', bytes: binary }]),
        400,
      );
    });

    it('takes at most 5 files', async () => {
      const six = Array.from({ length: 6 }, (_, i) => ({ name: `${i}.png`, bytes: PNG }));
      await refused(
        postMultipart(t.url, ann.token, `/chats/${chatId}/messages`, six),
        400,
        'At most 5 attachments per message',
      );
      const five = six.slice(0, 5);
      expect((await postMultipart(t.url, ann.token, `/chats/${chatId}/messages`, five)).status).toBe(201);
    });

    it('takes files up to 20 MB each', async () => {
      const big = new Uint8Array(20 * MB + 1).fill(0x61);
      await refused(
        postMultipart(t.url, ann.token, `/chats/${chatId}/messages`, [{ name: 'big.log', bytes: big }]),
        413,
        '20 MB',
      );
      const exact = new Uint8Array(20 * MB).fill(0x61);
      const ok = await postMultipart(t.url, ann.token, `/chats/${chatId}/messages`, [
        { name: 'exact.log', bytes: exact },
      ]);
      expect(ok.status).toBe(201);
      expect(ok.body.attachments[0].size).toBe(20 * MB);
    });

    it('stores nothing for a refused message (non-member, bad mention)', async () => {
      await refused(postMultipart(t.url, cid.token, `/chats/${chatId}/messages`, [{ name: 'a.png', bytes: PNG }]), 404);
      await refused(
        postMultipart(t.url, ann.token, `/chats/${chatId}/messages`, [{ name: 'a.png', bytes: PNG }], {
          mentions: cid.id,
        }),
        400,
      );
    });
  });

  describe('pages of 50, page 1 the newest, oldest first inside', () => {
    async function chatWith(count: number): Promise<{ id: string; contents: string[] }> {
      const chat = await createChat(t.url, ann.token, { name: `Paged ${count}`, participants: [bob.id] });
      const contents: string[] = [];
      for (let i = 1; i <= count; i++) {
        const content = `message ${i}`;
        const sent = await api.post(`/chats/${chat._id}/messages`, { content }, i % 2 ? ann.token : bob.token);
        expect(sent.status).toBe(201);
        contents.push(content);
      }
      return { id: chat._id, contents };
    }
    const page = async (id: string, n?: number) =>
      (await api.get(`/chats/${id}/messages${n === undefined ? '' : `?page=${n}`}`, bob.token)).body;

    it('0 messages: an empty first page without more', async () => {
      const { id } = await chatWith(0);
      expect(await page(id)).toEqual({ messages: [], page: 1, hasMore: false });
    });

    it('50 messages: one full page without more', async () => {
      const { id, contents } = await chatWith(50);
      const first = await page(id, 1);
      expect(first.messages.map((m: any) => m.content)).toEqual(contents);
      expect(first.hasMore).toBe(false);
      expect(await page(id, 2)).toEqual({ messages: [], page: 2, hasMore: false });
    });

    it('51 messages: the newest 50, then the oldest one', async () => {
      const { id, contents } = await chatWith(51);
      const first = await page(id, 1);
      expect(first.page).toBe(1);
      expect(first.hasMore).toBe(true);
      expect(first.messages.map((m: any) => m.content)).toEqual(contents.slice(1));
      const second = await page(id, 2);
      expect(second).toMatchObject({ page: 2, hasMore: false });
      expect(second.messages.map((m: any) => m.content)).toEqual(['message 1']);
    });

    it('refuses a page that is not a whole number from 1', async () => {
      for (const bad of ['0', '-1', 'abc', '1.5']) {
        expect((await api.get(`/chats/${chatId}/messages?page=${bad}`, bob.token)).status).toBe(400);
      }
    });
  });
});
