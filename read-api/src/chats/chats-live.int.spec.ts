import { http, registerUser, SseReader, type TestUser } from '@bugtrail/testing';
import { startTestSystem, type TestSystem } from '@bugtrail/testing/system';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

describe('chat topics on the live stream', () => {
  let t: TestSystem;
  let api: ReturnType<typeof http>;
  let ann: TestUser;
  let bob: TestUser;
  let cid: TestUser;
  const readers: SseReader[] = [];
  const open = async (user: TestUser) => {
    const reader = await SseReader.open(t.url, user.token);
    readers.push(reader);
    return reader;
  };
  /** Everyone hears `user:{id}`: a reader that got it has got everything before it. */
  const marker = async (...listening: SseReader[]) => {
    const user = await registerUser(t.url, 'tester');
    await Promise.all(listening.map((r) => r.waitFor((m) => m.topics.includes(`user:${user.id}`))));
  };
  const count = (reader: SseReader, topic: string) => reader.topics().filter((x) => x === topic).length;

  beforeAll(async () => {
    t = await startTestSystem();
    api = http(t.url);
    ann = await registerUser(t.url, 'tester', 'Ann');
    bob = await registerUser(t.url, 'developer', 'Bob');
    // An app admin: being an admin of the app gives no view into other people's chats.
    cid = await registerUser(t.url, 'admin', 'Cid');
  });
  afterEach(() => {
    for (const reader of readers.splice(0)) reader.close();
  });
  afterAll(async () => {
    await t.close();
  });

  it('reaches participants, never outsiders, and stops at once for a removed member', async () => {
    const [bobLive, cidLive] = [await open(bob), await open(cid)];
    const chat = (await api.post('/chats', { name: 'Private', participants: [bob.id] }, ann.token)).body;
    const topic = `chat:${chat._id}`;
    await api.post(`/chats/${chat._id}/messages`, { content: 'for Bob only' }, ann.token);
    await bobLive.waitFor((m) => m.topics.includes(topic));
    await marker(bobLive, cidLive);
    expect(cidLive.topics()).not.toContain(topic);

    // The removal itself still reaches Bob, so his client drops the chat.
    const before = count(bobLive, topic);
    await api.put(`/chats/${chat._id}`, { participants: [ann.id] }, ann.token);
    await marker(bobLive);
    expect(count(bobLive, topic)).toBe(before + 1);
    await api.post(`/chats/${chat._id}/messages`, { content: 'after Bob left' }, ann.token);
    await marker(bobLive, cidLive);
    expect(count(bobLive, topic)).toBe(before + 1);
    expect(cidLive.topics()).not.toContain(topic);
  });

  it('reaches everyone for a public chat', async () => {
    const cidLive = await open(cid);
    const chat = (await api.post('/chats', { name: 'Square', type: 'public' }, ann.token)).body;
    await api.post(`/chats/${chat._id}/messages`, { content: 'hello world' }, ann.token);
    await cidLive.waitFor((m) => m.topics.includes(`chat:${chat._id}`));
  });
});
