import { eventually, http, registerUser, type TestUser } from '@bugtrail/testing';
import { startTestSystem, type TestSystem } from '@bugtrail/testing/system';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Issue 35, `project` beyond the bug lists (api.md "Projects"): dashboards (now and as of a
 * date) and metrics take it, metrics group by project, an import goes into a chosen project,
 * and the analytics views name each bug's project and key. Real servers, real PostgreSQL.
 */
describe('projects in dashboards, metrics, imports and analytics', () => {
  let t: TestSystem;
  let api: ReturnType<typeof http>;
  let admin: TestUser;
  let tester: TestUser;
  let developer: TestUser;
  let shop: { _id: string; key: string };

  const report = (title: string, extra: Record<string, unknown> = {}) =>
    api.post(
      '/api/bugs',
      { title, description: `${title}, every time`, severity: 'Major', assignedTo: [developer.id], ...extra },
      tester.token,
    );

  beforeAll(async () => {
    t = await startTestSystem();
    api = http(t.url);
    admin = await registerUser(t.url, 'admin', 'Ada Admin');
    tester = await registerUser(t.url, 'tester', 'Tess Tester');
    developer = await registerUser(t.url, 'developer', 'Dan Dev');
    shop = (await api.post('/api/projects', { key: 'SHOP', name: 'Shop' }, admin.token)).body;
    for (const title of ['Basket forgets coupons', 'Prices round wrongly']) {
      expect((await report(title, { projectId: 'SHOP' })).status).toBe(201);
    }
    const general = await report('Login page is slow');
    expect(general.status).toBe(201);
    expect(
      (await api.put(`/api/bugs/${general.body.bug._id}/status`, { status: 'Closed' }, developer.token)).status,
    ).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('dashboards count one project’s bugs with `project`, by key or id, now and as of a date', async () => {
    const all = await api.get('/api/bugs/admin-dashboard', admin.token);
    expect(all.body.statistics.totalBugs).toBe(3);
    for (const project of ['SHOP', 'shop', shop._id]) {
      const one = await api.get(`/api/bugs/admin-dashboard?project=${project}`, admin.token);
      expect(one.status, JSON.stringify(one.body)).toBe(200);
      expect(one.body.statistics).toMatchObject({ totalBugs: 2, openBugs: 2, closedBugs: 0 });
      expect(one.body.recentBugs.every((b: { key: string }) => b.key.startsWith('SHOP-'))).toBe(true);
    }
    const mine = await api.get('/api/bugs/tester-dashboard?project=BUG', tester.token);
    expect(mine.body.statistics).toMatchObject({ totalBugs: 1, closedBugs: 1 });
    const then = await api.get(
      `/api/bugs/admin-dashboard?project=SHOP&asOf=${encodeURIComponent(new Date().toISOString())}`,
      admin.token,
    );
    expect(then.body.statistics.totalBugs).toBe(2);
    const nowhere = await api.get('/api/bugs/admin-dashboard?project=NOPE', admin.token);
    expect(nowhere.body.statistics.totalBugs).toBe(0);
  });

  it('metrics take `project` and group by project', async () => {
    const grouped = await api.get('/api/metrics?groupBy=project', admin.token);
    expect(grouped.status, JSON.stringify(grouped.body)).toBe(200);
    const counts = Object.fromEntries(grouped.body.groups.map((g: { key: string; count: number }) => [g.key, g.count]));
    expect(counts[shop._id]).toBe(2);
    expect(Object.values(counts).reduce((a: number, b) => a + (b as number), 0)).toBe(3);
    const one = await api.get('/api/metrics?project=SHOP', admin.token);
    expect(one.body.openAge.count).toBe(2);
    expect(one.body.cycleTime.count).toBe(0);
    const flow = await api.get('/api/metrics/flow?project=SHOP', admin.token);
    expect(flow.body.points.at(-1)).toMatchObject({ Open: 2, Closed: 0 });
  });

  it('imports into the project named by `project`; an unknown one is 404 before the file is read', async () => {
    const csv =
      '#,Tracker,Status,Priority,Subject,Author,Assignee,Created,Updated,Closed,Description\r\n' +
      '7,Bug,New,Low,Checkout button hides on mobile,Tess Tester,Dan Dev,2021-01-10 10:00,,,From Redmine\r\n';
    const send = (query: string) =>
      fetch(`${t.url}/api/import?${query}`, {
        method: 'POST',
        headers: { 'content-type': 'text/csv', authorization: `Bearer ${admin.token}` },
        body: csv,
      });
    expect((await send('from=redmine&project=NOPE')).status).toBe(404);
    const imported = await send('from=redmine&project=SHOP');
    expect(imported.status).toBe(200);
    const found = await eventually(async () => {
      const answer = await api.get('/api/bugs?q=Checkout button hides', admin.token);
      return answer.body.bugs.length > 0 ? answer.body.bugs[0] : null;
    });
    expect(found.key).toBe('SHOP-3');
    expect(found.project).toMatchObject({ _id: shop._id, key: 'SHOP' });
  });

  it('the analytics views name each bug’s project and key', async () => {
    const { rows } = await t.system.pool.query<{ title: string; project_key: string; key: string }>(
      'select title, project_key, key from analytics.bugs order by number',
    );
    expect(rows.map((r) => [r.project_key, r.key])).toEqual([
      ['SHOP', 'SHOP-1'],
      ['SHOP', 'SHOP-2'],
      ['BUG', expect.stringMatching(/^BUG-\d+$/)],
      ['SHOP', 'SHOP-3'],
    ]);
  });
});
