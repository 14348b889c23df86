import { worklogMessages } from '@bugtrail/domain';
import { expectRefused, http, prng, registerUser, type TestUser } from '@bugtrail/testing';
import { startTestSystem, type TestSystem } from '@bugtrail/testing/system';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Issue 37, time (api.md "Custom fields, workflow states and time"): estimates on bugs, worklog
 * entries by the assigned developers and admins, time spent on the bug and its milestone, and
 * timesheets per person and per project whose totals are a naive sum over the entries logged.
 * Real HTTP servers, a real PostgreSQL.
 */
describe('time tracking', () => {
  let t: TestSystem;
  let api: ReturnType<typeof http>;
  let admin: TestUser;
  let tess: TestUser;
  let dan: TestUser; // developer, assigned everywhere
  let eve: TestUser; // developer, assigned to the API bugs only
  let nia: TestUser; // developer, assigned to nothing
  const projects: Record<string, { _id: string; key: string }> = {};
  const bugs: { _id: string; key: string; project: string; assignees: TestUser[] }[] = [];
  /** What was logged and not deleted: the oracle. */
  const logged: { id: string; bug: string; project: string; user: string; minutes: number; on: string }[] = [];

  const refused = (status: number, call: () => Promise<{ status: number; body: any }>) =>
    expectRefused(t.system.pool, status, call);
  const log = (bugId: string, body: Record<string, unknown>, token: string) =>
    api.post(`/api/bugs/${bugId}/worklog`, body, token);

  beforeAll(async () => {
    t = await startTestSystem();
    api = http(t.url);
    admin = await registerUser(t.url, 'admin', 'Ada Admin');
    tess = await registerUser(t.url, 'tester', 'Tess Tester');
    dan = await registerUser(t.url, 'developer', 'Dan Developer');
    eve = await registerUser(t.url, 'developer', 'Eve Engineer');
    nia = await registerUser(t.url, 'developer', 'Nia Newcomer');
    for (const key of ['WEB', 'API']) {
      const made = await api.post('/api/projects', { key, name: `${key} app` }, admin.token);
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      projects[key] = made.body;
    }
    for (const [key, n] of [
      ['WEB', 2],
      ['API', 2],
    ] as const) {
      for (let i = 0; i < n; i++) {
        const assignees = key === 'API' ? [dan, eve] : [dan];
        const made = await api.post(
          '/api/bugs',
          {
            title: `${key} bug number ${i + 1}`,
            description: 'Something takes time to fix.',
            assignedTo: assignees.map((a) => a.id),
            projectId: projects[key]!._id,
            estimate: 2.5,
          },
          tess.token,
        );
        expect(made.status, JSON.stringify(made.body)).toBe(201);
        expect(made.body.bug).toMatchObject({ estimate: 2.5, timeSpentMinutes: 0 });
        bugs.push({ ...made.body.bug, project: key, assignees });
      }
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  it('lets the assigned developers and admins log time; answers the entry and the bug’s time spent', async () => {
    const entry = await log(bugs[0]!._id, { minutes: 90, on: '2026-12-01', note: 'Found the cause' }, dan.token);
    expect(entry.status, JSON.stringify(entry.body)).toBe(201);
    expect(entry.body).toMatchObject({
      bugId: bugs[0]!._id,
      user: { _id: dan.id, name: 'Dan Developer' },
      minutes: 90,
      on: '2026-12-01',
      note: 'Found the cause',
      bug: { timeSpentMinutes: 90 },
    });
    logged.push({ id: entry.body._id, bug: bugs[0]!._id, project: 'WEB', user: dan.id, minutes: 90, on: '2026-12-01' });
    expect((await api.get(`/api/bugs/${bugs[0]!._id}`, tess.token)).body.timeSpentMinutes).toBe(90);

    expect(
      (await refused(403, () => log(bugs[0]!._id, { minutes: 10, on: '2026-12-01' }, nia.token))).body.message,
    ).toBe("You don't have permission to view this bug");
    expect(
      (await refused(403, () => log(bugs[0]!._id, { minutes: 10, on: '2026-12-01' }, tess.token))).body.message,
    ).toBe(worklogMessages.cannotLog);
    for (const [body, message] of [
      [{ minutes: 0, on: '2026-12-01' }, worklogMessages.minutes],
      [{ minutes: 1.5, on: '2026-12-01' }, worklogMessages.minutes],
      [{ minutes: 1441, on: '2026-12-01' }, worklogMessages.minutes],
      [{ minutes: 30, on: '2026-13-01' }, worklogMessages.on],
      [{ minutes: 30, on: '2999-01-01' }, worklogMessages.future],
      [{ minutes: 30, on: '2026-12-01', note: 'x'.repeat(501) }, worklogMessages.noteTooLong],
      [{ on: '2026-12-01' }, worklogMessages.minutes],
    ] as const) {
      expect((await refused(400, () => log(bugs[0]!._id, body, dan.token))).body.message).toBe(message);
    }
  });

  it('deletes an entry for whoever logged it (and admins), and the time spent follows', async () => {
    const entry = await log(bugs[1]!._id, { minutes: 45, on: '2026-12-02' }, dan.token);
    expect(entry.status).toBe(201);
    expect(
      (await refused(403, () => api.delete(`/api/bugs/${bugs[1]!._id}/worklog/${entry.body._id}`, eve.token))).status,
    ).toBe(403);
    const gone = await api.delete(`/api/bugs/${bugs[1]!._id}/worklog/${entry.body._id}`, dan.token);
    expect(gone.status, JSON.stringify(gone.body)).toBe(200);
    expect(gone.body.bug.timeSpentMinutes).toBe(0);
    await refused(404, () => api.delete(`/api/bugs/${bugs[1]!._id}/worklog/${entry.body._id}`, dan.token));
    const byAdmin = await log(bugs[1]!._id, { minutes: 15, on: '2026-12-02' }, dan.token);
    expect((await api.delete(`/api/bugs/${bugs[1]!._id}/worklog/${byAdmin.body._id}`, admin.token)).status).toBe(200);
  });

  it('sets and clears an estimate, refusing what is no number of hours', async () => {
    const set = await api.put(`/api/bugs/${bugs[1]!._id}/estimate`, { estimate: 4.25 }, dan.token);
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body.estimate).toBe(4.25);
    expect((await api.put(`/api/bugs/${bugs[1]!._id}`, { estimate: null }, tess.token)).body.bug.estimate).toBeNull();
    await refused(400, () => api.put(`/api/bugs/${bugs[1]!._id}/estimate`, { estimate: -1 }, dan.token));
    await refused(400, () => api.put(`/api/bugs/${bugs[1]!._id}/estimate`, { estimate: '3h' }, dan.token));
    await refused(403, () => api.put(`/api/bugs/${bugs[1]!._id}/estimate`, { estimate: 1 }, nia.token));
  });

  it('totals a timesheet as a naive sum over the entries logged, per person and per project', async () => {
    const r = prng(37);
    for (let i = 0; i < 40; i++) {
      const bug = r.pick(bugs);
      const user = r.pick([...bug.assignees, admin]);
      const on = `2026-11-${String(20 + r.int(10)).padStart(2, '0')}`;
      const minutes = 5 + r.int(240);
      const answer = await log(bug._id, { minutes, on }, user.token);
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      logged.push({ id: answer.body._id, bug: bug._id, project: bug.project, user: user.id, minutes, on });
      if (r.next() < 0.15) {
        await api.delete(`/api/bugs/${bug._id}/worklog/${answer.body._id}`, user.token);
        logged.pop();
      }
    }
    const sum = (rows: typeof logged) => rows.reduce((s, e) => s + e.minutes, 0);
    const check = async (query: string, rows: typeof logged, token = admin.token) => {
      const sheet = await api.get(`/api/worklog?${query}`, token);
      expect(sheet.status, JSON.stringify(sheet.body)).toBe(200);
      expect(sheet.body.totals.minutes, query).toBe(sum(rows));
      expect(sheet.body.entries.map((e: { _id: string }) => e._id).sort(), query).toEqual(rows.map((e) => e.id).sort());
      for (const { user, minutes } of sheet.body.totals.byUser) {
        expect(minutes, `${query} ${user.name}`).toBe(sum(rows.filter((e) => e.user === user._id)));
      }
      for (const { project, minutes } of sheet.body.totals.byProject) {
        expect(minutes, `${query} ${project.key}`).toBe(sum(rows.filter((e) => e.project === project.key)));
      }
      return sheet.body;
    };
    const inRange = (from: string, to: string) => logged.filter((e) => e.on >= from && e.on <= to);
    await check('from=2026-11-01&to=2026-12-31', inRange('2026-11-01', '2026-12-31'));
    await check('from=2026-11-22&to=2026-11-25', inRange('2026-11-22', '2026-11-25'));
    await check(
      `from=2026-11-01&to=2026-12-31&project=API`,
      inRange('2026-11-01', '2026-12-31').filter((e) => e.project === 'API'),
    );
    await check(
      `from=2026-11-01&to=2026-12-31&user=${eve.id}`,
      inRange('2026-11-01', '2026-12-31').filter((e) => e.user === eve.id),
    );
    // A developer reads the entries of the bugs they may open (Eve: the API bugs), anyone's on them.
    await check(
      'from=2026-11-01&to=2026-12-31',
      inRange('2026-11-01', '2026-12-31').filter((e) => e.project === 'API'),
      eve.token,
    );
    // One bug's entries, every day; and its answer's time spent agrees.
    const one = await check(
      `bug=${bugs[2]!._id}`,
      logged.filter((e) => e.bug === bugs[2]!._id),
    );
    expect((await api.get(`/api/bugs/${bugs[2]!._id}`, admin.token)).body.timeSpentMinutes).toBe(one.totals.minutes);
    expect((await api.get('/api/worklog?from=2026-12-05&to=2026-12-01', admin.token)).status).toBe(400);
    expect((await api.get('/api/worklog?from=yesterday', admin.token)).status).toBe(400);
  });

  it('exports the timesheet as xlsx and CSV, and a milestone sums its bugs’ estimates and time', async () => {
    const xlsx = await fetch(`${t.url}/api/reports/export/worklog?from=2026-11-01&to=2026-12-31&project=WEB`, {
      headers: { authorization: `Bearer ${eve.token}` },
    });
    expect(xlsx.status).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await xlsx.arrayBuffer()) as ArrayBuffer);
    const rows: unknown[][] = [];
    workbook.worksheets[0]!.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    // Eve sees no WEB bug: a header alone.
    expect(rows).toEqual([['Day', 'Person', 'Project', 'Bug', 'Title', 'Minutes', 'Hours', 'Note']]);

    const csv = await fetch(`${t.url}/api/reports/export/worklog?from=2026-11-01&to=2026-12-31&format=csv`, {
      headers: { authorization: `Bearer ${admin.token}` },
    });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    const lines = (await csv.text()).trim().split('\n');
    expect(lines[0]).toBe('Day,Person,Project,Bug,Title,Minutes,Hours,Note');
    const minutes = lines.slice(1).map((line) => Number(line.split(',')[5]));
    expect(minutes.reduce((a, b) => a + b, 0)).toBe(
      logged.filter((e) => e.on >= '2026-11-01' && e.on <= '2026-12-31').reduce((s, e) => s + e.minutes, 0),
    );

    const milestone = await api.post(`/api/projects/${projects.API!._id}/milestones`, { name: '1.0' }, admin.token);
    expect(milestone.status, JSON.stringify(milestone.body)).toBe(201);
    for (const bug of bugs.filter((b) => b.project === 'API')) {
      await api.put(`/api/bugs/${bug._id}/milestone`, { milestoneId: milestone.body._id }, admin.token);
    }
    const read = await api.get(`/api/milestones/${milestone.body._id}`, admin.token);
    const spent = logged.filter((e) => e.project === 'API').reduce((s, e) => s + e.minutes, 0);
    expect(read.body).toMatchObject({ estimate: 5, spentMinutes: spent, spent: Math.round((spent / 60) * 100) / 100 });
  });
});
