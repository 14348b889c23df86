import { http, registerUser, type TestUser } from '@bugtrail/testing';
import { startTestSystem, type TestSystem } from '@bugtrail/testing/system';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The chats read model's live topics carry their audience (ADR 004), and a rebuild
 * from the events gives the same tables as the live projection.
 */
describe('chats projection', () => {
  let t: TestSystem;
  let api: ReturnType<typeof http>;
  let ann: TestUser;
  let bob: TestUser;
  let cid: TestUser;

  beforeAll(async () => {
    t = await startTestSystem();
    api = http(t.url);
    ann = await registerUser(t.url, 'tester', 'Ann');
    bob = await registerUser(t.url, 'developer', 'Bob');
    cid = await registerUser(t.url, 'admin', 'Cid');
  });
  afterAll(async () => {
    await t.close();
  });

  /** Topics about the chat written by batches after `since` (a position token). */
  async function chatTopics(chatId: string, since: string): Promise<string[]> {
    const { rows } = await t.system.pool.query<{ topics: string[] }>(
      'select topics from projector.changes where position > $1 order by position',
      [since],
    );
    return rows.flatMap((r) => r.topics).filter((topic) => topic.startsWith(`chat:${chatId}|`));
  }
  const audienceOf = (topic: string) =>
    topic
      .slice(topic.indexOf('|') + 1)
      .split(',')
      .sort();
  const head = async () =>
    (await t.system.pool.query<{ p: string }>("select coalesce(max(position), '0') as p from projector.changes"))
      .rows[0]!.p;

  it('addresses private chat topics to participants only, removed members included', async () => {
    let since = await head();
    const created = await api.post('/chats', { name: 'Secret', type: 'private', participants: [bob.id] }, ann.token);
    const id = created.body._id;
    await api.post(`/chats/${id}/messages`, { content: 'psst' }, bob.token);
    const topics = await chatTopics(id, since);
    expect(topics.length).toBeGreaterThan(0);
    for (const topic of topics) {
      expect(audienceOf(topic)).toEqual([ann.id, bob.id].sort());
      expect(topic).not.toContain(cid.id);
    }

    // Bob is removed: the removal still reaches him (before ∪ after), later changes do not.
    since = await head();
    await api.put(`/chats/${id}`, { participants: [ann.id] }, ann.token);
    expect((await chatTopics(id, since)).map(audienceOf)).toEqual([[ann.id, bob.id].sort()]);
    since = await head();
    await api.post(`/chats/${id}/messages`, { content: 'only me now' }, ann.token);
    expect((await chatTopics(id, since)).map(audienceOf)).toEqual([[ann.id]]);
  });

  it('addresses public chat topics to everyone and read markers to the reader alone', async () => {
    let since = await head();
    const created = await api.post('/chats', { name: 'Open', type: 'public', participants: [bob.id] }, ann.token);
    const id = created.body._id;
    expect(await chatTopics(id, since)).toEqual([`chat:${id}|*`]);
    await api.post(`/chats/${id}/messages`, { content: 'hi all' }, ann.token);
    since = await head();
    await api.post(`/chats/${id}/read`, {}, bob.token);
    expect(await chatTopics(id, since)).toEqual([`chat:${id}|${bob.id}`]);
  });

  it('rebuilds into the same tables as the live projection', async () => {
    const chat = (
      await api.post('/chats', { name: 'Rebuilt', type: 'team', participants: [bob.id, cid.id] }, ann.token)
    ).body;
    const first = await api.post(`/chats/${chat._id}/messages`, { content: 'one', mentions: [bob.id] }, ann.token);
    await api.post(`/chats/${chat._id}/messages`, { content: 'two', replyTo: first.body._id }, bob.token);
    await api.delete(`/chats/${chat._id}/messages/${first.body._id}`, ann.token);
    await api.post(`/chats/${chat._id}/read`, {}, cid.token);
    await api.put(
      `/chats/${chat._id}`,
      { name: 'Rebuilt!', admins: [ann.id, bob.id], participants: [ann.id, bob.id] },
      ann.token,
    );
    const doomed = (await api.post('/chats', { name: 'Doomed', participants: [bob.id] }, ann.token)).body;
    await api.post(`/chats/${doomed._id}/messages`, { content: 'bye' }, ann.token);
    await api.delete(`/chats/${doomed._id}`, ann.token);

    const snapshot = async () => {
      const read = async (table: string, order: string) =>
        (await t.system.pool.query(`select * from rm.${table} order by ${order}`)).rows;
      return {
        chats: await read('chats', 'id'),
        members: await read('chat_members', 'chat_id, user_id'),
        messages: await read('chat_messages', 'id'),
      };
    };
    const live = await snapshot();
    expect(live.chats.map((c) => c.id)).not.toContain(doomed._id);
    expect(live.messages.length).toBeGreaterThan(0);
    await t.system.projector.rebuild('chats');
    expect(await snapshot()).toEqual(live);
  });
});
