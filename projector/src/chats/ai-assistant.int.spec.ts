import { aiAssistantTexts } from '@bugtrail/domain';
import type { AiConfig } from '@bugtrail/platform';
import { eventually, http, registerUser, SseReader, type TestUser } from '@bugtrail/testing';
import { type FakeProvider, startFakeAnthropic, startFakeOpenAi } from '@bugtrail/testing/ai-providers';
import { startTestSystem } from '@bugtrail/testing/system';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The AI assistant end to end (api.md "The AI assistant"): the real system, its reactor and
 * live stream, with each provider replaced at its network boundary by a fake server on
 * 127.0.0.1 that speaks the provider's streaming protocol (testing/src/ai-providers.ts).
 * These are not the real OpenAI or Anthropic services.
 */
type Message = { _id: string; content: string; isAIMessage: boolean; replyTo: { _id: string } | null };

async function setUp(ai: Partial<AiConfig>) {
  const t = await startTestSystem({
    config: {
      ai: {
        openai: undefined,
        anthropic: undefined,
        contextMessages: 20,
        timeoutMs: 20_000,
        dailyTokensPerUser: 0,
        ...ai,
      },
    },
  });
  const api = http(t.url);
  const admin = await registerUser(t.url, 'admin', 'Ada Admin');
  const ann = await registerUser(t.url, 'tester', 'Ann Asker');
  const bob = await registerUser(t.url, 'developer', 'Bob Builder');
  const chat = (
    await api.post(
      '/api/chats',
      {
        name: 'Ask the bot',
        type: 'ai_assistant',
        participants: [bob.id],
        aiAssistant: { enabled: true, model: 'gpt-4', systemPrompt: 'You help a bug tracking team.' },
      },
      ann.token,
    )
  ).body as { _id: string };
  const ask = async (content: string, user: TestUser = ann) => {
    const sent = await api.post(`/api/chats/${chat._id}/messages`, { content }, user.token);
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    return sent.body as Message;
  };
  const answerTo = (question: Message) =>
    eventually(async () => {
      const { body } = await api.get(`/api/chats/${chat._id}/messages`, ann.token);
      return (body.messages as Message[]).find((m) => m.isAIMessage && m.replyTo?._id === question._id);
    }, 100);
  return { t, api, admin, ann, bob, chat, ask, answerTo };
}

