import { http, registerAuditor, registerUser, type TestUser } from '@bugtrail/testing';
import { startTestSystem, type TestSystem } from '@bugtrail/testing/system';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * `asOf` answers are what was answered then: each answer is recorded right after each change
 * of a history made through the API, then asked again with that moment at the end.
 */
describe('?asOf= equals what was answered at that moment', () => {
  let t: TestSystem;
  let admin: TestUser;
  let auditor: TestUser;
  let tester: TestUser;
  let dev1: TestUser;
  let dev2: TestUser;

  beforeAll(async () => {
    t = await startTestSystem();
    admin = await registerUser(t.url, 'admin');
    auditor = await registerAuditor(t.url, admin.token);
    tester = await registerUser(t.url, 'tester');
    dev1 = await registerUser(t.url, 'developer');
    dev2 = await registerUser(t.url, 'developer');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('metrics (every grouping) and every dashboard, recorded after each change', async () => {
    const api = http(t.url);
    const bugIds: string[] = [];
    const report = async (by: TestUser, severity: string, assignees: TestUser[], module: string) => {
      const answer = await api.post(
        '/api/bugs',
        {
          title: `Bug ${bugIds.length}`,
          description: 'Steps to reproduce it',
          priority: 'Medium',
          severity,
          module,
          assignedTo: assignees.map((d) => d.id),
        },
        by.token,
      );
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      bugIds.push(answer.body.bug?._id ?? answer.body._id);
    };
    const status = async (by: TestUser, i: number, to: string) => {
      const answer = await api.put(`/api/bugs/${bugIds[i]}/status`, { status: to }, by.token);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    };
    const edit = async (i: number, changes: Record<string, unknown>) => {
      const answer = await api.put(`/api/bugs/${bugIds[i]}`, changes, admin.token);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    };
    const steps: (() => Promise<void>)[] = [
      () => report(tester, 'Critical', [dev1], 'Auth'),
      () => report(tester, 'Minor', [dev2], 'Search'),
      () => status(dev1, 0, 'In Progress'),
      () => report(admin, 'Major', [dev1, dev2], 'Auth'),
      () => status(dev1, 0, 'Closed'),
      () => edit(1, { severity: 'Critical', assignedTo: [dev1.id] }),
      () => status(dev2, 2, 'Closed'),
      () => status(admin, 0, 'Open'),
      async () => {
        expect((await api.delete(`/api/bugs/${bugIds[1]}`, admin.token)).status).toBe(200);
      },
      () => status(admin, 0, 'Closed'),
      () => edit(2, { module: 'Billing' }),
    ];

    const metricQueries = ['', 'groupBy=severity', 'groupBy=priority', 'groupBy=module', 'groupBy=assignee'];
    const dashboards: [string, TestUser][] = [
      ['/api/bugs/admin-dashboard', admin],
      ['/api/bugs/admin-dashboard', auditor],
      ['/api/bugs/tester-dashboard', tester],
      ['/api/bugs/developer-dashboard', dev1],
      ['/api/bugs/developer-dashboard', dev2],
    ];
    type Recorded = { path: string; user: TestUser; asOf: string; body: unknown };
    const recorded: Recorded[] = [];
    for (const step of steps) {
      await step();
      for (const query of metricQueries) {
        const answer = await api.get(`/api/metrics?${query}`, admin.token);
        expect(answer.status).toBe(200);
        recorded.push({ path: `/api/metrics?${query}`, user: admin, asOf: answer.body.asOf, body: answer.body });
      }
      for (const [path, user] of dashboards) {
        const answer = await api.get(path, user.token);
        expect(answer.status).toBe(200);
        // Taken after the answer: nothing changed between the answer and this moment.
        recorded.push({ path, user, asOf: new Date().toISOString(), body: answer.body });
      }
      await pause(3);
    }

    expect(recorded.length).toBe(steps.length * (metricQueries.length + dashboards.length));
    for (const r of recorded) {
      const separator = r.path.includes('?') ? '&' : '?';
      const again = await api.get(`${r.path}${separator}asOf=${encodeURIComponent(r.asOf)}`, r.user.token);
      expect(again.status, r.path).toBe(200);
      expect(again.body, `${r.path} as of ${r.asOf}`).toEqual(r.body);
    }
  });
});
