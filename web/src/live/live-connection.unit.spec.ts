import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { type LiveEvent, runLiveConnection } from './live-connection';
import type { LiveStatus } from './live-status';
import { queryKeysForTopic } from './topic-keys';
import { createInvalidator } from './use-live-updates';

const sse = (...messages: string[]) =>
  new Response(
    new ReadableStream<Uint8Array>({
      start(controller) {
        for (const m of messages) controller.enqueue(new TextEncoder().encode(m));
        controller.close();
      },
    }),
    { status: 200, headers: { 'content-type': 'text/event-stream' } },
  );

describe('runLiveConnection', () => {
  it('sends the token in a header, resumes with the last id it saw, and reports its state', async () => {
    const requests: { url: string; headers: Record<string, string> }[] = [];
    const answers = [
      () =>
        sse(
          'event: ready\ndata: {"topics":[],"position":"p1"}\nid: p1\n\n',
          'event: bug\ndata: {"topics":["bug:b1"],"position":"p2"}\n\n',
          'event: bugs\ndata: {"topics":["bugs"],"position":"p2"}\nid: p2\n\n',
        ),
      () => new Response(JSON.stringify({ message: 'Too many' }), { status: 429 }),
      () => sse('event: user\ndata: {"topics":["user:u1"],"position":"p3"}\nid: p3\n\n'),
      () => new Response(JSON.stringify({ message: 'Token revoked' }), { status: 401 }),
    ];
    const controller = new AbortController();
    const events: LiveEvent[] = [];
    const statuses: LiveStatus[] = [];
    const done = runLiveConnection({
      url: '/api/events',
      getToken: () => 'T0K3N',
      onEvent: (e) => events.push(e),
      onStatus: (s) => {
        statuses.push(s);
        if (requests.length === answers.length && s === 'offline') controller.abort();
      },
      signal: controller.signal,
      backoff: { initialMs: 1, maxMs: 2 },
      tokenCheckMs: 5,
      fetch: async (url, init) => {
        requests.push({ url: String(url), headers: init?.headers as Record<string, string> });
        const answer = answers[requests.length - 1];
        if (!answer) throw new Error('no more answers');
        return answer();
      },
    });
    await done;

    expect(requests.map((r) => r.url)).toEqual(Array(4).fill('/api/events'));
    expect(requests.every((r) => r.headers.Authorization === 'Bearer T0K3N')).toBe(true);
    expect(requests.map((r) => r.headers['Last-Event-ID'] ?? null)).toEqual([null, 'p2', 'p2', 'p3']);
    expect(events.map((e) => [e.event, e.topics])).toEqual([
      ['ready', []],
      ['bug', ['bug:b1']],
      ['bugs', ['bugs']],
      ['user', ['user:u1']],
    ]);
    expect(statuses.slice(0, 3)).toEqual(['connecting', 'live', 'reconnecting']);
    expect(statuses).toContain('offline');
  });

  it('starts over without a position when the token changes', async () => {
    let token = 'first';
    const seen: (string | null)[] = [];
    const controller = new AbortController();
    await runLiveConnection({
      getToken: () => token,
      onEvent: () => {
        token = 'second';
      },
      onStatus: () => {},
      signal: controller.signal,
      backoff: { initialMs: 1, maxMs: 1 },
      fetch: async (_url, init) => {
        const headers = init?.headers as Record<string, string>;
        seen.push(`${headers.Authorization} ${headers['Last-Event-ID'] ?? '-'}`);
        if (seen.length === 2) controller.abort();
        return sse('event: ready\ndata: {"topics":[],"position":"p9"}\nid: p9\n\n');
      },
    });
    expect(seen).toEqual(['Bearer first -', 'Bearer second -']);
  });
});

describe('topic → query keys (ADR 004)', () => {
  it('names exactly the keys of the table', () => {
    expect(queryKeysForTopic('bug:b1')).toEqual([['bug', 'b1'], ['bugs'], ['dashboard'], ['users']]);
    expect(queryKeysForTopic('bugs')).toEqual([['bugs'], ['dashboard'], ['users']]);
    expect(queryKeysForTopic('user:u1')).toEqual([['users'], ['profile']]);
    expect(queryKeysForTopic('users')).toEqual([['users'], ['profile']]);
    expect(queryKeysForTopic('chat:c1')).toEqual([['chats'], ['chat', 'c1'], ['chat', 'c1', 'messages']]);
    expect(queryKeysForTopic('notifications:u1')).toEqual([['notifications']]);
    expect(queryKeysForTopic('notifications')).toEqual([['notifications']]);
    expect(queryKeysForTopic('something-new')).toEqual([]);
  });

  it('invalidates the named queries and leaves the others alone; reset invalidates everything', async () => {
    const client = new QueryClient();
    const keys = [
      ['bug', 'b1'],
      ['bug', 'b2'],
      ['bugs', 'list', { status: 'Open' }],
      ['dashboard', 'admin'],
      ['chats'],
      // A comment added, edited or deleted is announced as the bug's topic.
      ['bug', 'b1', 'comments'],
      ['bug', 'b2', 'comments'],
    ];
    for (const key of keys) client.setQueryData(key, 1);
    const invalidator = createInvalidator(client, 0);
    const isStale = () => keys.map((key) => client.getQueryState(key)?.isInvalidated ?? false);

    invalidator.handle({ event: 'bug', topics: ['bug:b1'], position: 'p1' });
    await new Promise((r) => setTimeout(r, 10));
    expect(isStale()).toEqual([true, false, true, true, false, true, false]);

    invalidator.handle({ event: 'reset', topics: [], position: 'p2' });
    await new Promise((r) => setTimeout(r, 10));
    expect(isStale()).toEqual([true, true, true, true, true, true, true]);
  });

  it("refreshes the reader's notifications on their topic, and nothing else", async () => {
    const client = new QueryClient();
    const keys = [['notifications'], ['bugs', 'list', {}], ['dashboard', 'developer'], ['chats'], ['profile']];
    for (const key of keys) client.setQueryData(key, 1);
    const invalidator = createInvalidator(client, 0);

    invalidator.handle({ event: 'notifications', topics: ['notifications:u1'], position: 'p1' });
    await new Promise((r) => setTimeout(r, 10));
    expect(keys.map((key) => client.getQueryState(key)?.isInvalidated ?? false)).toEqual([
      true,
      false,
      false,
      false,
      false,
    ]);
  });
});