describe('the assistant on an OpenAI-compatible endpoint (fake server on 127.0.0.1, not the real provider)', () => {
  let provider: FakeProvider;
  let s: Awaited<ReturnType<typeof setUp>>;

  beforeAll(async () => {
    provider = await startFakeOpenAi({ models: ['gpt-4', 'local-llama'] });
    s = await setUp({
      openai: { baseUrl: provider.url, apiKey: provider.apiKey, model: 'local-llama' },
      contextMessages: 3,
    });
  });
  afterAll(async () => {
    await s?.t.close();
    await provider?.close();
  });

  it('streams the answer to every member as it grows, then posts it once', async () => {
    const bobLive = await SseReader.open(s.t.url, s.bob.token);
    provider.script({ kind: 'text', chunks: ['The login ', 'bug is ', 'fixed.'], delayMs: 150 });
    const question = await s.ask('Is the login bug fixed?');
    const answer = await s.answerTo(question);
    expect(answer.content).toBe('The login bug is fixed.');
    const drafts = bobLive.messages.filter((m) => m.event === 'ai-draft').map((m) => m.data);
    expect(drafts.length).toBeGreaterThan(1);
    expect(drafts.at(-1)).toMatchObject({
      chatId: s.chat._id,
      messageId: answer._id,
      content: 'The login bug is fixed.',
    });
    expect(String(drafts[0]!.content).length).toBeLessThan('The login bug is fixed.'.length);
    bobLive.close();
    const { rows } = await s.t.system.pool.query(
      "select data from eventstore.events where type = 'AiMessagePosted' and data->>'replyTo' = $1",
      [question._id],
    );
    expect(rows).toHaveLength(1);
    // The chat asked for gpt-4 and the endpoint lists it: that model answered.
    expect(rows[0].data.model).toBe('gpt-4');
  });

  it("offers the spec's four models and the endpoint's own, and takes only those", async () => {
    const choices = await s.api.get('/api/chats/ai-models', s.bob.token);
    expect(choices.body.models).toEqual(['gpt-3.5-turbo', 'gpt-4', 'claude-3-sonnet', 'claude-3-opus', 'local-llama']);
    expect(choices.body.listed).toContainEqual({ id: 'local-llama', provider: 'openai' });
    const configure = (model: string) =>
      s.api.put(`/api/chats/${s.chat._id}`, { aiAssistant: { enabled: true, model } }, s.ann.token);
    expect((await configure('local-llama')).status).toBe(200);
    provider.requests.length = 0;
    await s.answerTo(await s.ask('Which model are you?'));
    expect(provider.requests.find((r) => r.path.endsWith('/chat/completions'))!.body.model).toBe('local-llama');
    expect((await configure('not-a-listed-model')).status).toBe(400);
    expect((await configure('gpt-4')).status).toBe(200);
  });

  it('sends the system prompt and the latest messages, oldest first, with sender names', async () => {
    // Each question is answered before the next is asked, so the timeline's order is fixed.
    await s.answerTo(await s.ask('first, too old to be read', s.bob));
    await s.answerTo(await s.ask('second'));
    provider.requests.length = 0;
    const question = await s.ask('third: what did I ask?');
    await s.answerTo(question);
    const body = provider.requests.find((r) => r.path.endsWith('/chat/completions'))!.body;
    expect(provider.requests[0]!.headers.authorization).toBe(`Bearer ${provider.apiKey}`);
    expect(body.stream).toBe(true);
    expect(body.messages[0]).toEqual({ role: 'system', content: 'You help a bug tracking team.' });
    // AI_CONTEXT_MESSAGES = 3: the question and the two messages before it.
    expect(body.messages.slice(1)).toEqual([
      { role: 'user', content: 'Ann Asker: second' },
      { role: 'assistant', content: 'ok' },
      { role: 'user', content: 'Ann Asker: third: what did I ask?' },
    ]);
    expect(body.tools.map((tool: any) => tool.function.name)).toEqual(['search_bugs', 'get_bug']);
  });

  it("answers its tools with what the asker may see: another tester's bug is not found", async () => {
    const assignedTo = [s.bob.id];
    const other = await registerUser(s.t.url, 'tester', 'Otto Other');
    const report = (user: TestUser, title: string) =>
      s.api.post(
        '/api/bugs',
        { title, description: `${title}, every time`, priority: 'High', severity: 'Major', dueDate: null, assignedTo },
        user.token,
      );
    const hiddenAnswer = await report(other, 'Payment page times out');
    expect(hiddenAnswer.status, JSON.stringify(hiddenAnswer.body)).toBe(201);
    const hidden = hiddenAnswer.body.bug;
    const mine = (await report(s.ann, 'Export button does nothing')).body.bug;
    expect(hidden.number).toBeGreaterThan(0);
    provider.script(
      { kind: 'tool_call', name: 'get_bug', arguments: { number: hidden.number } },
      { kind: 'tool_call', name: 'search_bugs', arguments: { query: 'button' } },
      { kind: 'text', chunks: ['Only the export bug is yours.'] },
    );
    provider.requests.length = 0;
    const answer = await s.answerTo(await s.ask('What about the payment bug, and my button bug?'));
    expect(answer.content).toBe('Only the export bug is yours.');
    const chats = provider.requests.filter((r) => r.path.endsWith('/chat/completions'));
    expect(chats).toHaveLength(3);
    const toolResult = (i: number) => JSON.parse(chats[i]!.body.messages.at(-1).content);
    expect(toolResult(1)).toEqual({ error: 'not found' });
    expect(toolResult(2).bugs.map((b: any) => b.number)).toEqual([mine.number]);
  });

  it("keeps a private project's bugs from an asker outside it, even one assigned to them", async () => {
    const sec = (await s.api.post('/api/projects', { key: 'SEC', name: 'Security', private: true }, s.admin.token))
      .body;
    const member = await registerUser(s.t.url, 'tester', 'Mia Member');
    for (const id of [member.id, s.bob.id]) {
      const added = await s.api.call('PUT', `/api/projects/${sec._id}/members/${id}`, {
        body: { role: 'member' },
        token: s.admin.token,
      });
      expect(added.status).toBe(200);
    }
    const made = await s.api.post(
      '/api/bugs',
      {
        title: 'Vault token leaks into logs',
        description: 'Vault token leaks into logs, every time',
        priority: 'High',
        severity: 'Major',
        assignedTo: [s.bob.id],
        projectId: sec._id,
      },
      member.token,
    );
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    // Bob leaves the project, still assigned: a private project's bug is given only to its members.
    const removed = await s.api.delete(`/api/projects/${sec._id}/members/${s.bob.id}`, s.admin.token);
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    provider.script(
      { kind: 'tool_call', name: 'get_bug', arguments: { number: made.body.bug.number } },
      { kind: 'tool_call', name: 'search_bugs', arguments: { query: 'vault' } },
      { kind: 'text', chunks: ['Nothing I can show you.'] },
    );
    provider.requests.length = 0;
    // Bob is assigned to it but no longer a member of the project: for him it does not exist.
    const answer = await s.answerTo(await s.ask('What is the vault bug about?', s.bob));
    expect(answer.content).toBe('Nothing I can show you.');
    const chats = provider.requests.filter((r) => r.path.endsWith('/chat/completions'));
    const toolResult = (i: number) => JSON.parse(chats[i]!.body.messages.at(-1).content);
    expect(toolResult(1)).toEqual({ error: 'not found' });
    expect(toolResult(2)).toEqual({ bugs: [] });
  });

  it('fails politely after two retries of a 500, naming neither the key nor the prompt', async () => {
    provider.script({ kind: 'status', status: 500 }, { kind: 'status', status: 500 }, { kind: 'status', status: 500 });
    provider.requests.length = 0;
    const answer = await s.answerTo(await s.ask('Will this work?'));
    expect(answer.content).toBe(`${aiAssistantTexts.failedPrefix}the AI provider failed (500)`);
    expect(provider.requests.filter((r) => r.path.endsWith('/chat/completions'))).toHaveLength(3);
    expect(answer.content).not.toContain(provider.apiKey);
    expect(answer.content).not.toContain('bug tracking team');
    const { rows } = await s.t.system.pool.query(
      'select count(*)::int as n from eventstore.events where data::text like $1 or metadata::text like $1',
      [`%${provider.apiKey}%`],
    );
    expect(rows[0].n).toBe(0);
  });

  it('honours a 429 with Retry-After and then answers', async () => {
    provider.script({ kind: 'status', status: 429, retryAfterSeconds: 1 }, { kind: 'text', chunks: ['Back again.'] });
    const answer = await s.answerTo(await s.ask('Still there?'));
    expect(answer.content).toBe('Back again.');
  });

  it('says so when the connection breaks mid-answer', async () => {
    provider.script({ kind: 'disconnect', afterChunks: ['Half an'] });
    const answer = await s.answerTo(await s.ask('Tell me everything'));
    expect(answer.content).toBe(`${aiAssistantTexts.failedPrefix}the connection to the AI provider broke`);
  });

  it('stops on Stop, posting what was written so far, marked', async () => {
    const annLive = await SseReader.open(s.t.url, s.ann.token);
    provider.script({ kind: 'text', chunks: ['One, ', 'two, ', 'three, ', 'four, ', 'five.'], delayMs: 400 });
    const question = await s.ask('Count slowly');
    const draft = await annLive.waitFor((m) => m.event === 'ai-draft' && m.data.content === 'One, ');
    const stopped = await s.api.post(
      `/api/chats/${s.chat._id}/messages/${String(draft.data.messageId)}/stop`,
      {},
      s.bob.token,
    );
    expect(stopped.status).toBe(202);
    const answer = await s.answerTo(question);
    expect(answer.content.startsWith('One, '), answer.content).toBe(true);
    expect(answer.content).not.toContain('five.');
    expect(answer.content.endsWith(aiAssistantTexts.stoppedMark)).toBe(true);
    annLive.close();
    // Only members may press Stop.
    const outsider = await registerUser(s.t.url, 'developer', 'Olga Outsider');
    expect(
      (await s.api.post(`/api/chats/${s.chat._id}/messages/${String(draft.data.messageId)}/stop`, {}, outsider.token))
        .status,
    ).toBe(404);
  });
});

