import { START } from '@bugtrail/eventstore';
import { silentLogger as silent } from '@bugtrail/platform';
import { eventually, http, registerUser, type TestUser } from '@bugtrail/testing';
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
  it('answers each human message once, saying plainly how to set a provider up', async () => {
    const chat = await createChat(ann.token, { name: 'Ask the bot', type: 'ai_assistant' });
    const question = await api.post(
      `/chats/${chat._id}/messages`,
      { content: 'What is the priority of #7?' },
      ann.token,
    );
    expect(question.status).toBe(201);
    const reply = await eventually(async () => {
      const { body } = await api.get(`/chats/${chat._id}/messages`, ann.token);
      return body.messages.find((m: any) => m.isAIMessage);
    });
    expect(reply.content).toContain('No AI provider is set up');
    for (const variable of ['AI_BASE_URL', 'AI_API_KEY', 'ANTHROPIC_API_KEY'])
      expect(reply.content).toContain(variable);
    expect(reply).toMatchObject({
      sender: { _id: 'ai-assistant', name: 'AI Assistant' },
      isDeleted: false,
      replyTo: { _id: question.body._id },
    });
    const list = await api.get('/chats', ann.token);
    expect(list.body.find((c: any) => c._id === chat._id).lastMessage).toMatchObject({ isAIMessage: true });

    // A replay of the same events (a lost checkpoint) posts nothing new.
    const replies = async () =>
      Number(
        (
          await t.system.pool.query(
            "select count(*) as n from eventstore.events where type = 'AiMessagePosted' and stream_id = $1",
            [`chatmsgs-${chat._id}`],
          )
        ).rows[0].n,
      );
    expect(await replies()).toBe(1);
    const replayer = new ChatAiReactor(t.system.commands, t.system.pool, { logger: silent });
    const history = await t.system.store.readAll(START, 100_000);
    await replayer.handleBatch(history);
    expect(await replies()).toBe(1);
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
