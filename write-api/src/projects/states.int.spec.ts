import { projectMessages, stateMessages } from '@bugtrail/domain';
import { countStoredEvents, expectRefused, http, registerUser, type TestUser } from '@bugtrail/testing';
import { startTestSystem, type TestSystem } from '@bugtrail/testing/system';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Issue 37, workflow states (api.md "Custom fields, workflow states and time"): a project's
 * states in board order, each in one of the three categories; a bug's `status` is always its
 * state's category, so lists, counts and spec clients keep working; a state that holds bugs is
 * not removed; a renamed state leaves its bugs' history as it was. Real HTTP servers and
 * PostgreSQL.
 */
describe('workflow states', () => {
  let t: TestSystem;
  let api: ReturnType<typeof http>;
  let admin: TestUser;
  let lead: TestUser;
  let tess: TestUser;
  let dan: TestUser; // developer, assigned
  let project: { _id: string; key: string };
  const bugs: { _id: string; key: string }[] = [];
  let states: { _id: string; name: string; category: string; color: string }[] = [];

  const refused = (status: number, call: () => Promise<{ status: number; body: any }>) =>
    expectRefused(t.system.pool, status, call);
  const putStates = (body: unknown, token = admin.token) => api.put(`/api/projects/${project._id}/states`, body, token);
  const bug = async (id: string) => (await api.get(`/api/bugs/${id}`, admin.token)).body;

  beforeAll(async () => {
    t = await startTestSystem();
    api = http(t.url);
    admin = await registerUser(t.url, 'admin', 'Ada Admin');
    lead = await registerUser(t.url, 'developer', 'Lee Lead');
    tess = await registerUser(t.url, 'tester', 'Tess Tester');
    dan = await registerUser(t.url, 'developer', 'Dan Developer');
    const made = await api.post('/api/projects', { key: 'FLOW', name: 'Flow' }, admin.token);
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    project = made.body;
    await api.put(`/api/projects/${project._id}/members/${lead.id}`, { role: 'lead' }, admin.token);
    for (const title of ['First bug in the flow', 'Second bug in the flow', 'Third bug in the flow']) {
      const made = await api.post(
        '/api/bugs',
        { title, description: 'Something is wrong in the flow.', assignedTo: [dan.id], projectId: project._id },
        tess.token,
      );
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      bugs.push(made.body.bug);
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  it('has one state per category until the project sets its own, and bugs answer theirs', async () => {
    const answer = await api.get(`/api/projects/${project.key}/states`, tess.token);
    expect(answer.status).toBe(200);
    expect(answer.body.states.map((s: { name: string; category: string }) => [s.name, s.category])).toEqual([
      ['Open', 'Open'],
      ['In Progress', 'In Progress'],
      ['Closed', 'Closed'],
    ]);
    expect((await bug(bugs[0]!._id)).state).toEqual({ _id: 'open', name: 'Open', category: 'Open' });
  });

  it('lets admins and leads set states in board order; refuses bad lists, appending nothing', async () => {
    const set = await putStates(
      {
        states: [
          { _id: 'open', name: 'Backlog', category: 'Open' },
          { name: 'Ready', category: 'Open', color: '#2563EB' },
          { _id: 'in_progress', name: 'In Progress', category: 'In Progress' },
          { name: 'Needs QA', category: 'In Progress', color: '#d97706' },
          { _id: 'closed', name: 'Done', category: 'Closed' },
        ],
      },
      lead.token,
    );
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    states = set.body.states;
    expect(states.map((s) => s.name)).toEqual(['Backlog', 'Ready', 'In Progress', 'Needs QA', 'Done']);
    expect(states[1]!.color).toBe('#2563eb');
    // A bug that chose none is in its category's first state, renamed.
    expect((await bug(bugs[0]!._id)).state).toEqual({ _id: 'open', name: 'Backlog', category: 'Open' });

    const keep = states.map((s) => ({ _id: s._id, name: s.name, category: s.category }));
    await refused(403, () => putStates({ states: keep }, tess.token));
    expect((await refused(403, () => putStates({ states: keep }, dan.token))).body.message).toBe(
      projectMessages.adminsAndLeads,
    );
    expect(
      (await refused(400, () => putStates({ states: keep.filter((s) => s.category !== 'Closed') }))).body.message,
    ).toBe(stateMessages.categoryEmpty('Closed'));
    expect(
      (await refused(400, () => putStates({ states: [...keep, { name: 'backlog', category: 'Open' }] }))).body.message,
    ).toBe(stateMessages.nameTaken('backlog'));
    expect(
      (await refused(400, () => putStates({ states: [...keep, { _id: 'nope', name: 'X', category: 'Open' }] }))).body
        .message,
    ).toBe(stateMessages.unknown('nope'));
    await refused(400, () => putStates({ states: [...keep, { name: 'Odd', category: 'Waiting' }] }));
    await refused(400, () => putStates({ states: [...keep, { name: 'Odd', category: 'Open', color: 'blue' }] }));
    await refused(400, () => putStates({ states: 'Open' }));
    // The same list again changes nothing.
    const before = await countStoredEvents(t.system.pool);
    expect((await putStates({ states: keep })).status).toBe(200);
    expect(await countStoredEvents(t.system.pool)).toBe(before);
  });

  it('moves a bug between states; another category changes its status, a status change picks the first state', async () => {
    const needsQa = states.find((s) => s.name === 'Needs QA')!;
    const moved = await api.put(`/api/bugs/${bugs[0]!._id}/state`, { stateId: needsQa._id }, dan.token);
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body).toMatchObject({ status: 'In Progress', state: { _id: needsQa._id, name: 'Needs QA' } });
    // Spec clients see the status; lists by status and counts agree.
    const inProgress = await api.get(`/api/bugs?project=${project.key}&status=In%20Progress`, admin.token);
    expect(inProgress.body.bugs.map((b: { _id: string }) => b._id)).toEqual([bugs[0]!._id]);
    const byState = await api.get(`/api/bugs?project=${project.key}&state=${needsQa._id}`, admin.token);
    expect(byState.body.bugs.map((b: { _id: string }) => b._id)).toEqual([bugs[0]!._id]);

    const ready = states.find((s) => s.name === 'Ready')!;
    await api.put(`/api/bugs/${bugs[1]!._id}/state`, { stateId: ready._id }, dan.token);
    expect((await bug(bugs[1]!._id)).state.name).toBe('Ready');
    // The status route puts it in the category's first state.
    const status = await api.put(`/api/bugs/${bugs[2]!._id}/status`, { status: 'In Progress' }, dan.token);
    expect(status.body.bug.state).toEqual({ _id: 'in_progress', name: 'In Progress', category: 'In Progress' });

    await refused(400, () => api.put(`/api/bugs/${bugs[2]!._id}/state`, { stateId: 'nope' }, dan.token));
    await refused(403, () => api.put(`/api/bugs/${bugs[2]!._id}/state`, { stateId: ready._id }, tess.token));
    await refused(200, () => api.put(`/api/bugs/${bugs[1]!._id}/state`, { stateId: ready._id }, dan.token));

    const board = await api.get(`/api/projects/${project.key}/board`, admin.token);
    expect(
      board.body.columns.map((c: { state: { name: string }; status: string; count: number }) => [
        c.state.name,
        c.status,
        c.count,
      ]),
    ).toEqual([
      ['Backlog', 'Open', 0],
      ['Ready', 'Open', 1],
      ['In Progress', 'In Progress', 1],
      ['Needs QA', 'In Progress', 1],
      ['Done', 'Closed', 0],
    ]);
  });

  it('refuses to remove a state that holds bugs, naming it; once they move, it goes', async () => {
    const without = (name: string) =>
      states.filter((s) => s.name !== name).map((s) => ({ _id: s._id, name: s.name, category: s.category }));
    expect((await refused(409, () => putStates({ states: without('Needs QA') }))).body.message).toBe(
      stateMessages.inUse('Needs QA', 1),
    );
    // Moving a state to another category would change its bugs' status unseen: refused too.
    const recategorised = states.map((s) => ({
      _id: s._id,
      name: s.name,
      category: s.name === 'Ready' ? 'In Progress' : s.category,
    }));
    await refused(409, () => putStates({ states: recategorised }));

    // A status change leaves the state: its row goes stale, and the count sees through it.
    await api.put(`/api/bugs/${bugs[0]!._id}/status`, { status: 'Closed' }, dan.token);
    const removed = await putStates({ states: without('Needs QA') });
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    expect((await bug(bugs[0]!._id)).state).toMatchObject({ name: 'Done', category: 'Closed' });
  });

  it('renames a state without touching its bugs’ history, and shows the new name on them', async () => {
    const ready = states.find((s) => s.name === 'Ready')!;
    const current = (await api.get(`/api/projects/${project._id}/states`, admin.token)).body.states as typeof states;
    const renamed = await putStates({
      states: current.map((s) => ({
        _id: s._id,
        name: s._id === ready._id ? 'Ready for dev' : s.name,
        category: s.category,
      })),
    });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect((await bug(bugs[1]!._id)).state.name).toBe('Ready for dev');
    const history = await api.get(`/api/bugs/${bugs[1]!._id}/history`, admin.token);
    const change = history.body.events.find((e: { type: string }) => e.type === 'BugStateChanged');
    expect(change.data).toEqual({ bugId: bugs[1]!._id, stateId: ready._id, from: 'open' });
  });

  it('answers the time spent in each state of one project in the flow metrics, adding up to time in status', async () => {
    const answer = await api.get(`/api/metrics?project=${project.key}`, admin.token);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const spent = answer.body.timeInState as { _id: string; name: string; category: string | null; seconds: number }[];
    // Board order, a bug that chose no state counted in its category's first; Needs QA was removed since.
    expect(spent.map((s) => [s.name, s.category])).toEqual([
      ['Backlog', 'Open'],
      ['Ready for dev', 'Open'],
      ['In Progress', 'In Progress'],
      ['Done', 'Closed'],
      ['Removed state', null],
    ]);
    for (const s of spent.filter((s) => s.name !== 'Done')) expect(s.seconds, s.name).toBeGreaterThan(0);
    const byStatus = answer.body.timeInStatus as Record<string, number>;
    const total = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
    expect(total(spent.map((s) => s.seconds))).toBeCloseTo(total(Object.values(byStatus)), 3);
    const inCategory = (category: string) =>
      total(
        spent
          .filter((s) => s.category === category || (s.category === null && category === 'In Progress'))
          .map((s) => s.seconds),
      );
    expect(inCategory('Open')).toBeCloseTo(byStatus.Open!, 3);
    // Several projects have several sets of states: no answer per state.
    expect((await api.get('/api/metrics', admin.token)).body.timeInState).toBeNull();
  });
});
