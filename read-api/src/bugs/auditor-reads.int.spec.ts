import { http, registerAuditor, registerUser, SseReader, type TestUser } from '@bugtrail/testing';
import { startTestSystem, type TestSystem } from '@bugtrail/testing/system';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * api.md "The auditor role": an auditor reads everything an admin reads. Each read
 * below is asked by both; the answers must be the same, deleted bugs' histories included.
 */
describe('an auditor reads what an admin reads', () => {
  let t: TestSystem;
  let api: ReturnType<typeof http>;
  let admin: TestUser;
  let tester: TestUser;
  let developer: TestUser;
  let auditor: TestUser;
  const bugs = { reportedByTester: '', reportedByAdmin: '', deleted: '' };
  const future = () => new Date(Date.now() + 7 * 86_400_000).toISOString();

  const report = async (by: TestUser, title: string, assignedTo: string[]) => {
    const answer = await api.post(
      '/api/bugs',
      {
        title,
        description: `${title}: steps and what happens.`,
        priority: 'High',
        severity: 'Major',
        dueDate: future(),
        assignedTo,
        checklist: ['Reproduce it'],
      },
      by.token,
    );
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    return answer.body.bug._id as string;
  };

  beforeAll(async () => {
    t = await startTestSystem();
    api = http(t.url);
    admin = await registerUser(t.url, 'admin');
    tester = await registerUser(t.url, 'tester');
    developer = await registerUser(t.url, 'developer');
    auditor = await registerAuditor(t.url, admin.token);
    bugs.reportedByTester = await report(tester, 'Login button unresponsive', [developer.id]);
    bugs.reportedByAdmin = await report(admin, 'Export drops the last row', [developer.id]);
    bugs.deleted = await report(tester, 'Duplicate of the login bug', [developer.id]);
    expect(
      (await api.put(`/api/bugs/${bugs.reportedByTester}/status`, { status: 'In Progress' }, developer.token)).status,
    ).toBe(200);
    expect((await api.delete(`/api/bugs/${bugs.deleted}`, admin.token)).status).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
  });

  const sameAsAdmin = [
    () => '/api/bugs',
    () => '/api/bugs?status=Pending',
    () => '/api/bugs?q=login',
    () => '/api/bugs/all-viewable',
    () => '/api/bugs/assigned',
    () => `/api/bugs/user/${tester.id}`,
    () => '/api/bugs/admin-dashboard',
    () => `/api/bugs/${bugs.reportedByTester}`,
    () => `/api/bugs/${bugs.reportedByAdmin}`,
    () => `/api/bugs/${bugs.reportedByTester}/history`,
    () => `/api/bugs/${bugs.deleted}/history`,
    () => `/api/bugs/${bugs.reportedByTester}/history?at=${encodeURIComponent(new Date().toISOString())}`,
    () => '/api/users',
    () => `/api/users/${tester.id}`,
    () => '/api/users/developers',
  ];

  it('list, detail, dashboard, history and user answers are the admin’s, with the same status', async () => {
    for (const pathOf of sameAsAdmin) {
      const path = pathOf();
      const [asAdmin, asAuditor] = await Promise.all([api.get(path, admin.token), api.get(path, auditor.token)]);
      expect(asAdmin.status, `${path} as admin: ${JSON.stringify(asAdmin.body)}`).toBe(200);
      expect(asAuditor.status, `${path} as auditor: ${JSON.stringify(asAuditor.body)}`).toBe(200);
      expect(asAuditor.body, path).toEqual(asAdmin.body);
    }
  });

  it('sees every bug in full (description and checklist), the team counters and everyone’s email', async () => {
    const list = await api.get('/api/bugs/all-viewable', auditor.token);
    const ids = list.body.bugs.map((b: { _id: string }) => b._id);
    expect(ids).toEqual(expect.arrayContaining([bugs.reportedByTester, bugs.reportedByAdmin]));
    expect(ids).not.toContain(bugs.deleted);
    for (const bug of list.body.bugs) expect(bug).toHaveProperty('description');
    expect(list.body.statusSummary.all).toBe(2);

    const team = await api.get('/api/users', auditor.token);
    const dev = team.body.find((u: { _id: string }) => u._id === developer.id);
    expect(dev).toMatchObject({ email: developer.email, assignedBugs: 2, inProgressTasks: 1 });
    expect(team.body.find((u: { _id: string }) => u._id === auditor.id)?.role).toBe('auditor');

    const dashboard = await api.get('/api/bugs/admin-dashboard', auditor.token);
    expect(dashboard.body.statistics.totalBugs).toBe(2);
    expect(dashboard.body.recentBugs).toHaveLength(2);
  });

  it('reads a deleted bug’s history, like an admin; the deleted bug itself is gone for both', async () => {
    const history = await api.get(`/api/bugs/${bugs.deleted}/history`, auditor.token);
    expect(history.status).toBe(200);
    expect(JSON.stringify(history.body)).toContain('BugDeleted');
    for (const user of [admin, auditor])
      expect((await api.get(`/api/bugs/${bugs.deleted}`, user.token)).status).toBe(404);
    // A tester who reported it does not read it any more.
    expect((await api.get(`/api/bugs/${bugs.deleted}/history`, tester.token)).status).toBe(404);
  });

  it('downloads both exports', async () => {
    for (const path of ['/api/reports/export/bugs', '/api/reports/export/users']) {
      const [asAdmin, asAuditor] = await Promise.all([
        fetch(t.url + path, { headers: { authorization: `Bearer ${admin.token}` } }),
        fetch(t.url + path, { headers: { authorization: `Bearer ${auditor.token}` } }),
      ]);
      expect(asAuditor.status, path).toBe(200);
      expect(asAuditor.headers.get('content-type')).toBe(asAdmin.headers.get('content-type'));
      expect(asAuditor.headers.get('content-disposition')).toBe(asAdmin.headers.get('content-disposition'));
      const [a, b] = await Promise.all([asAdmin.arrayBuffer(), asAuditor.arrayBuffer()]);
      expect(b.byteLength).toBeGreaterThan(0);
      expect(Math.abs(a.byteLength - b.byteLength)).toBeLessThan(64);
    }
  });

  it('is refused what an admin is refused: the other roles’ dashboards', async () => {
    for (const path of ['/api/bugs/tester-dashboard', '/api/bugs/developer-dashboard']) {
      expect((await api.get(path, admin.token)).status).toBe(403);
      expect((await api.get(path, auditor.token)).status).toBe(403);
    }
  });

  it('hears every bug’s live topic, as an admin does', async () => {
    const [asAdmin, asAuditor] = await Promise.all([
      SseReader.open(t.url, admin.token),
      SseReader.open(t.url, auditor.token),
    ]);
    try {
      const bugId = await report(tester, 'A bug the auditor is not part of', [developer.id]);
      const heard = (reader: SseReader) => reader.waitFor((m) => m.topics.includes(`bug:${bugId}`));
      await Promise.all([heard(asAdmin), heard(asAuditor)]);
    } finally {
      asAdmin.close();
      asAuditor.close();
    }
  });
});
