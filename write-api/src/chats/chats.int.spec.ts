import { http, registerUser, type TestUser } from '@bugtrail/testing';
import { startTestSystem, type TestSystem } from '@bugtrail/testing/system';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countEvents, createChat } from './chats.fixture.js';

const DEFAULT_PROMPT = 'You are a helpful assistant in a bug tracking application.';

describe('chats: configuration, membership and permissions over HTTP', () => {
  let t: TestSystem;
  let api: ReturnType<typeof http>;
  let ann: TestUser; // creates the chats
  let bob: TestUser; // a participant
  let cid: TestUser; // an outsider
  let dee: TestUser;

  beforeAll(async () => {
    t = await startTestSystem();
    api = http(t.url);
    ann = await registerUser(t.url, 'tester', 'Ann');
    bob = await registerUser(t.url, 'developer', 'Bob');
    cid = await registerUser(t.url, 'admin', 'Cid');
    dee = await registerUser(t.url, 'developer', 'Dee');
  });
  afterAll(async () => {
    await t.close();
  });

  /** Asserts the request is refused with `status` and that nothing was appended. */
  async function refused(request: Promise<{ status: number; body: any }>, status: number, message?: string) {
    const before = await countEvents(t.system.pool);
    const answer = await request;
    expect(answer.status).toBe(status);
    if (message) expect(answer.body.message).toBe(message);
    expect(await countEvents(t.system.pool)).toBe(before);
    return answer;
  }

  it('creates a chat with the spec defaults; the creator is participant and admin', async () => {
    const created = await api.post('/api/chats', { name: '  Crew  ', participants: [bob.id] }, ann.token);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'Crew',
      type: 'private',
      aiAssistant: { enabled: false, model: 'gpt-3.5-turbo', systemPrompt: DEFAULT_PROMPT },
      createdBy: { _id: ann.id, name: 'Ann' },
      lastMessage: null,
      unreadCount: 0,
    });
    expect(created.body.participants.map((p: any) => p._id).sort()).toEqual([ann.id, bob.id].sort());
    expect(created.body.admins).toEqual([{ _id: ann.id, name: 'Ann', profileImageURL: null, profileImageUrl: null }]);
    // Both paths serve the same chat.
    const viaSpecPath = await api.get(`/chats/${created.body._id}`, bob.token);
    const viaApiPath = await api.get(`/api/chats/${created.body._id}`, bob.token);
    expect(viaSpecPath.status).toBe(200);
    expect(viaApiPath.body).toEqual(viaSpecPath.body);
  });

  it('accepts participants given as user objects', async () => {
    const chat = await createChat(t.url, ann.token, { name: 'Objects', participants: [{ _id: bob.id, name: 'Bob' }] });
    expect(chat.participants.map((p: any) => p._id)).toContain(bob.id);
  });

  it('requires a name and a known type, model and users', async () => {
    await refused(api.post('/chats', { name: '   ' }, ann.token), 400, 'Chat name is required');
    await refused(api.post('/chats', { name: 'x', type: 'secret' }, ann.token), 400);
    const model = await refused(api.post('/chats', { name: 'x', aiAssistant: { model: 'gpt-5' } }, ann.token), 400);
    expect(model.body.message).toContain('gpt-3.5-turbo, gpt-4, claude-3-sonnet, claude-3-opus');
    await refused(
      api.post('/chats', { name: 'x', participants: ['no-such-user'] }, ann.token),
      400,
      'Participants must be registered users',
    );
  });

  it('starts an ai_assistant chat with the assistant enabled and keeps a chosen model', async () => {
    const chat = await createChat(t.url, ann.token, {
      name: 'Ask',
      type: 'ai_assistant',
      aiAssistant: { model: 'claude-3-opus' },
    });
    expect(chat.aiAssistant).toEqual({ enabled: true, model: 'claude-3-opus', systemPrompt: DEFAULT_PROMPT });
  });

  it('answers 404 to non-members of private and team chats, for the chat and its messages', async () => {
    for (const type of ['private', 'team']) {
      const chat = await createChat(t.url, ann.token, { name: `Hidden ${type}`, type, participants: [bob.id] });
      const id = chat._id;
      expect((await api.get(`/chats/${id}`, cid.token)).status).toBe(404);
      expect((await api.get(`/chats/${id}/messages`, cid.token)).status).toBe(404);
      expect((await api.get('/chats', cid.token)).body.map((c: any) => c._id)).not.toContain(id);
      await refused(api.put(`/chats/${id}`, { name: 'Mine' }, cid.token), 404, 'Chat not found');
      await refused(api.delete(`/chats/${id}`, cid.token), 404);
      await refused(api.post(`/chats/${id}/messages`, { content: 'hi' }, cid.token), 404);
      await refused(api.post(`/chats/${id}/join`, {}, cid.token), 404);
      await refused(api.post(`/api/chats/${id}/read`, {}, cid.token), 404);
    }
    expect((await api.get('/chats/no-such-chat', ann.token)).status).toBe(404);
  });

  it('lets only chat admins edit or delete (403 for other participants)', async () => {
    const chat = await createChat(t.url, ann.token, { name: 'Admins only', type: 'team', participants: [bob.id] });
    await refused(api.put(`/chats/${chat._id}`, { name: 'Renamed' }, bob.token), 403);
    await refused(api.put(`/chats/${chat._id}`, { aiAssistant: { enabled: true } }, bob.token), 403);
    await refused(api.delete(`/chats/${chat._id}`, bob.token), 403);
    const renamed = await api.put(
      `/chats/${chat._id}`,
      { name: ' Renamed ', aiAssistant: { enabled: true, model: 'gpt-4' } },
      ann.token,
    );
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'Renamed', aiAssistant: { enabled: true, model: 'gpt-4' } });
  });

  it('refuses a type change with 400 and appends nothing', async () => {
    const chat = await createChat(t.url, ann.token, { name: 'Typed', type: 'team' });
    await refused(
      api.put(`/chats/${chat._id}`, { name: 'Typed', type: 'public' }, ann.token),
      400,
      'Chat type cannot be changed',
    );
    // Sending the same type back (a client PUTs the whole edited chat) is fine.
    expect((await api.put(`/chats/${chat._id}`, { ...chat, name: 'Typed 2' }, ann.token)).status).toBe(200);
  });

  it('making someone an admin makes them a participant; removing a participant removes the admin right', async () => {
    const chat = await createChat(t.url, ann.token, { name: 'Coupling', type: 'team' });
    const promoted = await api.put(`/chats/${chat._id}`, { admins: [ann.id, dee.id] }, ann.token);
    expect(promoted.status).toBe(200);
    expect(promoted.body.participants.map((p: any) => p._id)).toContain(dee.id);
    expect(promoted.body.admins.map((p: any) => p._id).sort()).toEqual([ann.id, dee.id].sort());
    // The client sends the whole chat with Dee dropped from participants but still in admins.
    const removed = await api.put(
      `/chats/${chat._id}`,
      { participants: [ann.id], admins: promoted.body.admins },
      ann.token,
    );
    expect(removed.status).toBe(200);
    expect(removed.body.participants.map((p: any) => p._id)).toEqual([ann.id]);
    expect(removed.body.admins.map((p: any) => p._id)).toEqual([ann.id]);
    expect((await api.get(`/chats/${chat._id}`, dee.token)).status).toBe(404);
  });

  it('never removes the last admin', async () => {
    const chat = await createChat(t.url, ann.token, { name: 'Last admin', participants: [bob.id] });
    await refused(api.put(`/chats/${chat._id}`, { admins: [] }, ann.token), 400, 'The last admin cannot be removed');
    await refused(
      api.put(`/chats/${chat._id}`, { participants: [bob.id] }, ann.token),
      400,
      'The last admin cannot be removed',
    );
    // Handing over first, then leaving, works.
    expect((await api.put(`/chats/${chat._id}`, { admins: [bob.id] }, ann.token)).status).toBe(200);
    const left = await api.put(`/chats/${chat._id}`, { participants: [bob.id] }, bob.token);
    expect(left.status).toBe(200);
    expect(left.body.admins.map((a: any) => a._id)).toEqual([bob.id]);
  });

  it('lists public chats to everyone, lets anyone read and join them', async () => {
    const chat = await createChat(t.url, ann.token, { name: 'Town square', type: 'public' });
    const list = await api.get('/chats', cid.token);
    expect(list.body.map((c: any) => c._id)).toContain(chat._id);
    expect((await api.get(`/chats/${chat._id}/messages`, cid.token)).status).toBe(200);
    // Reading is open; writing needs membership.
    await refused(
      api.post(`/chats/${chat._id}/messages`, { content: 'hello' }, cid.token),
      403,
      'Join this chat to send messages',
    );
    await refused(api.put(`/chats/${chat._id}`, { name: 'Taken over' }, cid.token), 403);
    const joined = await api.post(`/chats/${chat._id}/join`, {}, cid.token);
    expect(joined.status).toBe(200);
    expect(joined.body.participants.map((p: any) => p._id)).toContain(cid.id);
    expect(joined.body.admins.map((p: any) => p._id)).toEqual([ann.id]);
    // Joining twice changes nothing.
    const before = await countEvents(t.system.pool);
    expect((await api.post(`/api/chats/${chat._id}/join`, {}, cid.token)).status).toBe(200);
    expect(await countEvents(t.system.pool)).toBe(before);
    expect((await api.post(`/chats/${chat._id}/messages`, { content: 'hello' }, cid.token)).status).toBe(201);
  });

  it('deletes a chat for admins only; it is gone afterwards', async () => {
    const chat = await createChat(t.url, ann.token, { name: 'Doomed', participants: [bob.id] });
    await api.post(`/chats/${chat._id}/messages`, { content: 'last words' }, bob.token);
    const deleted = await api.delete(`/api/chats/${chat._id}`, ann.token);
    expect(deleted.status).toBe(200);
    expect((await api.get(`/chats/${chat._id}`, ann.token)).status).toBe(404);
    expect((await api.get('/chats', bob.token)).body.map((c: any) => c._id)).not.toContain(chat._id);
    expect((await api.get(`/chats/${chat._id}/messages`, bob.token)).status).toBe(404);
    const events = await t.system.store.readStream(`chat-${chat._id}`);
    expect(events.at(-1)).toMatchObject({
      type: 'ChatDeleted',
      data: { chatId: chat._id },
      metadata: { actorId: ann.id },
    });
  });

  it('orders the list by latest activity and counts unread messages until /read', async () => {
    const older = await createChat(t.url, ann.token, { name: 'Older', participants: [dee.id] });
    const newer = await createChat(t.url, ann.token, { name: 'Newer', participants: [dee.id] });
    const ids = (body: any[]) => body.map((c) => c._id).filter((id) => id === older._id || id === newer._id);
    expect(ids((await api.get('/chats', dee.token)).body)).toEqual([newer._id, older._id]);
    await api.post(`/chats/${older._id}/messages`, { content: 'one' }, ann.token);
    await api.post(`/chats/${older._id}/messages`, { content: 'two' }, ann.token);
    const list = (await api.get('/chats', dee.token)).body;
    expect(ids(list)).toEqual([older._id, newer._id]);
    const row = list.find((c: any) => c._id === older._id);
    expect(row.unreadCount).toBe(2);
    expect(row.lastMessage).toMatchObject({
      content: 'two',
      isDeleted: false,
      isAIMessage: false,
      sender: { _id: ann.id, name: 'Ann' },
    });
    // The sender's own messages are never unread.
    expect((await api.get(`/chats/${older._id}`, ann.token)).body.unreadCount).toBe(0);
    const read = await api.post(`/chats/${older._id}/read`, {}, dee.token);
    expect(read.status).toBe(200);
    expect((await api.get(`/chats/${older._id}`, dee.token)).body.unreadCount).toBe(0);
    await api.post(`/chats/${older._id}/messages`, { content: 'three' }, ann.token);
    expect((await api.get(`/chats/${older._id}`, dee.token)).body.unreadCount).toBe(1);
  });

  it('serves GET /users as [{ _id, name }] of everyone, behind a token', async () => {
    expect((await api.get('/users')).status).toBe(401);
    const users = await api.get('/users', dee.token);
    expect(users.status).toBe(200);
    expect(users.body).toHaveLength(4);
    for (const user of users.body) expect(Object.keys(user).sort()).toEqual(['_id', 'name']);
    expect(users.body.map((u: any) => u._id).sort()).toEqual([ann.id, bob.id, cid.id, dee.id].sort());
  });

  it('requires a token for every chat call', async () => {
    expect((await api.get('/chats')).status).toBe(401);
    expect((await api.post('/chats', { name: 'x' })).status).toBe(401);
    expect((await api.get('/api/chats')).status).toBe(401);
  });
});
