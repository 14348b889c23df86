import { adminUrl, createTestDatabase, eventually, http, registerUser } from '@bugtrail/testing';
import { startFakeOpenAi } from '@bugtrail/testing/ai-providers';
import { type ProductProcess, startProductProcess } from '@bugtrail/testing/process';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * Exactly one answer per human message when the process writing it dies (api.md "The AI
 * assistant": "even across restarts"): two real `bugtrail start` processes on one database,
 * the provider a fake OpenAI-compatible server on 127.0.0.1 (not the real service) that
 * hangs on the first request. The leader is SIGKILLed mid-answer; the standby takes the
 * lead, asks again, and posts the one answer.
 */
describe('the assistant across a crash mid-answer (fake provider on 127.0.0.1)', () => {
  const cleanUp: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const step of cleanUp.reverse()) await step().catch(() => {});
  });

  it('posts exactly one answer after the leader is killed while it waits for the model', async () => {
    const fake = await startFakeOpenAi();
    cleanUp.push(() => fake.close());
    fake.script({ kind: 'hang' }, { kind: 'text', chunks: ['Answered ', 'after the crash.'] });
    const database = await createTestDatabase();
    cleanUp.push(() => database.drop());
    const env = { AI_BASE_URL: fake.url, AI_API_KEY: fake.apiKey, AI_MODEL: 'test-model', AI_TIMEOUT_MS: '120000' };
    const start = () => startProductProcess({ adminDatabaseUrl: adminUrl(), databaseUrl: database.url, env });
    const leader: ProductProcess = await start();
    cleanUp.push(() => leader.stop());

    const ann = await registerUser(leader.url, 'tester', 'Ann Asker');
    const api = http(leader.url);
    const chat = await api.post('/api/chats', { name: 'Crash test', type: 'ai_assistant' }, ann.token);
    expect(chat.status, JSON.stringify(chat.body)).toBe(201);
    const question = await api.post(`/api/chats/${chat.body._id}/messages`, { content: 'Are you there?' }, ann.token);
    expect(question.status).toBe(201);
    const asked = () => fake.requests.filter((r) => r.path.endsWith('/chat/completions')).length;
    await eventually(async () => asked() === 1 || undefined, 100);

    // A standby (its projector and reactors wait on the advisory locks), then the leader dies mid-answer.
    const standby = await start();
    cleanUp.push(() => standby.stop());
    await leader.kill();

    const standbyApi = http(standby.url);
    const answer = await eventually(async () => {
      const { body } = await standbyApi.get(`/api/chats/${chat.body._id}/messages`, ann.token);
      return (body.messages as { isAIMessage: boolean; content: string }[]).find((m) => m.isAIMessage);
    }, 200);
    expect(answer.content).toBe('Answered after the crash.');
    expect(asked()).toBe(2);
    const { rows } = await standby.db.query(
      "select count(*)::int as n from eventstore.events where type = 'AiMessagePosted' and data->>'replyTo' = $1",
      [question.body._id],
    );
    expect(rows[0].n).toBe(1);
  });
});
