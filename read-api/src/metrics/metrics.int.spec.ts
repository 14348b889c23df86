import { randomUUID } from 'node:crypto';
import type { BugStatus, Severity } from '@bugtrail/domain';
import { http, registerAuditor, registerUser, type TestUser } from '@bugtrail/testing';
import { appendAndSettle, startTestSystem, type TestSystem } from '@bugtrail/testing/system';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { event, reportBug, statusChanged } from '../../../cli/src/demo/bug-events.js';

const DAY = 86_400;
const at = (iso: string) => `${iso}T00:00:00.000Z`;

describe('GET /api/metrics: flow from status stays (hand-computed history)', () => {
  let t: TestSystem;
  let admin: TestUser;
  let auditor: TestUser;
  let tester: TestUser;
  let developer: TestUser;
  const reporter = randomUUID();
  const mover = randomUUID();
  const bugs = { a: randomUUID(), b: randomUUID(), c: randomUUID(), d: randomUUID() };

  const report = (bugId: string, day: string, severity: Severity) =>
    appendAndSettle(
      t,
      `bug-${bugId}`,
      reportBug(
        { bugId, reporterId: reporter, title: `Bug ${day}`, description: 'd', severity, assigneeIds: [] },
        { at: at(day) },
      ),
    );
  const move = (bugId: string, from: BugStatus, to: BugStatus, day: string) =>
    appendAndSettle(t, `bug-${bugId}`, [statusChanged(bugId, from, to, { actorId: mover, at: at(day) })]);

  beforeAll(async () => {
    t = await startTestSystem();
    admin = await registerUser(t.url, 'admin');
    auditor = await registerAuditor(t.url, admin.token);
    tester = await registerUser(t.url, 'tester');
    developer = await registerUser(t.url, 'developer');
    // A: Critical, Open 01-05, In Progress 01-06, Closed 01-08.
    await report(bugs.a, '2026-01-05', 'Critical');
    await move(bugs.a, 'Open', 'In Progress', '2026-01-06');
    await move(bugs.a, 'In Progress', 'Closed', '2026-01-08');
    // B: Minor, Open 01-06, Closed 01-07, reopened 01-12, Closed 01-14.
    await report(bugs.b, '2026-01-06', 'Minor');
    await move(bugs.b, 'Open', 'Closed', '2026-01-07');
    await move(bugs.b, 'Closed', 'Open', '2026-01-12');
    await move(bugs.b, 'Open', 'Closed', '2026-01-14');
    // C: Major, Open since 01-13. D: reported 01-07, deleted 01-09.
    await report(bugs.c, '2026-01-13', 'Major');
    await report(bugs.d, '2026-01-07', 'Major');
    await appendAndSettle(t, `bug-${bugs.d}`, [
      event('BugDeleted', { bugId: bugs.d }, { actorId: mover, at: at('2026-01-09') }),
    ]);
  });
  afterAll(async () => {
    await t?.close();
  });

  const metrics = (query: string, user: TestUser = admin) => http(t.url).get(`/api/metrics?${query}`, user.token);

  it('answers cycle time, time in status, reopens, weeks and open ages as of a moment', async () => {
    const answer = await metrics('asOf=2026-01-20T00:00:00Z');
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body).toEqual({
      asOf: '2026-01-20T00:00:00.000Z',
      from: null,
      to: null,
      groupBy: null,
      // A: 3 days, B: first Open 01-06 to last Closed 01-14, 8 days.
      cycleTime: { p50: 5.5 * DAY, p85: (3 + 0.85 * 5) * DAY, p95: (3 + 0.95 * 5) * DAY, count: 2 },
      // Over A, B and C (D was deleted): Open 1 + 3 + 7 days, In Progress 2, Closed 12 + 11.
      timeInStatus: { Open: (11 / 3) * DAY, 'In Progress': (2 / 3) * DAY, Closed: (23 / 3) * DAY },
      reopened: 1,
      weekly: [
        { week: '2026-W02', opened: 2, closed: 2 },
        { week: '2026-W03', opened: 1, closed: 1 },
      ],
      openAge: { p50: 7 * DAY, p85: 7 * DAY, p95: 7 * DAY, count: 1 },
      // Bugs of more than one project (any project: no filter) have no one set of states.
      timeInState: null,
    });
    // One project's (these are all General's, which keeps one state per category): the same times by state.
    const general = await metrics('asOf=2026-01-20T00:00:00Z&project=BUG');
    expect(general.body.timeInState).toEqual([
      { _id: 'open', name: 'Open', category: 'Open', seconds: (11 / 3) * DAY },
      { _id: 'in_progress', name: 'In Progress', category: 'In Progress', seconds: (2 / 3) * DAY },
      { _id: 'closed', name: 'Closed', category: 'Closed', seconds: (23 / 3) * DAY },
    ]);
  });

  it('as of an earlier moment: the deleted bug was there, B was closed for the first time', async () => {
    const answer = await metrics('asOf=2026-01-08T12:00:00Z');
    const { cycleTime } = answer.body;
    expect(cycleTime.count).toBe(2);
    expect(cycleTime.p50).toBeCloseTo(2 * DAY, 6);
    expect(cycleTime.p85).toBeCloseTo((1 + 0.85 * 2) * DAY, 6);
    expect(cycleTime.p95).toBeCloseTo((1 + 0.95 * 2) * DAY, 6);
    expect(answer.body.openAge).toEqual({ p50: 1.5 * DAY, p85: 1.5 * DAY, p95: 1.5 * DAY, count: 1 });
    expect(answer.body.reopened).toBe(0);
    expect(answer.body.weekly).toEqual([{ week: '2026-W02', opened: 3, closed: 2 }]);
  });

  it('a window: cycle times of bugs last closed in it, reopens in it, time of the bugs reported in it', async () => {
    const answer = await metrics('from=2026-01-12&to=2026-01-18&asOf=2026-01-20T00:00:00Z');
    expect(answer.body.from).toBe('2026-01-12T00:00:00.000Z');
    expect(answer.body.to).toBe('2026-01-19T00:00:00.000Z');
    expect(answer.body.cycleTime).toEqual({ p50: 8 * DAY, p85: 8 * DAY, p95: 8 * DAY, count: 1 });
    expect(answer.body.reopened).toBe(1);
    expect(answer.body.weekly).toEqual([{ week: '2026-W03', opened: 1, closed: 1 }]);
    // Only C was reported in the window: Open from 01-13 up to `to`.
    expect(answer.body.timeInStatus).toEqual({ Open: 6 * DAY, 'In Progress': 0, Closed: 0 });
  });

  it('groups by severity as each bug was at asOf', async () => {
    const answer = await metrics('groupBy=severity&asOf=2026-01-20T00:00:00Z');
    expect(answer.body.groupBy).toBe('severity');
    expect(
      answer.body.groups.map((g: { key: string; count: number; cycleTime: { p50: number; count: number } }) => [
        g.key,
        g.count,
        g.cycleTime.count,
        g.cycleTime.p50,
      ]),
    ).toEqual([
      ['Critical', 1, 1, 3 * DAY],
      ['Major', 1, 0, null],
      ['Minor', 1, 1, 8 * DAY],
    ]);
  });

  it('the cycle-time points and the cumulative flow', async () => {
    const points = await http(t.url).get('/api/metrics/cycle-times?asOf=2026-01-20T00:00:00Z', auditor.token);
    expect(points.status).toBe(200);
    expect(points.body.total).toBe(2);
    expect(points.body.points.map((p: { bugId: string; seconds: number }) => [p.bugId, p.seconds])).toEqual([
      [bugs.b, 8 * DAY],
      [bugs.a, 3 * DAY],
    ]);
    const flow = await http(t.url).get(
      '/api/metrics/flow?from=2026-01-05&to=2026-01-09&asOf=2026-01-20T00:00:00Z',
      admin.token,
    );
    expect(flow.status).toBe(200);
    expect(flow.body.granularity).toBe('day');
    // End of each day: D is left out (deleted before asOf).
    expect(flow.body.points).toEqual([
      { date: '2026-01-05', Open: 1, 'In Progress': 0, Closed: 0 },
      { date: '2026-01-06', Open: 1, 'In Progress': 1, Closed: 0 },
      { date: '2026-01-07', Open: 0, 'In Progress': 1, Closed: 1 },
      { date: '2026-01-08', Open: 0, 'In Progress': 0, Closed: 2 },
      { date: '2026-01-09', Open: 0, 'In Progress': 0, Closed: 2 },
    ]);
  });

  it('admins and auditors only; bad input is a 400 that says why', async () => {
    expect((await metrics('', auditor)).status).toBe(200);
    expect((await metrics('', tester)).status).toBe(403);
    expect((await metrics('', developer)).status).toBe(403);
    expect((await http(t.url).get('/api/metrics')).status).toBe(401);
    for (const path of ['/api/metrics/cycle-times', '/api/metrics/flow']) {
      expect((await http(t.url).get(path, tester.token)).status).toBe(403);
    }
    const cases: [string, string][] = [
      ['groupBy=color', 'groupBy must be one of severity, priority, module, assignee'],
      ['from=yesterday', 'from must be a date (2026-11-01) or a date and time (2026-11-01T12:00:00Z)'],
      ['asOf=2026-02-30', 'asOf must be a date (2026-11-01) or a date and time (2026-11-01T12:00:00Z)'],
      ['from=2026-02-01&to=2026-01-01', 'from must be before to'],
    ];
    for (const [query, message] of cases) {
      const answer = await metrics(query);
      expect(answer.status, query).toBe(400);
      expect(JSON.stringify(answer.body), query).toContain(message);
    }
  });
});
