import { randomUUID } from 'node:crypto';
import { milestoneMessages } from '@bugtrail/domain';
import type { NewEvent } from '@bugtrail/eventstore';
import { expectRefused, http, prng, registerUser, type TestUser } from '@bugtrail/testing';
import { startTestSystem, type TestSystem } from '@bugtrail/testing/system';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { event, reportBug } from '../../../cli/src/demo/bug-events.js';

/**
 * Issue 36, milestones (api.md "Milestones"): admins and a project's leads plan them, bugs of the
 * project are planned into them, progress counts their bugs, and the burn-up is read off the event
 * log: scope and done per day as they were. The property: random plans, removals, closes,
 * reopens and deletions over six weeks, and the burn-up equals a naive replay of the same events,
 * day by day. The real HTTP servers on a real PostgreSQL.
 */
describe('milestones and their burn-up', () => {
  let t: TestSystem;
  let api: ReturnType<typeof http>;
  let admin: TestUser;
  let lena: TestUser; // tester, the project's lead
  let tess: TestUser; // tester, a member
  let dan: TestUser; // developer
  let project: { _id: string; key: string };
  let other: { _id: string; key: string };

  const refused = (status: number, call: () => Promise<{ status: number; body: any }>) =>
    expectRefused(t.system.pool, status, call);

  beforeAll(async () => {
    t = await startTestSystem();
    api = http(t.url);
    admin = await registerUser(t.url, 'admin', 'Ada Admin');
    lena = await registerUser(t.url, 'tester', 'Lena Lead');
    tess = await registerUser(t.url, 'tester', 'Tess Tester');
    dan = await registerUser(t.url, 'developer', 'Dan Developer');
    project = (await api.post('/api/projects', { key: 'MIL', name: 'Milestones' }, admin.token)).body;
    other = (await api.post('/api/projects', { key: 'OTH', name: 'Other' }, admin.token)).body;
    await api.put(`/api/projects/${project._id}/members/${lena.id}`, { role: 'lead' }, admin.token);
    await api.put(`/api/projects/${project._id}/members/${tess.id}`, { role: 'member' }, admin.token);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('lets admins and the project’s leads plan milestones, plans bugs into them and counts their progress', async () => {
    const made = await api.post(
      `/api/projects/${project.key}/milestones`,
      { name: '1.0', description: 'The first release', startDate: '2026-01-01', dueDate: '2026-02-01' },
      lena.token,
    );
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body).toMatchObject({
      projectId: project._id,
      name: '1.0',
      startDate: '2026-01-01',
      dueDate: '2026-02-01',
      closedAt: null,
      progress: { total: 0, closed: 0 },
    });
    const m = made.body;
    await refused(403, () => api.post(`/api/projects/${project._id}/milestones`, { name: '2.0' }, tess.token));
    expect(
      (
        await refused(400, () =>
          api.post(
            `/api/projects/${project._id}/milestones`,
            { name: 'x', startDate: '2026-03-01', dueDate: '2026-02-01' },
            admin.token,
          ),
        )
      ).body.message,
    ).toBe(milestoneMessages.startAfterDue);
    await refused(400, () =>
      api.post(`/api/projects/${project._id}/milestones`, { name: 'x', dueDate: '2026-02-30' }, admin.token),
    );
    await refused(404, () => api.post('/api/projects/NOPE/milestones', { name: 'x' }, admin.token));

    const report = async (projectId: string) =>
      (
        await api.post(
          '/api/bugs',
          { title: 'A bug for the release', description: 'It must be fixed for 1.0.', assignedTo: [dan.id], projectId },
          tess.token,
        )
      ).body.bug;
    const [a, b] = [await report(project._id), await report(project._id)];
    for (const bug of [a, b]) {
      const set = await api.put(`/api/bugs/${bug._id}/milestone`, { milestoneId: m._id }, dan.token);
      expect(set.status, JSON.stringify(set.body)).toBe(200);
      expect(set.body.bug.milestoneId).toBe(m._id);
    }
    const elsewhere = await report(other._id);
    expect(
      (await refused(400, () => api.put(`/api/bugs/${elsewhere._id}/milestone`, { milestoneId: m._id }, admin.token)))
        .body.message,
    ).toBe(milestoneMessages.otherProject);
    await refused(404, () => api.put(`/api/bugs/${a._id}/milestone`, { milestoneId: 'nope' }, admin.token));
    await api.put(`/api/bugs/${a._id}/status`, { status: 'Closed' }, dan.token);
    const listed = await api.get(`/api/projects/${project.key}/milestones`, tess.token);
    expect(listed.body.milestones).toEqual([
      expect.objectContaining({ _id: m._id, progress: { total: 2, closed: 1 } }),
    ]);
    expect((await api.get(`/api/bugs?milestone=${m._id}`, admin.token)).body.bugs).toHaveLength(2);
    // A bug moved to another project leaves its milestone.
    expect(
      (await api.put(`/api/bugs/${b._id}/project`, { projectId: other._id }, admin.token)).body.bug.milestoneId,
    ).toBeNull();
    const closed = await api.call('PATCH', `/api/milestones/${m._id}`, { body: { closed: true }, token: lena.token });
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    expect(closed.body.closedAt).not.toBeNull();
    expect((await api.get(`/api/milestones/${m._id}`, admin.token)).body.progress).toEqual({ total: 1, closed: 1 });
    await refused(403, () => api.call('DELETE', `/api/milestones/${m._id}`, { token: tess.token }));
    // Deleted, its bugs leave it, each by an event of its own.
    expect((await api.call('DELETE', `/api/milestones/${m._id}`, { token: lena.token })).status).toBe(200);
    await refused(404, () => api.get(`/api/milestones/${m._id}`, admin.token));
    expect((await api.get(`/api/bugs/${a._id}`, admin.token)).body.milestoneId).toBeNull();
    const history = await api.get(`/api/bugs/${a._id}/history`, admin.token);
    expect(history.body.events.at(-1)).toMatchObject({ type: 'BugMilestoneSet', data: { milestoneId: null } });
    await refused(404, () => api.call('DELETE', `/api/milestones/${m._id}`, { token: lena.token }));
  });

  it('draws the burn-up the event log tells: scope and done per day, as they were', async () => {
    const seed = Number(process.env.BURNUP_SEED ?? Date.now() % 1_000_000);
    const r = prng(seed);
    const made = await api.post(
      `/api/projects/${project._id}/milestones`,
      { name: `Burn-up ${seed}`, startDate: '2026-01-05' },
      admin.token,
    );
    const m = made.body._id as string;
    const day0 = Date.parse('2026-01-01T00:00:00Z');
    const days = 42;
    type Naive = { at: number; bugId: string; milestone?: string | null; status?: string; deleted?: boolean };
    const log: Naive[] = [];
    const bugs = new Map<string, { milestone: string | null; status: string; deleted: boolean }>();
    let number = 1000;
    let last = '';
    // Each step a few hours on: reports, plans in and out (of this milestone or another), closes, reopens, deletions.
    for (let now = day0; now < day0 + days * 86_400_000; now += 3_600_000 * (1 + r.int(9))) {
      const at = new Date(now).toISOString();
      const live = [...bugs].filter(([, b]) => !b.deleted);
      let stream: string;
      let events: NewEvent[];
      const roll = r.next();
      if (live.length < 3 || roll < 0.2) {
        const bugId = randomUUID();
        number += 1;
        stream = `bug-${bugId}`;
        events = reportBug(
          {
            bugId,
            reporterId: tess.id,
            title: `Burn-up bug ${number}`,
            description: 'For the burn-up',
            assigneeIds: [dan.id],
            project: { id: project._id, number },
          },
          { at },
        );
        bugs.set(bugId, { milestone: null, status: 'Open', deleted: false });
        log.push({ at: now, bugId, milestone: null, status: 'Open' });
      } else {
        const [bugId, bug] = r.pick(live);
        stream = `bug-${bugId}`;
        const actor = { actorId: admin.id, at };
        if (roll < 0.55) {
          const milestone = bug.milestone === m ? (r.next() < 0.5 ? null : 'another') : m;
          events = [event('BugMilestoneSet', { bugId, milestoneId: milestone }, actor)];
          bug.milestone = milestone;
          log.push({ at: now, bugId, milestone });
        } else if (roll < 0.9) {
          const to = bug.status === 'Closed' ? 'Open' : r.pick(['Closed', 'Closed', 'In Progress']);
          if (to === bug.status) continue;
          events = [event('BugStatusChanged', { bugId, from: bug.status, to }, actor)];
          bug.status = to;
          log.push({ at: now, bugId, status: to });
        } else {
          events = [event('BugDeleted', { bugId }, actor)];
          bug.deleted = true;
          log.push({ at: now, bugId, deleted: true });
        }
      }
      last = (await t.system.store.append(stream, events, 'any')).position;
    }
    expect(await t.system.changeFeed.waitFor(last, 30_000)).toBe(true);

    // The naive replay: every bug's state at the end of each day from the start date.
    const asOf = new Date(day0 + (days - 1) * 86_400_000 + 43_200_000).toISOString();
    const expected: { date: string; scope: number; closed: number }[] = [];
    for (let d = Date.parse('2026-01-05T00:00:00Z'); d <= Date.parse(asOf); d += 86_400_000) {
      const eod = d + 86_400_000;
      const state = new Map<string, { milestone: string | null; status: string; deleted: boolean }>();
      for (const e of log) {
        if (e.at >= eod) break;
        const s = state.get(e.bugId) ?? { milestone: null, status: 'Open', deleted: false };
        if (e.milestone !== undefined) s.milestone = e.milestone;
        if (e.status !== undefined) s.status = e.status;
        if (e.deleted) s.deleted = true;
        state.set(e.bugId, s);
      }
      const inScope = [...state.values()].filter((s) => s.milestone === m && !s.deleted);
      expected.push({
        date: new Date(d).toISOString().slice(0, 10),
        scope: inScope.length,
        closed: inScope.filter((s) => s.status === 'Closed').length,
      });
    }
    const burnup = await api.get(`/api/milestones/${m}/burnup?asOf=${asOf}`, tess.token);
    expect(burnup.status, JSON.stringify(burnup.body)).toBe(200);
    expect(burnup.body.days, `seed ${seed}`).toEqual(expected);
    expect(expected.some((d) => d.scope > 0)).toBe(true);
    await expectRefused(t.system.pool, 400, () => api.get(`/api/milestones/${m}/burnup?asOf=soon`, tess.token));
  });
});
