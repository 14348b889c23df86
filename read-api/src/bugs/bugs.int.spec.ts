import { randomUUID } from 'node:crypto';
import { http, registerUser, type TestUser } from '@bugtrail/testing';
import { appendAndSettle, startTestSystem, type TestSystem } from '@bugtrail/testing/system';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { event, reportBug, statusChanged } from '../../../cli/src/demo/bug-events.js';
import { allViewableSchema, bugDtoSchema, bugListSchema, dashboardSchema, historySchema } from './bugs.schemas.js';

/**
 * The bug reads over real HTTP on real PostgreSQL. Users register through write-api;
 * bugs are written as the domain's events, with their own clock, so the history and
 * ordering are exact.
 */
describe('bug reads: lists, detail, dashboards, history', () => {
  let t: TestSystem;
  let api: ReturnType<typeof http>;
  let admin: TestUser;
  let tester1: TestUser;
  let tester2: TestUser;
  let dev1: TestUser;
  let dev2: TestUser;
  const base = Date.now() - 24 * 3600_000;
  const at = (m: number) => new Date(base + m * 60_000).toISOString();
  const ids = { b1: randomUUID(), b2: randomUUID(), b3: randomUUID(), b4: randomUUID(), b5: randomUUID() };
  let checklistItemId = '';

  const ids_ = (list: { _id: string }[]) => list.map((b) => b._id);

  beforeAll(async () => {
    t = await startTestSystem();
    api = http(t.url);
    admin = await registerUser(t.url, 'admin', 'Ada Admin');
    tester1 = await registerUser(t.url, 'tester', 'Tess One');
    tester2 = await registerUser(t.url, 'tester', 'Tom Two');
    dev1 = await registerUser(t.url, 'developer', 'Dev Uno');
    dev2 = await registerUser(t.url, 'developer', 'Dev Dos');

    const b1 = reportBug(
      {
        bugId: ids.b1,
        reporterId: tester1.id,
        title: 'Login button crashes the app',
        description: 'Pressing login twice crashes everything',
        priority: 'High',
        severity: 'Critical',
        module: 'auth',
        assigneeIds: [dev1.id],
        checklist: ['Open the login page', 'Press login twice'],
        attachments: ['https://example.com/crash.png'],
      },
      { at: at(0) },
    );
    checklistItemId = (b1[2]!.data as { itemId: string }).itemId;
    await appendAndSettle(t, `bug-${ids.b1}`, b1, 'no_stream');
    await appendAndSettle(t, `bug-${ids.b2}`, [
      ...reportBug(
        {
          bugId: ids.b2,
          reporterId: tester1.id,
          title: 'Profile page is slow',
          description: 'The profile page takes ten seconds to load',
          priority: 'Medium',
          severity: 'Major',
          assigneeIds: [dev1.id, dev2.id],
        },
        { at: at(10) },
      ),
      statusChanged(ids.b2, 'Open', 'In Progress', { actorId: dev1.id, at: at(11) }),
    ]);
    await appendAndSettle(t, `bug-${ids.b3}`, [
      ...reportBug(
        {
          bugId: ids.b3,
          reporterId: tester2.id,
          title: 'Typo in the footer',
          description: 'The footer says Bugtrial instead of Bugtrail',
          priority: 'Low',
          severity: 'Minor',
          assigneeIds: [dev2.id],
        },
        { at: at(20) },
      ),
      statusChanged(ids.b3, 'Open', 'Closed', { actorId: dev2.id, at: at(21) }),
    ]);
    await appendAndSettle(t, `bug-${ids.b4}`, [
      ...reportBug(
        {
          bugId: ids.b4,
          reporterId: tester2.id,
          title: 'Duplicate of the login crash',
          description: 'Same as the login crash, reported twice',
          assigneeIds: [dev1.id],
        },
        { at: at(30) },
      ),
      event('BugDeleted', { bugId: ids.b4 }, { actorId: tester2.id, at: at(31) }),
    ]);
    await appendAndSettle(t, `bug-${ids.b5}`, [
      ...reportBug(
        {
          bugId: ids.b5,
          reporterId: tester1.id,
          title: 'Search returns nothing',
          description: 'Searching for any word returns an empty list',
          priority: 'High',
          severity: 'Minor',
          assigneeIds: [dev2.id],
        },
        { at: at(40) },
      ),
    ]);
  });

  afterAll(async () => {
    await t?.close();
  });

  describe('GET /api/bugs', () => {
    it('scopes by role, newest first, deleted bugs left out, statusSummary over the scope', async () => {
      const a = await api.get('/api/bugs', admin.token);
      expect(a.status).toBe(200);
      bugListSchema.parse(a.body);
      expect(ids_(a.body.bugs)).toEqual([ids.b5, ids.b3, ids.b2, ids.b1]);
      expect(a.body.statusSummary).toEqual({
        all: 4,
        open: 2,
        inProgress: 1,
        closed: 1,
        openBugs: 2,
        pendingBugs: 2,
        inProgressBugs: 1,
        closedBugs: 1,
        resolvedBugs: 1,
      });
      expect(a.body).not.toHaveProperty('nextCursor');

      const t1 = await api.get('/api/bugs', tester1.token);
      expect(ids_(t1.body.bugs)).toEqual([ids.b5, ids.b2, ids.b1]);
      expect(t1.body.statusSummary).toMatchObject({ all: 3, open: 2, inProgress: 1, closed: 0 });

      const t2 = await api.get('/api/bugs', tester2.token);
      expect(ids_(t2.body.bugs)).toEqual([ids.b3]);
      expect(t2.body.statusSummary).toMatchObject({ all: 1, closed: 1, resolvedBugs: 1 });

      const d1 = await api.get('/api/bugs', dev1.token);
      expect(ids_(d1.body.bugs)).toEqual([ids.b2, ids.b1]);
      expect(d1.body.statusSummary).toMatchObject({ all: 2, open: 1, inProgress: 1, closed: 0 });
    });

    it('accepts Open/In Progress/Closed and Pending/Resolved in any case; summary stays unfiltered', async () => {
      const cases: [string, string[]][] = [
        ['Open', [ids.b5, ids.b1]],
        ['pending', [ids.b5, ids.b1]],
        ['PENDING', [ids.b5, ids.b1]],
        ['In Progress', [ids.b2]],
        ['in progress', [ids.b2]],
        ['Closed', [ids.b3]],
        ['resolved', [ids.b3]],
        ['', [ids.b5, ids.b3, ids.b2, ids.b1]],
      ];
      for (const [status, expected] of cases) {
        const answer = await api.get(`/api/bugs?status=${encodeURIComponent(status)}`, admin.token);
        expect(answer.status, status).toBe(200);
        expect(ids_(answer.body.bugs), status).toEqual(expected);
        expect(answer.body.statusSummary.all).toBe(4);
      }
      const bad = await api.get('/api/bugs?status=Done', admin.token);
      expect(bad.status).toBe(400);
      expect(bad.body.message).toMatch(/Status must be one of/);
      expect(bad.body.details[0].field).toBe('status');
    });

    it('pages with limit and an opaque cursor', async () => {
      const first = await api.get('/api/bugs?limit=2', admin.token);
      expect(ids_(first.body.bugs)).toEqual([ids.b5, ids.b3]);
      expect(typeof first.body.nextCursor).toBe('string');
      expect(first.headers.get('x-next-cursor')).toBe(first.body.nextCursor);
      const second = await api.get(`/api/bugs?limit=2&cursor=${first.body.nextCursor}`, admin.token);
      expect(ids_(second.body.bugs)).toEqual([ids.b2, ids.b1]);
      expect(second.body.nextCursor).toBeNull();
      const filtered = await api.get('/api/bugs?limit=1&status=open', admin.token);
      const rest = await api.get(`/api/bugs?limit=1&status=open&cursor=${filtered.body.nextCursor}`, admin.token);
      expect([...ids_(filtered.body.bugs), ...ids_(rest.body.bugs)]).toEqual([ids.b5, ids.b1]);
      expect((await api.get('/api/bugs?limit=0', admin.token)).status).toBe(400);
      expect((await api.get('/api/bugs?limit=abc', admin.token)).status).toBe(400);
      expect((await api.get('/api/bugs?cursor=not-a-cursor', admin.token)).status).toBe(400);
      const capped = await api.get('/api/bugs?limit=100000', admin.token);
      expect(capped.status).toBe(200);
      expect(capped.body.bugs).toHaveLength(4);
    });

    it('searches title and description with q, within the scope', async () => {
      expect(ids_((await api.get('/api/bugs?q=crashes', admin.token)).body.bugs)).toEqual([ids.b1]);
      expect(ids_((await api.get('/api/bugs?q=slow', admin.token)).body.bugs)).toEqual([ids.b2]);
      expect(ids_((await api.get('/api/bugs?q=ten%20seconds', admin.token)).body.bugs)).toEqual([ids.b2]);
      expect(ids_((await api.get('/api/bugs?q=crash', tester2.token)).body.bugs)).toEqual([]);
      expect(ids_((await api.get('/api/bugs?q=login&status=closed', admin.token)).body.bugs)).toEqual([]);
    });

    it('answers 401 without a token', async () => {
      expect((await api.get('/api/bugs')).status).toBe(401);
    });
  });

  describe('list endpoints', () => {
    it('all-viewable: testers see every bug, developers their assigned ones', async () => {
      const t2 = await api.get('/api/bugs/all-viewable', tester2.token);
      expect(t2.status).toBe(200);
      expect(ids_(t2.body.bugs)).toEqual([ids.b5, ids.b3, ids.b2, ids.b1]);
      expect(t2.body.statusSummary.all).toBe(4);
      const d2 = await api.get('/api/bugs/all-viewable', dev2.token);
      expect(ids_(d2.body.bugs)).toEqual([ids.b5, ids.b3, ids.b2]);
      expect(d2.body.statusSummary).toMatchObject({ all: 3, open: 1, inProgress: 1, closed: 1 });
      const a = await api.get('/api/bugs/all-viewable?limit=3', admin.token);
      expect(ids_(a.body.bugs)).toEqual([ids.b5, ids.b3, ids.b2]);
      expect(a.body.nextCursor).toEqual(expect.any(String));
    });

    it("all-viewable gives a tester others' bugs as list rows only; their own in full", async () => {
      const answer = await api.get('/api/bugs/all-viewable', tester2.token);
      allViewableSchema.parse(answer.body);
      const others = answer.body.bugs.filter((b: { _id: string }) => b._id !== ids.b3);
      expect(others.length).toBe(3);
      for (const row of others) {
        expect(Object.keys(row).sort()).toEqual(
          [
            '_id',
            'title',
            'status',
            'priority',
            'severity',
            'module',
            'createdAt',
            'dueDate',
            'createdBy',
            'assignedTo',
            'number',
          ].sort(),
        );
        for (const user of [row.createdBy, ...row.assignedTo])
          expect(Object.keys(user).sort()).toEqual(['_id', 'name']);
      }
      const crash = others.find((b: { _id: string }) => b._id === ids.b1);
      expect(crash).toMatchObject({
        title: 'Login button crashes the app',
        createdBy: { _id: tester1.id, name: 'Tess One' },
      });
      const own = answer.body.bugs.find((b: { _id: string }) => b._id === ids.b3);
      expect(own.description).toBe('The footer says Bugtrial instead of Bugtrail');
      // The reporter and the admin still get the full bug in the same list.
      const full = await api.get('/api/bugs/all-viewable', tester1.token);
      expect(full.body.bugs.find((b: { _id: string }) => b._id === ids.b1).attachments).toEqual([
        'https://example.com/crash.png',
      ]);
      const byAdmin = await api.get('/api/bugs/all-viewable', admin.token);
      expect(byAdmin.body.bugs.every((b: { description?: string }) => typeof b.description === 'string')).toBe(true);
    });

    it("a tester's search cannot read others' descriptions: it matches their titles only", async () => {
      const search = (q: string, user: TestUser) =>
        api.get(`/api/bugs/all-viewable?q=${encodeURIComponent(q)}`, user.token).then((a) => ids_(a.body.bugs));
      expect(await search('ten seconds', tester2)).toEqual([]);
      expect(await search('ten seconds', tester1)).toEqual([ids.b2]);
      expect(await search('profile slow', tester2)).toEqual([ids.b2]);
      expect(await search('Bugtrial', tester2)).toEqual([ids.b3]);
    });

    it('assigned: a bare array of the caller’s assigned bugs; testers 403', async () => {
      const d1 = await api.get('/api/bugs/assigned', dev1.token);
      expect(d1.status).toBe(200);
      expect(Array.isArray(d1.body)).toBe(true);
      expect(ids_(d1.body)).toEqual([ids.b2, ids.b1]);
      expect(ids_((await api.get('/api/bugs/assigned?status=in%20progress', dev1.token)).body)).toEqual([ids.b2]);
      const page = await api.get('/api/bugs/assigned?limit=1', dev1.token);
      expect(ids_(page.body)).toEqual([ids.b2]);
      expect(page.headers.get('x-next-cursor')).toEqual(expect.any(String));
      expect((await api.get('/api/bugs/assigned', tester1.token)).status).toBe(403);
      expect((await api.get('/api/bugs/assigned', admin.token)).body).toEqual([]);
    });

    it('user/{id}: admin anyone’s, tester own only, developer never', async () => {
      const a = await api.get(`/api/bugs/user/${tester1.id}`, admin.token);
      expect(a.status).toBe(200);
      expect(ids_(a.body)).toEqual([ids.b5, ids.b2, ids.b1]);
      const own = await api.get(`/api/bugs/user/${tester2.id}`, tester2.token);
      expect(ids_(own.body)).toEqual([ids.b3]);
      expect((await api.get(`/api/bugs/user/${tester1.id}`, tester2.token)).status).toBe(403);
      expect((await api.get(`/api/bugs/user/${dev1.id}`, dev1.token)).status).toBe(403);
      expect((await api.get(`/api/bugs/user/${randomUUID()}`, admin.token)).status).toBe(404);
    });
  });

  describe('GET /api/bugs/{id}', () => {
    it('answers the DTO with names, checklist and attachments', async () => {
      const answer = await api.get(`/api/bugs/${ids.b1}`, tester1.token);
      expect(answer.status).toBe(200);
      const bug = bugDtoSchema.parse(answer.body);
      expect(bug).toMatchObject({
        _id: ids.b1,
        title: 'Login button crashes the app',
        status: 'Open',
        priority: 'High',
        severity: 'Critical',
        module: 'auth',
        createdBy: { _id: tester1.id, name: 'Tess One' },
        assignedTo: [{ _id: dev1.id, name: 'Dev Uno', profileImageURL: null, profileImageUrl: null }],
        attachments: ['https://example.com/crash.png'],
        createdAt: at(0),
      });
      expect(bug.checklist.map((i) => i.text)).toEqual(['Open the login page', 'Press login twice']);
      expect(bug.version).toBe(4);
    });

    it('403 for a tester on another’s bug and a developer on an unassigned one; 404 unknown or deleted', async () => {
      const other = await api.get(`/api/bugs/${ids.b1}`, tester2.token);
      expect(other).toMatchObject({ status: 403, body: { message: "You don't have permission to view this bug" } });
      expect((await api.get(`/api/bugs/${ids.b1}`, dev2.token)).status).toBe(403);
      expect((await api.get(`/api/bugs/${ids.b1}`, dev1.token)).status).toBe(200);
      expect((await api.get(`/api/bugs/${ids.b3}`, admin.token)).status).toBe(200);
      expect((await api.get(`/api/bugs/${ids.b4}`, admin.token)).status).toBe(404);
      expect((await api.get(`/api/bugs/${ids.b4}`, tester2.token)).status).toBe(404);
      const unknown = await api.get(`/api/bugs/${randomUUID()}`, admin.token);
      expect(unknown).toMatchObject({ status: 404, body: { message: 'Bug not found' } });
    });
  });

  describe('dashboards', () => {
    it('answer the api.md shape per role; the wrong role is 403', async () => {
      const a = await api.get('/api/bugs/admin-dashboard', admin.token);
      expect(a.status).toBe(200);
      const d = dashboardSchema.parse(a.body);
      expect(d.statistics).toMatchObject({ totalBugs: 4, openBugs: 2, inProgressBugs: 1, closedBugs: 1 });
      expect(d.charts.bugDistribution).toEqual({ Open: 2, InProgress: 1, 'In Progress': 1, Closed: 1, All: 4 });
      expect(d.charts.bugSeverityLevels).toEqual({ High: 1, Medium: 1, Low: 2 });
      expect(d.charts.bugPriorityLevels).toEqual({ High: 2, Medium: 1, Low: 1 });
      expect(ids_(d.recentBugs)).toEqual([ids.b5, ids.b3, ids.b2, ids.b1]);
      expect(a.body).not.toHaveProperty('stats');

      const tt = await api.get('/api/bugs/tester-dashboard', tester1.token);
      expect(tt.body.stats).toEqual(tt.body.statistics);
      expect(tt.body.statistics).toMatchObject({ totalBugs: 3, openBugs: 2, inProgressBugs: 1, closedBugs: 0 });
      const dd = await api.get('/api/bugs/developer-dashboard', dev2.token);
      expect(dd.body.statistics).toMatchObject({ totalBugs: 3, openBugs: 1, inProgressBugs: 1, closedBugs: 1 });
      expect(dd.body.charts.bugPriorityLevels).toEqual({ High: 1, Medium: 1, Low: 1 });

      for (const [path, token] of [
        ['/api/bugs/admin-dashboard', tester1.token],
        ['/api/bugs/admin-dashboard', dev1.token],
        ['/api/bugs/tester-dashboard', admin.token],
        ['/api/bugs/tester-dashboard', dev1.token],
        ['/api/bugs/developer-dashboard', tester1.token],
        ['/api/bugs/developer-dashboard', admin.token],
      ] as const) {
        expect((await api.get(path, token)).status, path).toBe(403);
      }
    });
  });

  describe('GET /api/users', () => {
    it('gives admins every user with task counters; developers list for admin and tester', async () => {
      const users = await api.get('/api/users', admin.token);
      const byId = new Map(users.body.map((u: { _id: string }) => [u._id, u]));
      expect(byId.get(dev1.id)).toMatchObject({
        pendingTasks: 1,
        inProgressTasks: 1,
        completedTasks: 0,
        assignedBugs: 2,
        createdBugs: 0,
      });
      expect(byId.get(dev2.id)).toMatchObject({
        pendingTasks: 1,
        inProgressTasks: 1,
        completedTasks: 1,
        assignedBugs: 3,
      });
      expect(byId.get(tester1.id)).toMatchObject({ createdBugs: 3, assignedBugs: 0 });
      expect(byId.get(tester2.id)).toMatchObject({ createdBugs: 1 });
      const directory = await api.get('/api/users', tester1.token);
      expect(directory.body[0]).not.toHaveProperty('pendingTasks');

      const devs = await api.get('/api/users/developers', tester1.token);
      expect(devs.status).toBe(200);
      expect(devs.body).toEqual([
        { _id: dev2.id, name: 'Dev Dos', email: dev2.email, profileImageURL: null, profileImageUrl: null },
        { _id: dev1.id, name: 'Dev Uno', email: dev1.email, profileImageURL: null, profileImageUrl: null },
      ]);
      expect((await api.get('/api/users/developers', admin.token)).status).toBe(200);
      expect((await api.get('/api/users/developers', dev1.token)).status).toBe(403);
    });
  });

  describe('history', () => {
    it('lists every event in order with actor, time and what changed', async () => {
      const answer = await api.get(`/api/bugs/${ids.b2}/history`, admin.token);
      expect(answer.status).toBe(200);
      const h = historySchema.parse(answer.body);
      expect(h.events.map((e) => e.type)).toEqual(['BugReported', 'DevelopersAssigned', 'BugStatusChanged']);
      expect(h.events[0]).toMatchObject({ actor: { _id: tester1.id, name: 'Tess One' }, at: at(10), revision: 0 });
      expect(h.events[2]!.actor).toEqual({ _id: dev1.id, name: 'Dev Uno' });
      expect(h.events[2]!.changes).toEqual([{ field: 'status', from: 'Open', to: 'In Progress' }]);
      expect(h.events[1]!.changes[0]).toMatchObject({ field: 'assignedTo', from: [] });
      // Reporter may read it; an unassigned developer may not.
      expect((await api.get(`/api/bugs/${ids.b2}/history`, tester1.token)).status).toBe(200);
      expect((await api.get(`/api/bugs/${ids.b3}/history`, dev1.token)).status).toBe(403);
    });

    it('?at answers the bug as it was then', async () => {
      const before = await api.get(`/api/bugs/${ids.b2}/history?at=${encodeURIComponent(at(10.5))}`, admin.token);
      expect(before.status).toBe(200);
      expect(before.body).toMatchObject({ _id: ids.b2, status: 'Open', version: 1 });
      expect(before.body.assignedTo.map((u: { name: string }) => u.name)).toEqual(['Dev Uno', 'Dev Dos']);
      const after = await api.get(`/api/bugs/${ids.b2}/history?at=${encodeURIComponent(at(12))}`, admin.token);
      expect(after.body).toMatchObject({ status: 'In Progress', version: 2 });
      expect((await api.get(`/api/bugs/${ids.b2}/history?at=${encodeURIComponent(at(5))}`, admin.token)).status).toBe(
        404,
      );
      expect((await api.get(`/api/bugs/${ids.b2}/history?at=yesterday`, admin.token)).status).toBe(400);
    });

    it('deleted bugs: admins read the history, others get 404', async () => {
      const a = await api.get(`/api/bugs/${ids.b4}/history`, admin.token);
      expect(a.status).toBe(200);
      expect(a.body.events.at(-1)).toMatchObject({ type: 'BugDeleted', changes: [{ field: 'deleted', to: true }] });
      const then = await api.get(`/api/bugs/${ids.b4}/history?at=${encodeURIComponent(at(32))}`, admin.token);
      expect(then.body).toMatchObject({ _id: ids.b4, deleted: true });
      expect((await api.get(`/api/bugs/${ids.b4}/history`, tester2.token)).status).toBe(404);
      expect((await api.get(`/api/bugs/${randomUUID()}/history`, admin.token)).status).toBe(404);
    });
  });

  describe('after new events', () => {
    it('dashboards, lists, counters and names move', async () => {
      const before = (await api.get('/api/bugs/admin-dashboard', admin.token)).body;
      await appendAndSettle(t, `bug-${ids.b1}`, [
        statusChanged(ids.b1, 'Open', 'Closed', { actorId: dev1.id, at: at(50) }),
        event(
          'ChecklistItemCompleted',
          { bugId: ids.b1, itemId: checklistItemId, by: dev1.id, at: at(50) },
          { actorId: dev1.id, at: at(50) },
        ),
      ]);
      const after = (await api.get('/api/bugs/admin-dashboard', admin.token)).body;
      expect(after.statistics.openBugs).toBe(before.statistics.openBugs - 1);
      expect(after.statistics.closedBugs).toBe(before.statistics.closedBugs + 1);
      expect(after.statistics.totalBugs).toBe(before.statistics.totalBugs);
      const dev = (await api.get('/api/bugs/developer-dashboard', dev1.token)).body;
      expect(dev.statistics).toMatchObject({ totalBugs: 2, openBugs: 0, inProgressBugs: 1, closedBugs: 1 });
      expect(ids_((await api.get('/api/bugs?status=resolved', admin.token)).body.bugs)).toEqual([ids.b3, ids.b1]);

      // Unassigning a developer moves their counters; deleting a bug leaves every count.
      await appendAndSettle(t, `bug-${ids.b2}`, [
        event('DevelopersUnassigned', { bugId: ids.b2, developerIds: [dev1.id] }, { actorId: admin.id, at: at(51) }),
      ]);
      expect(ids_((await api.get('/api/bugs/assigned', dev1.token)).body)).toEqual([ids.b1]);
      await appendAndSettle(t, `bug-${ids.b5}`, [
        event('BugDeleted', { bugId: ids.b5 }, { actorId: admin.id, at: at(52) }),
      ]);
      const final = (await api.get('/api/bugs/admin-dashboard', admin.token)).body;
      expect(final.statistics).toMatchObject({ totalBugs: 3, openBugs: 0, inProgressBugs: 1, closedBugs: 2 });
      expect(final.charts.bugPriorityLevels).toEqual({ High: 1, Medium: 1, Low: 1 });
      const team = (await api.get('/api/users', admin.token)).body as { _id: string; assignedBugs: number }[];
      expect(team.find((u) => u._id === dev1.id)).toMatchObject({ assignedBugs: 1, completedTasks: 1 });
      expect(team.find((u) => u._id === dev2.id)).toMatchObject({ assignedBugs: 2, pendingTasks: 0 });

      // A new name shows everywhere the person appears, completedBy included.
      await appendAndSettle(t, `user-${dev1.id}`, [
        event('ProfileUpdated', { userId: dev1.id, name: 'Dev Renamed' }, { actorId: dev1.id, at: at(53) }),
      ]);
      const bug = (await api.get(`/api/bugs/${ids.b1}`, admin.token)).body;
      expect(bug.assignedTo[0].name).toBe('Dev Renamed');
      expect(bug.checklist[0]).toMatchObject({ completed: true, completedBy: { _id: dev1.id, name: 'Dev Renamed' } });
      expect(bug.status).toBe('Closed');
    });
  });
});
