import { randomUUID } from 'node:crypto';
import { streams } from '@bugtrail/domain';
import { http, registerUser, type TestUser } from '@bugtrail/testing';
import { appendAndSettle, startTestSystem, type TestSystem } from '@bugtrail/testing/system';
import { BugNumbers } from '@bugtrail/write-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportBug } from '../../../cli/src/demo/bug-events.js';

/**
 * Bug numbers (api.md "Bug numbers") and lists people can work in: filters, sorts,
 * keyset cursors per order and the total, over real HTTP on real PostgreSQL. Bugs are
 * reported through write-api, so their numbers come from where production's do.
 */
describe('bug numbers and working lists', () => {
  let t: TestSystem;
  let api: ReturnType<typeof http>;
  let admin: TestUser;
  let tess: TestUser;
  let tom: TestUser;
  let lee: TestUser;
  let kim: TestUser;
  const bugs: { _id: string; number: number; title: string }[] = [];
  const today = new Date();
  const day = (offset: number) =>
    new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() + offset)).toISOString();

  const titles = (body: { bugs: { title: string }[] }) => body.bugs.map((b) => b.title);
  const report = async (user: TestUser, body: Record<string, unknown>) => {
    const res = await api.post(
      '/api/bugs',
      { description: 'Steps to see it happen', assignedTo: [kim.id], ...body },
      user.token,
    );
    expect(res.status).toBe(201);
    bugs.push(res.body.bug);
    return res.body.bug as { _id: string; number: number; title: string };
  };

  beforeAll(async () => {
    t = await startTestSystem();
    api = http(t.url);
    admin = await registerUser(t.url, 'admin', 'Ada Admin');
    tess = await registerUser(t.url, 'tester', 'Tess Tester');
    tom = await registerUser(t.url, 'tester', 'Tom Tester');
    lee = await registerUser(t.url, 'developer', 'Lee Developer');
    kim = await registerUser(t.url, 'developer', 'Kim Developer');
    await report(tess, { title: 'Alpha crash on login', priority: 'High', severity: 'Critical', assignedTo: [lee.id] });
    await report(tess, { title: 'Beta typo', priority: 'Low', severity: 'Minor', module: 'Docs' });
    await report(tom, { title: 'Gamma slow page', priority: 'Medium', severity: 'Major', assignedTo: [kim.id] });
    await report(admin, {
      title: 'Delta due soon',
      priority: 'High',
      severity: 'Critical',
      assignedTo: [lee.id, kim.id],
      dueDate: day(2),
    });
    await report(tom, { title: 'Epsilon due today', priority: 'High', severity: 'Minor', dueDate: day(0) });
  });
  afterAll(() => t?.close());

  describe('numbers', () => {
    it('numbers bugs 1, 2, 3, … in report order, in the report answer and every read', async () => {
      expect(bugs.map((b) => b.number)).toEqual([1, 2, 3, 4, 5]);
      const detail = await api.get(`/api/bugs/${bugs[2]!._id}`, admin.token);
      expect(detail.body.number).toBe(3);
      const list = await api.get('/api/bugs', admin.token);
      expect(list.body.bugs.map((b: { number: number }) => b.number)).toEqual([5, 4, 3, 2, 1]);
      // A tester's rows of others' bugs carry the number too.
      const rows = await api.get('/api/bugs/all-viewable', tess.token);
      const tomsRow = rows.body.bugs.find((b: { _id: string }) => b._id === bugs[2]!._id);
      expect(tomsRow).toMatchObject({ number: 3 });
      expect(tomsRow).not.toHaveProperty('description');
    });

    it('answers a bug by its number with the permissions of its id', async () => {
      const own = await api.get('/api/bugs/by-number/1', tess.token);
      expect(own.status).toBe(200);
      expect(own.body).toMatchObject({ _id: bugs[0]!._id, number: 1, title: 'Alpha crash on login' });
      expect((await api.get('/api/bugs/by-number/3', tess.token)).status).toBe(403);
      expect((await api.get('/api/bugs/by-number/1', lee.token)).status).toBe(200);
      expect((await api.get('/api/bugs/by-number/2', lee.token)).status).toBe(403);
      for (const n of ['999', '0', 'abc', '-1', '1e3', '99999999999']) {
        const res = await api.get(`/api/bugs/by-number/${n}`, admin.token);
        expect(res.status, n).toBe(404);
        expect(res.body.message).toBe('Bug not found');
      }
      expect((await api.get('/api/bugs/by-number/1')).status).toBe(401);
    });

    it('finds a bug by #number in a search, within what the caller may list', async () => {
      const found = await api.get('/api/bugs?q=%233', admin.token);
      expect(found.body.bugs.map((b: { number: number }) => b.number)).toEqual([3]);
      expect((await api.get('/api/bugs?q=%233', tess.token)).body.bugs).toEqual([]);
      expect((await api.get('/api/bugs/all-viewable?q=%233', tess.token)).body.bugs).toHaveLength(1);
    });

    it('never reuses a number: a deleted bug keeps its own, the next report takes a new one', async () => {
      const doomed = await report(tom, { title: 'Zeta to delete' });
      expect((await api.delete(`/api/bugs/${doomed._id}`, tom.token)).status).toBe(200);
      expect((await api.get(`/api/bugs/by-number/${doomed.number}`, admin.token)).status).toBe(404);
      const next = await report(tom, { title: 'Eta after the delete' });
      expect(next.number).toBe(doomed.number + 1);
      bugs.splice(bugs.indexOf(doomed), 1);
    });

    it('leaves no gap for a refused report, and a retried report keeps its number', async () => {
      const before = bugs[bugs.length - 1]!.number;
      const refused = await api.post('/api/bugs', { title: '', description: '' }, tess.token);
      expect(refused.status).toBe(400);
      const key = randomUUID();
      const first = await api.post(
        '/api/bugs',
        { title: 'Theta retried', description: 'Sent twice', assignedTo: [kim.id] },
        tess.token,
        { 'idempotency-key': key },
      );
      const again = await api.post(
        '/api/bugs',
        { title: 'Theta retried', description: 'Sent twice', assignedTo: [kim.id] },
        tess.token,
        { 'idempotency-key': key },
      );
      expect(first.body.bug.number).toBe(before + 1);
      expect(again.body.bug).toMatchObject({ _id: first.body.bug._id, number: before + 1 });
      bugs.push(first.body.bug);
    });

    it('gives bugs reported before numbers theirs once, in report order, after which new ones count on', async () => {
      const old = [randomUUID(), randomUUID()];
      for (const [i, bugId] of old.entries()) {
        await appendAndSettle(
          t,
          streams.bug(bugId),
          reportBug(
            { bugId, reporterId: tess.id, title: `Legacy ${i}`, description: 'From before numbers', assigneeIds: [] },
            { at: new Date().toISOString() },
          ),
          'no_stream',
        );
      }
      expect((await api.get(`/api/bugs/${old[0]}`, admin.token)).body.number).toBeNull();
      const unassigned = await api.get('/api/bugs?assignee=none', admin.token);
      expect(titles(unassigned.body).sort()).toEqual(['Legacy 0', 'Legacy 1']);
      // As if this database came from before numbers: the backfill has not run on it.
      await t.system.pool.query('delete from write_api.bug_number_backfill');
      const numbers = new BugNumbers(t.system.pool);
      expect(await numbers.backfill(t.system.store, t.system.commands)).toBe(2);
      const last = bugs[bugs.length - 1]!.number;
      const events = await t.system.store.readStream(streams.bug(old[1]!));
      await t.system.changeFeed.waitFor(events[events.length - 1]!.position, 10_000);
      const a = await api.get(`/api/bugs/${old[0]}`, admin.token);
      const b = await api.get(`/api/bugs/${old[1]}`, admin.token);
      expect([a.body.number, b.body.number]).toEqual([last + 1, last + 2]);
      expect(events.map((e) => e.type)).toContain('BugNumbered');
      // Once: a second run numbers nothing and appends nothing.
      expect(await numbers.backfill(t.system.store, t.system.commands)).toBe(0);
      for (const id of old) expect((await api.delete(`/api/bugs/${id}`, admin.token)).status).toBe(200);
    });
  });

  describe('filters, sorts and paging', () => {
    it('filters by priority, severity, assignee, reporter, module and status, several values at once', async () => {
      const high = await api.get('/api/bugs?priority=High&sort=number', admin.token);
      expect(titles(high.body)).toEqual(['Alpha crash on login', 'Delta due soon', 'Epsilon due today']);
      const two = await api.get('/api/bugs?severity=critical,major&sort=number', admin.token);
      expect(titles(two.body)).toEqual(['Alpha crash on login', 'Gamma slow page', 'Delta due soon']);
      const lees = await api.get(`/api/bugs?assignee=${lee.id}&sort=number`, admin.token);
      expect(titles(lees.body)).toEqual(['Alpha crash on login', 'Delta due soon']);
      expect(titles((await api.get('/api/bugs?assignee=none', admin.token)).body)).toEqual([]);
      const toms = await api.get(`/api/bugs?reporter=${tom.id}&sort=number`, admin.token);
      expect(titles(toms.body)).toEqual(['Gamma slow page', 'Epsilon due today', 'Eta after the delete']);
      expect(titles((await api.get('/api/bugs?module=docs', admin.token)).body)).toEqual(['Beta typo']);
      await api.put(`/api/bugs/${bugs[0]!._id}/status`, { status: 'Closed' }, lee.token);
      const statuses = await api.get('/api/bugs?status=Closed,In%20Progress&sort=number', admin.token);
      expect(titles(statuses.body)).toEqual(['Alpha crash on login']);
      // Filters narrow the caller's scope, never widen it.
      const devView = await api.get(`/api/bugs?assignee=${kim.id}`, lee.token);
      expect(titles(devView.body)).toEqual(['Delta due soon']);
    });

    it('takes several values per filter, the parameter repeated or comma-separated (issue 40)', async () => {
      type Row = {
        title: string;
        status: string;
        priority: string;
        severity: string;
        module: string | null;
        createdBy: { _id: string };
        assignedTo: { _id: string }[];
      };
      const all = (await api.get('/api/bugs?sort=number', admin.token)).body.bugs as Row[];
      const where = (keep: (b: Row) => boolean) => all.filter(keep).map((b) => b.title);
      const list = async (query: string) => titles((await api.get(`/api/bugs?${query}&sort=number`, admin.token)).body);
      const statusOf = new Map(all.map((b) => [b.title, b.status]));
      expect(await list('status=Pending&status=Resolved')).toEqual(
        where((b) => statusOf.get(b.title) !== 'In Progress'),
      );
      expect(await list('status=Resolved&status=In%20Progress')).toEqual(
        where((b) => statusOf.get(b.title) !== 'Open'),
      );
      expect(await list('status=Open,In%20Progress')).toEqual(where((b) => statusOf.get(b.title) !== 'Closed'));
      expect(await list('priority=Low&priority=Medium')).toEqual(where((b) => b.priority !== 'High'));
      expect(await list('priority=Low,Medium&severity=Minor&severity=Critical')).toEqual(
        where((b) => b.priority !== 'High' && b.severity !== 'Major'),
      );
      const assigned = (b: Row, id: string) => b.assignedTo.some((a) => a._id === id);
      expect(await list(`assignee=${lee.id}&assignee=${kim.id}`)).toEqual(
        where((b) => assigned(b, lee.id) || assigned(b, kim.id)),
      );
      expect(await list(`assignee=${lee.id},none`)).toEqual(
        where((b) => assigned(b, lee.id) || b.assignedTo.length === 0),
      );
      expect(await list(`reporter=${tess.id}&reporter=${admin.id}`)).toEqual(
        where((b) => b.createdBy._id === tess.id || b.createdBy._id === admin.id),
      );
      expect(await list('module=DOCS&module=Nowhere')).toEqual(['Beta typo']);
      // A module's name is never split at a comma: one value is matched whole, as before.
      expect(await list('module=Docs,Nowhere')).toEqual([]);
      // The total counts every page of the several-valued list.
      const paged = await api.get(`/api/bugs?priority=Low&priority=Medium&limit=1`, admin.token);
      expect(paged.body.total).toBe(where((b) => b.priority !== 'High').length);
      expect(paged.body.total).toBeGreaterThan(1);
      expect((await api.get(`/api/bugs?priority=High&priority=Urgent`, admin.token)).status).toBe(400);
      expect((await api.get(`/api/bugs?module=Docs&module=${'m'.repeat(51)}`, admin.token)).status).toBe(400);
      // A saved view keeps a several-valued query as it was sent.
      const query = `status=Open&status=In%20Progress&priority=High,Low&module=Docs&module=Web`;
      const saved = await api.post('/api/views', { name: 'Several', path: '/admin/bugs', query }, admin.token);
      expect(saved.status).toBe(201);
      const views = await api.get('/api/views', admin.token);
      expect(views.body.find((v: { name: string }) => v.name === 'Several')?.query).toBe(query);
    });

    it('filters by due date: this week, none, and overdue (before today, not Closed)', async () => {
      const week = await api.get('/api/bugs?due=week&sort=due', admin.token);
      expect(titles(week.body)).toEqual(['Epsilon due today', 'Delta due soon']);
      const none = await api.get('/api/bugs?due=none', admin.token);
      expect(titles(none.body)).not.toContain('Delta due soon');
      expect(titles(none.body)).toContain('Beta typo');
      // An overdue bug can only come from the past: appended with its own clock.
      const late = randomUUID();
      const closedLate = randomUUID();
      for (const [bugId, title] of [
        [late, 'Iota overdue'],
        [closedLate, 'Kappa overdue but closed'],
      ] as const) {
        const events = reportBug(
          { bugId, reporterId: tess.id, title, description: 'Late', assigneeIds: [], dueDate: day(-3), number: 900 },
          { at: day(-10) },
        );
        await appendAndSettle(t, streams.bug(bugId), events, 'no_stream');
      }
      await api.put(`/api/bugs/${closedLate}/status`, { status: 'Closed' }, admin.token);
      expect(titles((await api.get('/api/bugs?due=overdue', admin.token)).body)).toEqual(['Iota overdue']);
      for (const id of [late, closedLate]) await api.delete(`/api/bugs/${id}`, admin.token);
    });

    it('sorts by every column both ways, ties broken by id', async () => {
      const order = async (sort: string) => titles((await api.get(`/api/bugs?sort=${sort}`, admin.token)).body);
      expect(await order('title')).toEqual([...(await order('title'))].sort((a, b) => a.localeCompare(b)));
      expect(await order('-title')).toEqual([...(await order('title'))].reverse());
      expect((await order('priority')).slice(-3).sort()).toEqual([
        'Alpha crash on login',
        'Delta due soon',
        'Epsilon due today',
      ]);
      expect((await order('-severity')).slice(0, 2).sort()).toEqual(['Alpha crash on login', 'Delta due soon']);
      expect((await order('status'))[(await order('status')).length - 1]).toBe('Alpha crash on login');
      expect((await order('due')).slice(0, 2)).toEqual(['Epsilon due today', 'Delta due soon']);
      expect((await order('-number'))[0]).toBe('Theta retried');
      // By the first assignee's name; the unassigned first going up.
      const byAssignee = await order('-assignees');
      expect(byAssignee.slice(0, 2).sort()).toEqual(['Alpha crash on login', 'Delta due soon']);
      expect(await order('assignees')).toEqual([...byAssignee].reverse());
    });

    it('pages any order with its own cursor and tells the total', async () => {
      const seen: string[] = [];
      let cursor: string | null = null;
      let total = -1;
      do {
        const query: string = `/api/bugs?sort=-priority&limit=2${cursor ? `&cursor=${cursor}` : ''}`;
        const page = await api.get(query, admin.token);
        expect(page.status).toBe(200);
        total = page.body.total;
        expect(page.headers.get('x-total-count')).toBe(String(total));
        seen.push(...titles(page.body));
        cursor = page.body.nextCursor;
      } while (cursor);
      const all = titles((await api.get('/api/bugs?sort=-priority', admin.token)).body);
      expect(seen).toEqual(all);
      expect(total).toBe(all.length);
      const filtered = await api.get('/api/bugs?priority=High&limit=1', admin.token);
      expect(filtered.body.total).toBe(3);
      const byStatus = await api.get('/api/bugs?status=Open&limit=1', admin.token);
      expect(byStatus.body.total).toBe(all.length - 1);
      // A cursor of one order is refused by another.
      const first = await api.get('/api/bugs?sort=title&limit=1', admin.token);
      const wrong = await api.get(`/api/bugs?sort=due&limit=1&cursor=${first.body.nextCursor}`, admin.token);
      expect(wrong.status).toBe(400);
    });

    it('refuses malformed filters with a clear 400', async () => {
      const cases: [string, string][] = [
        ['sort=height', 'sort'],
        ['priority=Urgent', 'priority'],
        ['severity=High', 'severity'],
        ['due=later', 'due'],
        ['status=Open,Maybe', 'status'],
        [`module=${'m'.repeat(51)}`, 'module'],
        ['cursor=bm90IGEgY3Vyc29y', 'cursor'],
      ];
      for (const [query, field] of cases) {
        const res = await api.get(`/api/bugs?${query}`, admin.token);
        expect(res.status, query).toBe(400);
        expect(JSON.stringify(res.body), query).toContain(field);
      }
    });
  });
});
