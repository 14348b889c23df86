import { labelMessages, rankMessages } from '@bugtrail/domain';
import { eventually, expectRefused, http, registerUser, type TestUser } from '@bugtrail/testing';
import { startTestSystem, type TestSystem } from '@bugtrail/testing/system';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Issue 36, the first planning slice (api.md "Labels", "Board"): admins manage labels, those who
 * may edit a bug (and its assigned developers) put them on, lists filter by them, a deleted label
 * leaves every bug by an event of its own; a card's place in its column is its `rank`, and the
 * board reads columns in that order. The real HTTP servers on a real PostgreSQL.
 */
describe('labels and the board’s order', () => {
  let t: TestSystem;
  let api: ReturnType<typeof http>;
  let admin: TestUser;
  let tess: TestUser; // tester, reports
  let olga: TestUser; // another tester
  let dan: TestUser; // developer, assigned
  let nia: TestUser; // developer, not assigned
  let project: { _id: string; key: string };
  const bugs: { _id: string; key: string }[] = [];
  const labels: Record<string, { _id: string; name: string; color: string }> = {};

  const refused = (status: number, call: () => Promise<{ status: number; body: any }>) =>
    expectRefused(t.system.pool, status, call);
  const column = async (token = admin.token) => {
    const board = await api.get(`/api/projects/${project.key}/board`, token);
    expect(board.status, JSON.stringify(board.body)).toBe(200);
    return board.body.columns.find((c: { status: string }) => c.status === 'Open') as {
      count: number;
      bugs: { _id: string; key: string; rank: string }[];
    };
  };
  const order = async () => (await column()).bugs.map((b) => b.key);

  beforeAll(async () => {
    t = await startTestSystem();
    api = http(t.url);
    admin = await registerUser(t.url, 'admin', 'Ada Admin');
    tess = await registerUser(t.url, 'tester', 'Tess Tester');
    olga = await registerUser(t.url, 'tester', 'Olga Other');
    dan = await registerUser(t.url, 'developer', 'Dan Developer');
    nia = await registerUser(t.url, 'developer', 'Nia Developer');
    const made = await api.post('/api/projects', { key: 'PLAN', name: 'Planning' }, admin.token);
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    project = made.body;
    for (const title of ['First bug on the board', 'Second bug on the board', 'Third bug on the board', 'Fourth bug']) {
      const bug = await api.post(
        '/api/bugs',
        { title, description: 'Something is wrong on the board.', assignedTo: [dan.id], projectId: project._id },
        tess.token,
      );
      expect(bug.status, JSON.stringify(bug.body)).toBe(201);
      bugs.push(bug.body.bug);
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  it('lets admins alone make labels, unique in any case, coloured #rrggbb', async () => {
    for (const [name, color] of [
      ['ui', '#1d76db'],
      ['regression', '#b60205'],
      ['Doomed', '#000000'],
    ] as const) {
      const made = await api.post('/api/labels', { name, color, description: `${name} bugs` }, admin.token);
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      expect(made.body).toMatchObject({ name, color, description: `${name} bugs` });
      labels[name] = made.body;
    }
    expect(
      (await refused(409, () => api.post('/api/labels', { name: 'UI', color: '#ffffff' }, admin.token))).body.message,
    ).toBe(labelMessages.exists);
    expect(
      (await refused(400, () => api.post('/api/labels', { name: 'teal', color: 'teal' }, admin.token))).body.message,
    ).toBe(labelMessages.colorInvalid);
    await refused(400, () => api.post('/api/labels', { color: '#ffffff' }, admin.token));
    await refused(403, () => api.post('/api/labels', { name: 'mine', color: '#ffffff' }, tess.token));
    await refused(409, () =>
      api.call('PATCH', `/api/labels/${labels.ui!._id}`, { body: { name: 'Regression' }, token: admin.token }),
    );
    await refused(404, () => api.call('PATCH', '/api/labels/nope', { body: { name: 'x' }, token: admin.token }));
    const listed = await api.get('/api/labels', olga.token);
    expect(listed.status).toBe(200);
    expect(listed.body.labels.map((l: { name: string }) => l.name)).toEqual(['Doomed', 'regression', 'ui']);
  });

  it('puts labels on a bug for its reporter and its developers, shows them, and filters lists by all of them', async () => {
    const [a, b] = bugs as [{ _id: string; key: string }, { _id: string; key: string }];
    const set = await api.put(
      `/api/bugs/${a._id}/labels`,
      { labelIds: [labels.ui!._id, labels.regression!._id] },
      tess.token,
    );
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body.bug.labels).toEqual([
      { _id: labels.ui!._id, name: 'ui', color: '#1d76db' },
      { _id: labels.regression!._id, name: 'regression', color: '#b60205' },
    ]);
    // "200 the bug": its fields at the top of the answer too.
    expect(set.body.labels).toEqual(set.body.bug.labels);
    expect(set.body._id).toBe(a._id);
    const byDev = await api.put(
      `/api/bugs/${b._id}/labels`,
      { labelIds: [labels.ui!._id, labels.Doomed!._id] },
      dan.token,
    );
    expect(byDev.status, JSON.stringify(byDev.body)).toBe(200);
    await refused(403, () => api.put(`/api/bugs/${b._id}/labels`, { labelIds: [] }, nia.token));
    await refused(403, () => api.put(`/api/bugs/${b._id}/labels`, { labelIds: [] }, olga.token));
    expect(
      (await refused(400, () => api.put(`/api/bugs/${b._id}/labels`, { labelIds: ['no-such-label'] }, admin.token)))
        .body.message,
    ).toBe(labelMessages.unknown);
    await refused(400, () => api.put(`/api/bugs/${b._id}/labels`, { labelIds: 'ui' }, admin.token));
    // The same labels again: nothing to record.
    await refused(200, () =>
      api.put(`/api/bugs/${b._id}/labels`, { labelIds: [labels.ui!._id, labels.Doomed!._id] }, dan.token),
    );

    const ids = async (query: string) => {
      const list = await api.get(`/api/bugs?project=PLAN&${query}`, admin.token);
      expect(list.status, JSON.stringify(list.body)).toBe(200);
      return list.body.bugs.map((bug: { _id: string }) => bug._id).sort();
    };
    expect(await ids('label=UI')).toEqual([a._id, b._id].sort());
    expect(await ids(`label=ui&label=${labels.regression!._id}`)).toEqual([a._id]);
    expect(await ids('label=ui,doomed')).toEqual([b._id]);
    expect(await ids('label=nothing-like-it')).toEqual([]);
    const paged = await api.get('/api/bugs?project=PLAN&label=ui&limit=1', admin.token);
    expect(paged.body.total).toBe(2);
  });

  it('shows a renamed label on its bugs at once, and takes a deleted one off each bug by an event', async () => {
    const [a, b] = bugs as [{ _id: string; key: string }, { _id: string; key: string }];
    const renamed = await api.call('PATCH', `/api/labels/${labels.ui!._id}`, {
      body: { name: 'Interface', color: '#0e8a16' },
      token: admin.token,
    });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    const page = await api.get(`/api/bugs/${a._id}`, admin.token);
    expect(page.body.labels[0]).toEqual({ _id: labels.ui!._id, name: 'Interface', color: '#0e8a16' });

    const gone = await api.call('DELETE', `/api/labels/${labels.Doomed!._id}`, { token: admin.token });
    expect(gone.status, JSON.stringify(gone.body)).toBe(200);
    const after = await api.get(`/api/bugs/${b._id}`, admin.token);
    expect(after.body.labels.map((l: { name: string }) => l.name)).toEqual(['Interface']);
    const history = await eventually(async () => {
      const h = await api.get(`/api/bugs/${b._id}/history`, admin.token);
      const removed = h.body.events?.find((e: { type: string }) => e.type === 'BugLabelsRemoved');
      expect(removed, JSON.stringify(h.body)).toBeTruthy();
      return removed;
    });
    expect(history.data).toMatchObject({ labelIds: [labels.Doomed!._id], labelDeleted: true });
    await refused(404, () => api.call('DELETE', `/api/labels/${labels.Doomed!._id}`, { token: admin.token }));
    // Its name is free again.
    const again = await api.post('/api/labels', { name: 'doomed', color: '#333333' }, admin.token);
    expect(again.status, JSON.stringify(again.body)).toBe(201);
    expect((await api.get('/api/bugs?project=PLAN&label=doomed', admin.token)).body.bugs).toEqual([]);
  });

  it('orders a column newest first until someone moves a card, then by the place it was given', async () => {
    const [b1, b2, b3, b4] = bugs.map((b) => b.key) as [string, string, string, string];
    expect(await order()).toEqual([b4, b3, b2, b1]);
    const byId = (key: string) => bugs.find((b) => b.key === key)!._id;
    // Before one bug: right before it.
    const moved = await api.put(`/api/bugs/${byId(b1)}/rank`, { before: byId(b3) }, admin.token);
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(await order()).toEqual([b4, b1, b3, b2]);
    // After one bug: right after it.
    expect((await api.put(`/api/bugs/${byId(b4)}/rank`, { after: byId(b3) }, dan.token)).status).toBe(200);
    expect(await order()).toEqual([b1, b3, b4, b2]);
    // Between two.
    expect(
      (await api.put(`/api/bugs/${byId(b2)}/rank`, { after: byId(b1), before: byId(b3) }, tess.token)).status,
    ).toBe(200);
    expect(await order()).toEqual([b1, b2, b3, b4]);
    // Already there: nothing appended.
    await refused(200, () => api.put(`/api/bugs/${byId(b2)}/rank`, { after: byId(b1), before: byId(b3) }, admin.token));
    // To the very end and the very top.
    expect((await api.put(`/api/bugs/${byId(b1)}/rank`, { after: byId(b4) }, admin.token)).status).toBe(200);
    expect(await order()).toEqual([b2, b3, b4, b1]);
    expect((await api.put(`/api/bugs/${byId(b1)}/rank`, { before: byId(b2) }, admin.token)).status).toBe(200);
    expect(await order()).toEqual([b1, b2, b3, b4]);
    // A new report comes in on top.
    const fifth = await api.post(
      '/api/bugs',
      {
        title: 'Fifth bug on the board',
        description: 'Newest of them all.',
        assignedTo: [dan.id],
        projectId: project._id,
      },
      tess.token,
    );
    expect(await order()).toEqual([fifth.body.bug.key, b1, b2, b3, b4]);
    const col = await column();
    expect(col.count).toBe(5);
    const ranks = col.bugs.map((b) => b.rank);
    expect([...ranks].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0))).toEqual(ranks);
    // The list sorts by it too.
    const listed = await api.get('/api/bugs?project=PLAN&sort=rank', admin.token);
    expect(listed.body.bugs.map((b: { key: string }) => b.key)).toEqual([fifth.body.bug.key, b1, b2, b3, b4]);
  });

  it('refuses a move by someone who may not, beside itself, or beside an unseen bug, appending nothing', async () => {
    const [a, b] = bugs as [{ _id: string; key: string }, { _id: string; key: string }];
    await refused(403, () => api.put(`/api/bugs/${a._id}/rank`, { before: b._id }, nia.token));
    await refused(403, () => api.put(`/api/bugs/${a._id}/rank`, { before: b._id }, olga.token));
    expect(
      (await refused(400, () => api.put(`/api/bugs/${a._id}/rank`, { before: a._id }, admin.token))).body.message,
    ).toBe(rankMessages.notBeside);
    await refused(400, () => api.put(`/api/bugs/${a._id}/rank`, {}, admin.token));
    await refused(404, () => api.put(`/api/bugs/${a._id}/rank`, { before: 'no-such-bug' }, admin.token));
    await refused(404, () => api.put('/api/bugs/no-such-bug/rank', { before: a._id }, admin.token));
    await refused(404, () => api.get(`/api/projects/NOPE/board`, admin.token));
  });
});
