import { randomUUID } from 'node:crypto';
import { loadConfig } from '@bugtrail/platform';
import { http, registerUser, SseReader, type TestUser } from '@bugtrail/testing';
import { startTestSystem, type TestSystem } from '@bugtrail/testing/system';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bugEvents } from './bug-events.fixture.js';

describe('GET /api/events', () => {
  let t: TestSystem;
  const readers: SseReader[] = [];
  const open = async (user: TestUser, lastEventId: string | null = null) => {
    const reader = await SseReader.open(t.url, user.token, lastEventId);
    readers.push(reader);
    return reader;
  };

  beforeAll(async () => {
    t = await startTestSystem({ config: { rateLimits: { ...loadConfig({}).rateLimits, sseConnectionsPerUser: 3 } } });
  });
  afterEach(() => {
    for (const reader of readers.splice(0)) reader.close();
  });
  afterAll(async () => {
    await t.close();
  });

  /** A user registered now: everyone hears `user:{id}`, so a reader that got it has got everything before it. */
  const marker = async (...listening: SseReader[]) => {
    const user = await registerUser(t.url, 'tester');
    await Promise.all(listening.map((r) => r.waitFor((m) => m.topics.includes(`user:${user.id}`))));
    return user;
  };

  it('refuses a request without a valid bearer token with 401 JSON', async () => {
    const api = http(t.url);
    const missing = await api.get('/api/events');
    expect(missing.status).toBe(401);
    expect(missing.body).toEqual({ message: expect.any(String) });
    const bad = await api.get('/api/events', 'not-a-token');
    expect(bad.status).toBe(401);
  });

  it('limits live connections per user with 429 JSON, and frees the slot when one closes', async () => {
    const user = await registerUser(t.url, 'developer');
    const [first] = await Promise.all([open(user), open(user), open(user)]);
    const refused = await http(t.url).get('/api/events', user.token);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ message: expect.any(String) });
    first!.close();
    // The server learns of the close asynchronously; the slot comes back soon after.
    let reopened: SseReader | null = null;
    for (let attempt = 0; attempt < 100 && !reopened; attempt++) {
      reopened = await open(user).catch(() => null);
      if (!reopened) await new Promise((r) => setTimeout(r, 100));
    }
    expect(reopened).not.toBeNull();
  });

  describe("a revocation ends the user's streams at once, not at the next 15 s heartbeat", () => {
    // Each wait below is far shorter than the heartbeat, so only the revocation notice can end the stream.
    it('logout ends every stream of the user, on this replica and on another one', async () => {
      const user = await registerUser(t.url, 'tester');
      const other = await startTestSystem({ databaseUrl: t.databaseUrl });
      try {
        const here = await open(user);
        const there = await SseReader.open(other.url, user.token);
        readers.push(there);
        const bystander = await open(await registerUser(t.url, 'tester'));
        expect((await http(t.url).post('/api/auth/logout', {}, user.token)).status).toBe(200);
        await Promise.all([here.waitForEnd(5000), there.waitForEnd(5000)]);
        expect(bystander.isEnded).toBe(false);
        expect((await http(t.url).get('/api/events', user.token)).status).toBe(401);
      } finally {
        await other.close();
      }
    });

    it('a password change ends the streams opened with older tokens', async () => {
      const user = await registerUser(t.url, 'developer');
      const reader = await open(user);
      const answer = await http(t.url).put(
        `/api/users/${user.id}`,
        { password: 'a whole new secret', currentPassword: 'correct horse battery' },
        user.token,
      );
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      await reader.waitForEnd(5000);
      const fresh = await open({ ...user, token: answer.body.token });
      expect(fresh.isEnded).toBe(false);
    });
  });

  it('tells a subscriber of a registration: `users` and `user:{id}`, with the position as id', async () => {
    const watcher = await registerUser(t.url, 'developer');
    const reader = await open(watcher);
    const ready = reader.messages.find((m) => m.event === 'ready')!;
    expect(ready.id).toMatch(/^[0-9a-f]{32}$/);

    const newcomer = await registerUser(t.url, 'tester');
    const user = await reader.waitFor((m) => m.event === 'user' && m.topics.includes(`user:${newcomer.id}`));
    // The messages of one change share its position; the last of them carries the id. (A
    // change the hub had not announced yet when the stream opened, such as the watcher's own
    // registration, may come first: it has a position of its own.)
    const users = await reader.waitFor((m) => m.event === 'users' && m.position === user.position);
    expect(users.topics).toEqual(['users']);
    expect(user.position > ready.position).toBe(true);
    const row = await t.system.pool.query('select topics from projector.changes where position = $1', [user.position]);
    expect(row.rows[0]?.topics).toEqual(expect.arrayContaining([`user:${newcomer.id}`, 'users']));
    expect(reader.lastEventId).toBe(user.position);
  });

  describe('bug topics: each subscriber hears only of bugs in their lists', () => {
    let admin: TestUser;
    let reporter: TestUser;
    let otherTester: TestUser;
    let assignee: TestUser;
    let otherDeveloper: TestUser;

    beforeAll(async () => {
      admin = await registerUser(t.url, 'admin');
      reporter = await registerUser(t.url, 'tester');
      otherTester = await registerUser(t.url, 'tester');
      assignee = await registerUser(t.url, 'developer');
      otherDeveloper = await registerUser(t.url, 'developer');
    });

    it('delivers a report and an assignment to exactly the people who may see the bug', async () => {
      const [a, r, ot, d, od] = await Promise.all(
        [admin, reporter, otherTester, assignee, otherDeveloper].map((u) => open(u)),
      );
      const bugs = bugEvents(t.system.store);
      const bugId = randomUUID();
      await bugs.report(bugId, reporter.id);
      await bugs.assign(bugId, admin.id, [assignee.id]);
      await marker(a!, r!, ot!, d!, od!);

      const bugTopic = `bug:${bugId}`;
      const bugMessages = (reader: SseReader) => reader.messages.filter((m) => m.topics.includes(bugTopic));
      expect(bugMessages(a!).length).toBeGreaterThan(0);
      expect(bugMessages(r!).length).toBeGreaterThan(0);
      expect(bugMessages(d!).length).toBeGreaterThan(0);
      // The other tester sees every list row (`bugs`) but never this bug's detail topic.
      expect(bugMessages(ot!)).toEqual([]);
      expect(ot!.topics()).toContain('bugs');
      // The other developer learns nothing of a bug that is not theirs, not even that some bug changed.
      expect(bugMessages(od!)).toEqual([]);
      expect(od!.topics().filter((topic) => topic === 'bugs' || topic.startsWith('bug:'))).toEqual([]);
      expect(d!.topics()).not.toContain('bugs');
      // No subscriber ever sees an audience.
      for (const reader of [a!, r!, ot!, d!, od!]) {
        expect(reader.topics().filter((topic) => topic.includes('|'))).toEqual([]);
      }
    });

    it('tells a developer who lost a bug, and then nothing more of it', async () => {
      const bugs = bugEvents(t.system.store);
      const bugId = randomUUID();
      const topic = `bug:${bugId}`;
      const d = await open(assignee);
      const od = await open(otherDeveloper);
      await bugs.report(bugId, reporter.id);
      await bugs.assign(bugId, admin.id, [assignee.id, otherDeveloper.id]);
      // The bug is in the developer's lists now (what a batch never showed needs no removal).
      const assigned = await d.waitFor((m) => m.topics.includes(topic));

      await bugs.unassign(bugId, admin.id, [assignee.id]);
      const removal = await d.waitFor((m) => m.topics.includes(topic) && m.position > assigned.position);
      await od.waitFor((m) => m.position === removal.position && m.topics.includes(topic));

      const after = d.messages.length;
      await bugs.changeStatus(bugId, otherDeveloper.id, 'Open', 'In Progress');
      await od.waitFor((m) => m.position > removal.position && m.topics.includes(topic));
      await marker(d);
      expect(d.messages.slice(after).filter((m) => m.topics.includes(topic))).toEqual([]);
    });

    it('tells everyone who could see a deleted bug', async () => {
      const bugs = bugEvents(t.system.store);
      const bugId = randomUUID();
      await bugs.report(bugId, reporter.id);
      await bugs.assign(bugId, admin.id, [assignee.id]);
      const [a, r, d, od] = await Promise.all([admin, reporter, assignee, otherDeveloper].map((u) => open(u)));
      await bugs.delete(bugId, reporter.id);
      await Promise.all([a!, r!, d!].map((reader) => reader.waitFor((m) => m.topics.includes(`bug:${bugId}`))));
      await marker(od!);
      expect(od!.topics()).not.toContain(`bug:${bugId}`);
    });
  });
});
