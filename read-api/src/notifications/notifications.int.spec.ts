import { silentLogger } from '@bugtrail/platform';
import { DUE_BUGS_SQL, DueReminders } from '@bugtrail/projector';
import { eventually, http, registerAuditor, registerUser, SseReader, type TestUser } from '@bugtrail/testing';
import { startTestSystem, type TestSystem } from '@bugtrail/testing/system';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** api.md "People", Notifications: one per person per event, never the actor's own; read marks. */
describe('notifications', () => {
  let t: TestSystem;
  let api: ReturnType<typeof http>;
  let admin: TestUser;
  let reporter: TestUser;
  let developer: TestUser;
  let second: TestUser;

  const inbox = async (user: TestUser) => {
    const answer = await api.get('/api/notifications', user.token);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body as { notifications: any[]; unread: number };
  };

  beforeAll(async () => {
    t = await startTestSystem();
    api = http(t.url);
    admin = await registerUser(t.url, 'admin', 'Ada Admin');
    reporter = await registerUser(t.url, 'tester', 'Rae Reporter');
    developer = await registerUser(t.url, 'developer', 'Dev One');
    second = await registerUser(t.url, 'developer', 'Dev Two');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('tells assignees, the reporter, the mentioned and the commented-on, never the actor, live', async () => {
    const stream = await SseReader.open(t.url, developer.token);
    const created = await api.post(
      '/api/bugs',
      { title: 'Search ignores accents', description: 'Searching "cafe" misses "café".', assignedTo: [developer.id] },
      reporter.token,
    );
    expect(created.status).toBe(201);
    const bug = created.body.bug;
    await stream.waitFor((m) => m.topics.includes(`notifications:${developer.id}`));

    const assigned = await inbox(developer);
    expect(assigned.unread).toBe(1);
    expect(assigned.notifications[0]).toEqual({
      _id: expect.any(String),
      kind: 'assigned',
      text: `Rae Reporter assigned you to #${bug.number} Search ignores accents`,
      bugId: bug._id,
      chatId: null,
      actor: { _id: reporter.id, name: 'Rae Reporter' },
      createdAt: expect.any(String),
      readAt: null,
    });
    expect((await inbox(reporter)).unread).toBe(0);

    // The developer moves it: the reporter hears, the developer does not.
    expect((await api.put(`/api/bugs/${bug._id}/status`, { status: 'In Progress' }, developer.token)).status).toBe(200);
    const status = await inbox(reporter);
    expect(status.notifications.map((n) => [n.kind, n.text])).toEqual([
      ['status_changed', `Dev One changed the status of #${bug.number} Search ignores accents to In Progress`],
    ]);
    expect((await inbox(developer)).unread).toBe(1);

    // An admin adds a second developer and comments mentioning the first: one notification each.
    expect((await api.put(`/api/bugs/${bug._id}`, { assignedTo: [developer.id, second.id] }, admin.token)).status).toBe(
      200,
    );
    const comment = await api.post(
      `/api/bugs/${bug._id}/comments`,
      { body: 'Please pair on this @Dev One', mentions: [developer.id] },
      admin.token,
    );
    expect(comment.status).toBe(201);
    const mine = await inbox(developer);
    expect(mine.notifications.map((n) => n.kind)).toEqual(['mentioned', 'assigned']);
    expect(mine.notifications[0].text).toBe(`Ada Admin mentioned you on #${bug.number} Search ignores accents`);
    expect((await inbox(second)).notifications.map((n) => n.kind)).toEqual(['commented', 'assigned']);
    expect((await inbox(reporter)).notifications.map((n) => n.kind)).toEqual(['commented', 'status_changed']);
    expect((await inbox(admin)).unread).toBe(0);
  });

  it('tells whoever a chat message mentions', async () => {
    const chat = await api.post(
      '/api/chats',
      { name: 'Release', type: 'team', participants: [reporter.id, second.id] },
      admin.token,
    );
    expect(chat.status, JSON.stringify(chat.body)).toBe(201);
    const chatId = chat.body._id ?? chat.body.chat?._id;
    const sent = await api.post(
      `/api/chats/${chatId}/messages`,
      { content: 'Ready to ship? @Dev Two', mentions: [second.id] },
      reporter.token,
    );
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    const [latest] = (await inbox(second)).notifications;
    expect(latest).toMatchObject({
      kind: 'mentioned',
      chatId,
      bugId: null,
      text: 'Rae Reporter mentioned you in the chat Release',
    });
  });

  it('marks some or all read, only the caller’s own; auditors may mark theirs', async () => {
    const before = await inbox(developer);
    expect(before.unread).toBeGreaterThan(1);
    const first = before.notifications[0]._id;
    expect((await api.post('/api/notifications/read', { ids: [first] }, developer.token)).status).toBe(200);
    const after = await inbox(developer);
    expect(after.unread).toBe(before.unread - 1);
    expect(after.notifications[0].readAt).toEqual(expect.any(String));
    // Someone else's id changes nothing for them.
    const theirs = (await inbox(second)).notifications[0]._id;
    expect((await api.post('/api/notifications/read', { ids: [theirs] }, developer.token)).status).toBe(200);
    expect((await inbox(second)).notifications[0].readAt).toBeNull();

    expect((await api.post('/api/notifications/read', { all: true }, developer.token)).status).toBe(200);
    expect((await inbox(developer)).unread).toBe(0);
    expect((await api.post('/api/notifications/read', {}, developer.token)).status).toBe(400);
    expect((await api.post('/api/notifications/read', { ids: 'x' }, developer.token)).status).toBe(400);
    expect((await api.post('/api/notifications/read', { all: true })).status).toBe(401);
    expect((await api.get('/api/notifications')).status).toBe(401);

    const auditor = await registerAuditor(t.url, admin.token);
    expect((await api.post('/api/notifications/read', { all: true }, auditor.token)).status).toBe(200);
  });

  it('reminds the reporter and the assignees once when a bug is due within a day, and once when overdue', async () => {
    const due = new Date(Date.now() + 12 * 3_600_000).toISOString();
    const created = await api.post(
      '/api/bugs',
      {
        title: 'Invoice totals round wrong',
        description: 'Cents are lost on totals.',
        assignedTo: [second.id],
        dueDate: due,
      },
      reporter.token,
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const bug = created.body.bug;
    const far = await api.post(
      '/api/bugs',
      {
        title: 'Dark mode contrast on charts',
        description: 'Axis labels are too faint.',
        assignedTo: [second.id],
        dueDate: new Date(Date.now() + 10 * 86_400_000).toISOString(),
      },
      reporter.token,
    );
    expect(far.status).toBe(201);
    const reminders = new DueReminders(t.system.commands, t.system.pool, { logger: silentLogger });
    const kinds = async (user: TestUser) =>
      (await inbox(user)).notifications.filter((n) => n.bugId === bug._id).map((n) => n.kind);
    /** The projector follows the store on its own: wait until the kinds are there, then compare. */
    const kindsBecome = async (user: TestUser, expected: string[]) => {
      await eventually(async () => ((await kinds(user)).join() === expected.join() ? true : null)).catch(() => {});
      expect(await kinds(user)).toEqual(expected);
    };

    expect(await reminders.runOnce()).toBeGreaterThanOrEqual(1);
    expect(await reminders.runOnce()).toBe(0);
    await kindsBecome(second, ['due_soon', 'assigned']);
    expect((await inbox(second)).notifications[0].text).toBe(
      `#${bug.number} Invoice totals round wrong is due within a day`,
    );
    expect(await kinds(reporter)).toEqual(['due_soon']);

    // A day later it is overdue: said once; a closed bug is not reminded of.
    const later = new Date(Date.now() + 2 * 86_400_000);
    expect(await reminders.runOnce(later)).toBeGreaterThanOrEqual(1);
    expect(await reminders.runOnce(later)).toBe(0);
    await kindsBecome(second, ['overdue', 'due_soon', 'assigned']);
    expect((await inbox(second)).notifications.some((n) => n.bugId === far.body.bug._id && n.kind !== 'assigned')).toBe(
      false,
    );
    expect((await api.put(`/api/bugs/${far.body.bug._id}/status`, { status: 'Closed' }, second.token)).status).toBe(
      200,
    );
    const history = await api.get(`/api/bugs/${bug._id}/history`, admin.token);
    expect(history.body.events.map((e: { type: string }) => e.type)).toEqual(
      expect.arrayContaining(['BugDueSoon', 'BugOverdue']),
    );
  });

  it('looks for due bugs among the open bugs with a due date only (an index), not in every bug', async () => {
    const client = await t.system.pool.connect();
    try {
      // A table this small is read whichever way is cheapest: leave the look no way but a scan of
      // every row or the one index (the others are dropped, and back at the rollback).
      await client.query('begin');
      const { rows: others } = await client.query<{ name: string }>(
        `select indexname as name from pg_indexes
         where schemaname = 'rm' and tablename = 'bugs' and indexname not in ('rm_bugs_due', 'bugs_pkey')`,
      );
      for (const { name } of others) await client.query(`drop index rm.${client.escapeIdentifier(name)}`);
      await client.query('set local enable_seqscan = off');
      const { rows } = await client.query(`explain (format json) ${DUE_BUGS_SQL}`, [new Date().toISOString()]);
      expect(JSON.stringify(rows[0])).toContain('"Index Name":"rm_bugs_due"');
    } finally {
      await client.query('rollback').catch(() => {});
      client.release();
    }
  });
});