describe('the assistant on Anthropic (fake Messages API on 127.0.0.1, not the real provider)', () => {
  let provider: FakeProvider;
  let s: Awaited<ReturnType<typeof setUp>>;

  beforeAll(async () => {
    provider = await startFakeAnthropic({ models: ['claude-opus-9-1-20261001', 'claude-sonnet-9-5-20261001'] });
    s = await setUp({ anthropic: { baseUrl: provider.url, apiKey: provider.apiKey }, dailyTokensPerUser: 60 });
    expect(
      (
        await s.api.put(
          `/api/chats/${s.chat._id}`,
          { aiAssistant: { enabled: true, model: 'claude-3-sonnet', systemPrompt: 'Be brief.' } },
          s.ann.token,
        )
      ).status,
    ).toBe(200);
  });
  afterAll(async () => {
    await s?.t.close();
    await provider?.close();
  });

  it('streams an answer with a tool round, on the newest listed model of the family', async () => {
    provider.script(
      { kind: 'tool_call', name: 'search_bugs', arguments: { query: 'nothing like this' } },
      { kind: 'text', chunks: ['No bugs ', 'match.'] },
    );
    const answer = await s.answerTo(await s.ask('Any crash bugs?'));
    expect(answer.content).toBe('No bugs match.');
    const asks = provider.requests.filter((r) => r.path.endsWith('/v1/messages'));
    expect(asks[0]!.body).toMatchObject({ model: 'claude-sonnet-9-5-20261001', system: 'Be brief.', stream: true });
    expect(asks[1]!.body.messages.at(-1).content[0]).toMatchObject({ type: 'tool_result' });
  });

  it("keeps each person's daily token budget", async () => {
    provider.script({ kind: 'text', chunks: ['a'], usage: { input: 100, output: 1 } });
    await s.answerTo(await s.ask('spend it'));
    const refused = await s.answerTo(await s.ask('and more?'));
    expect(refused.content).toBe(
      `${aiAssistantTexts.failedPrefix}your daily AI token budget is used up; it renews tomorrow (UTC)`,
    );
  });
});

