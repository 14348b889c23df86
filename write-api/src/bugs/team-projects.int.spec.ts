import { bugMessages, bugWriteMessages } from '@bugtrail/domain';
import { eventually, expectRefused, http, registerUser, SseReader, type TestUser } from '@bugtrail/testing';
import { startTestSystem, type TestSystem } from '@bugtrail/testing/system';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Issue 35, team access (api.md "Projects"): in a project with `access: "team"` its members read
 * every bug of it and comment on any, its developers work on any, a reporter closes and reopens
 * their own, and a report may come without an assignee into the project's triage, whose leads
 * are told. Outside it, and for its non-members, the roles' rules hold. The real HTTP servers on
 * a real PostgreSQL.
 */
describe('a team project: everyone in it works on everything, reports wait in triage', () => {
  let t: TestSystem;
  let api: ReturnType<typeof http>;
  let admin: TestUser;
  let lena: TestUser; // tester, the project's lead
  let tom: TestUser; // tester, member: reports
  let dan: TestUser; // developer, member
  let nia: TestUser; // developer, not a member
  let olga: TestUser; // tester, not a member
  let web: { _id: string; key: string };
  let bug: { _id: string; key: string; number: number };
  const streams: SseReader[] = [];

  const refused = (status: number, call: () => Promise<{ status: number; body: any }>) =>
    expectRefused(t.system.pool, status, call);
  const report = (by: TestUser, extra: Record<string, unknown> = {}) =>
    api.post(
      '/api/bugs',
      {
        title: 'Checkout total rounds wrongly',
        description: 'A cart of three items shows a total one cent off.',
        priority: 'High',
        severity: 'Major',
        checklist: ['Reproduce with three items'],
        ...extra,
      },
      by.token,
    );

  beforeAll(async () => {
    t = await startTestSystem();
    api = http(t.url);
    admin = await registerUser(t.url, 'admin', 'Ada Admin');
    lena = await registerUser(t.url, 'tester', 'Lena Lead');
    tom = await registerUser(t.url, 'tester', 'Tom Tester');
    dan = await registerUser(t.url, 'developer', 'Dan Developer');
    nia = await registerUser(t.url, 'developer', 'Nia Outside');
    olga = await registerUser(t.url, 'tester', 'Olga Outside');
    const made = await api.post('/api/projects', { key: 'WEB', name: 'Web app', access: 'team' }, admin.token);
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body.access).toBe('team');
    web = made.body;
    for (const [user, role] of [
      [lena, 'lead'],
      [tom, 'member'],
      [dan, 'member'],
    ] as const) {
      const added = await api.call('PUT', `/api/projects/${web._id}/members/${user.id}`, {
        body: { role },
        token: admin.token,
      });
      expect(added.status, JSON.stringify(added.body)).toBe(200);
    }
  });
  afterAll(async () => {
    for (const stream of streams) stream.close();
    await t?.close();
  });

  it('takes a report without an assignee into the project’s triage and tells its leads', async () => {
    const made = await report(tom, { projectId: web.key });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    bug = made.body.bug;
    expect(made.body.bug.assignedTo).toEqual([]);
    const triage = await api.get(`/api/bugs?project=${web.key}&triage=true`, dan.token);
    expect(triage.status).toBe(200);
    expect(triage.body.bugs.map((b: { _id: string }) => b._id)).toEqual([bug._id]);
    const told = await eventually(async () => {
      const answer = await api.get('/api/notifications', lena.token);
      return answer.body.notifications.length > 0 ? answer.body.notifications : null;
    });
    expect(told).toEqual([
      expect.objectContaining({ kind: 'triage', bugId: bug._id, text: expect.stringContaining('waits in triage') }),
    ]);
    // Nobody else is told: not the reporter, not a plain member.
    expect((await api.get('/api/notifications', dan.token)).body.notifications).toEqual([]);
    const history = await api.get(`/api/bugs/${bug._id}/history`, admin.token);
    expect(JSON.stringify(history.body)).toContain('BugInTriage');
  });

  it('still asks for an assignee outside a team project (the default project keeps the spec’s rules)', async () => {
    const before = await refused(400, () => report(tom));
    expect(before.body.message).toBe(bugMessages.developerRequired);
  });

  it('shows every member the whole bug, in its page, the lists and the counts', async () => {
    for (const member of [lena, dan]) {
      const page = await api.get(`/api/bugs/${bug._id}`, member.token);
      expect(page.status, JSON.stringify(page.body)).toBe(200);
      expect(page.body.description).toContain('one cent off');
      const listed = await api.get('/api/bugs?limit=25', member.token);
      expect(listed.body.bugs.map((b: { _id: string }) => b._id)).toContain(bug._id);
      expect(listed.body.statusSummary.all).toBe(listed.body.total);
      expect(listed.body.total).toBe(1);
    }
    const board = await api.get('/api/bugs/tester-dashboard', lena.token);
    expect(board.body.statistics.totalBugs).toBe(1);
    const dev = await api.get('/api/bugs/developer-dashboard', dan.token);
    expect(dev.body.statistics.totalBugs).toBe(1);
    expect(dev.body.recentBugs?.map((b: { _id: string }) => b._id) ?? [bug._id]).toContain(bug._id);
  });

  it('keeps the roles’ rules for non-members of a public team project', async () => {
    expect((await api.get(`/api/bugs/${bug._id}`, nia.token)).status).toBe(403);
    expect((await api.get(`/api/bugs/${bug._id}`, olga.token)).status).toBe(403);
    const rows = await api.get('/api/bugs/all-viewable', olga.token);
    const row = rows.body.bugs.find((b: { _id: string }) => b._id === bug._id);
    expect(row).toBeDefined();
    expect(row.description).toBeUndefined();
    const listed = await api.get('/api/bugs', nia.token);
    expect(listed.body.bugs).toEqual([]);
    await refused(403, () => api.put(`/api/bugs/${bug._id}/status`, { status: 'In Progress' }, nia.token));
    await refused(403, () => api.post(`/api/bugs/${bug._id}/comments`, { body: 'From outside' }, olga.token));
  });

  it('lets any developer member work on it and any member comment; live, as members hear it', async () => {
    const lenaStream = await SseReader.open(t.url, lena.token);
    streams.push(lenaStream);
    const moved = await api.put(`/api/bugs/${bug._id}/status`, { status: 'In Progress' }, dan.token);
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const ticked = await api.put(
      `/api/bugs/${bug._id}/checklist`,
      { checklist: [{ _id: moved.body.bug.checklist[0]._id, text: 'Reproduce with three items', completed: true }] },
      dan.token,
    );
    expect(ticked.status, JSON.stringify(ticked.body)).toBe(200);
    expect(ticked.body.bug.checklist[0].completed).toBe(true);
    for (const member of [lena, dan]) {
      const said = await api.post(`/api/bugs/${bug._id}/comments`, { body: `Seen by ${member.name}` }, member.token);
      expect(said.status, JSON.stringify(said.body)).toBe(201);
    }
    // Lena is neither its reporter nor an assignee: she hears it as a member.
    await lenaStream.waitFor((m) => m.topics.includes(`bug:${bug._id}`));
  });

  it('lets its reporter close and reopen it, and nothing more; another tester member cannot', async () => {
    const wrong = await refused(403, () => api.put(`/api/bugs/${bug._id}/status`, { status: 'Open' }, lena.token));
    expect(wrong.body.message).toBe(bugWriteMessages.cannotChangeStatus);
    await refused(403, () => api.put(`/api/bugs/${bug._id}/status`, { status: 'Open' }, tom.token));
    const closed = await api.put(`/api/bugs/${bug._id}/status`, { status: 'Closed' }, tom.token);
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    const reopened = await api.put(`/api/bugs/${bug._id}/status`, { status: 'Open' }, tom.token);
    expect(reopened.status, JSON.stringify(reopened.body)).toBe(200);
    expect(reopened.body.bug.status).toBe('Open');
  });

  it('ends a member’s open stream when the project goes back to the reporters’ rules, which hold from then on', async () => {
    const danStream = await SseReader.open(t.url, dan.token);
    streams.push(danStream);
    const changed = await api.call('PATCH', `/api/projects/${web._id}`, {
      body: { access: 'reporters' },
      token: admin.token,
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    await danStream.waitForEnd();
    expect((await api.get(`/api/bugs/${bug._id}`, dan.token)).status).toBe(403);
    await refused(403, () => api.put(`/api/bugs/${bug._id}/status`, { status: 'Closed' }, dan.token));
    expect((await api.get('/api/bugs/developer-dashboard', dan.token)).body.statistics.totalBugs).toBe(0);
  });
});
