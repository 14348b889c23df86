import { START } from '@bugtrail/eventstore';
import { silentLogger as silent } from '@bugtrail/platform';
import { http, registerUser, type TestUser } from '@bugtrail/testing';
import { startTestSystem, type TestSystem } from '@bugtrail/testing/system';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChatAiReactor } from './ai-reactor.js';

/** The AI reactor against the real system: it answers through the one command handler. */
let t: TestSystem;
let api: ReturnType<typeof http>;
let ann: TestUser;
let bob: TestUser;

const createChat = async (token: string, body: Record<string, unknown>) => {
  const answer = await api.post('/chats', body, token);
  if (answer.status !== 201) throw new Error(`create chat failed: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body as { _id: string };
};

beforeAll(async () => {
  t = await startTestSystem();
  api = http(t.url);
  ann = await registerUser(t.url, 'tester', 'Ann');
  bob = await registerUser(t.url, 'developer', 'Bob');
});
afterAll(async () => {
  await t.close();
});

describe('the AI assistant without a provider', () => {
  const aiReplies = async (chatId: string) =>
    Number(
      (
        await t.system.pool.query(
          "select count(*) as n from eventstore.events where type = 'AiMessagePosted' and stream_id = $1",
          [`chatmsgs-${chatId}`],
        )
      ).rows[0].n,
    );

  it('answers no message: the chat and its settings say once that no provider is set up', async () => {
    const chat = await createChat(ann.token, { name: 'Ask the bot', type: 'ai_assistant' });
    for (const content of ['What is the priority of #7?', 'And #8?']) {
      expect((await api.post(`/chats/${chat._id}/messages`, { content }, ann.token)).status).toBe(201);
    }
    // The reactor of a system without a provider, over every event so far: nothing to say.
    const reactor = new ChatAiReactor(t.system.commands, t.system.pool, { logger: silent });
    expect(await reactor.handleBatch(await t.system.store.readAll(START, 100_000))).toBe(0);
    expect(await aiReplies(chat._id)).toBe(0);
    const { body } = await api.get(`/chats/${chat._id}/messages`, ann.token);
    expect(body.messages.filter((m: any) => m.isAIMessage)).toEqual([]);
    // What the client shows instead, once: the model list says no provider is configured.
    expect((await api.get('/chats/ai-models', ann.token)).body.configured).toBe(false);
  });

  it('answers each human message once: a replay (a lost checkpoint) posts nothing new', async () => {
    const chat = await createChat(ann.token, { name: 'Replayed', type: 'ai_assistant' });
    const question = await api.post(`/chats/${chat._id}/messages`, { content: 'Status of #9?' }, ann.token);
    expect(question.status).toBe(201);
    const responder = async ({ chat: asked }: { chat: { aiAssistant: { model: string } } }) => ({
      content: 'It is in progress.',
      model: asked.aiAssistant.model,
    });
    const history = await t.system.store.readAll(START, 100_000);
    const first = new ChatAiReactor(t.system.commands, t.system.pool, { logger: silent, responder });
    await first.handleBatch(history);
    expect(await aiReplies(chat._id)).toBe(1);
    // The reactor appended the answer itself: the chat's read model shows it once the projector has it.
    const aiMessage = async () =>
      (await api.get(`/chats/${chat._id}/messages`, ann.token)).body.messages.find((m: any) => m.isAIMessage);
    await expect.poll(aiMessage).toBeDefined();
    expect(await aiMessage()).toMatchObject({
      content: 'It is in progress.',
      sender: { _id: 'ai-assistant', name: 'AI Assistant' },
      replyTo: { _id: question.body._id },
    });
    const replayer = new ChatAiReactor(t.system.commands, t.system.pool, { logger: silent, responder });
    await replayer.handleBatch(history);
    expect(await aiReplies(chat._id)).toBe(1);
    // No human message anywhere got a second answer.
    const { rows: doubled } = await t.system.pool.query(
      "select data->>'replyTo' from eventstore.events where type = 'AiMessagePosted' group by 1 having count(*) > 1",
    );
    expect(doubled).toEqual([]);
  });

  it('stays silent where the assistant is off', async () => {
    const chat = await createChat(ann.token, { name: 'Humans only', participants: [bob.id] });
    await api.post(`/chats/${chat._id}/messages`, { content: 'anyone?' }, ann.token);
    const replayer = new ChatAiReactor(t.system.commands, t.system.pool, { logger: silent });
    const events = (await t.system.store.readAll(START, 100_000)).filter((e) => e.streamId === `chatmsgs-${chat._id}`);
    expect(await replayer.handleBatch(events)).toBe(0);
  });
});