describe('the assistant when the provider hangs or keeps failing (fake server on 127.0.0.1, not the real provider)', () => {
  let provider: FakeProvider;
  let s: Awaited<ReturnType<typeof setUp>>;

  beforeAll(async () => {
    provider = await startFakeOpenAi();
    s = await setUp({ openai: { baseUrl: provider.url, apiKey: provider.apiKey, model: undefined }, timeoutMs: 1500 });
  });
  afterAll(async () => {
    await s?.t.close();
    await provider?.close();
  });

  it('gives up on a hang at AI_TIMEOUT_MS and says so', async () => {
    provider.script({ kind: 'hang' });
    const answer = await s.answerTo(await s.ask('Hello?'));
    expect(answer.content).toBe(`${aiAssistantTexts.failedPrefix}no answer within 2 s`);
  });

  it('stops asking for a while after five failures in a row', async () => {
    // The hang above was the first failure; four refused keys (401 is not retried) make five.
    for (let i = 0; i < 4; i++) provider.script({ kind: 'status', status: 401 });
    for (let i = 0; i < 4; i++) {
      const answer = await s.answerTo(await s.ask(`try ${i}`));
      expect(answer.content).toBe(`${aiAssistantTexts.failedPrefix}the AI provider refused the credentials (401)`);
    }
    const asked = provider.requests.length;
    const answer = await s.answerTo(await s.ask('and now?'));
    expect(answer.content).toBe(
      `${aiAssistantTexts.failedPrefix}the AI provider failed several times in a row; try again in a minute`,
    );
    expect(provider.requests.length).toBe(asked);
  });
});
