import { relationMessages } from '@bugtrail/domain';
import { expectRefused, http, registerUser, type TestUser } from '@bugtrail/testing';
import { startTestSystem, type TestSystem } from '@bugtrail/testing/system';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Issue 36, relations and sub-bugs (api.md "Relations and sub-bugs"): both bugs show a relation,
 * loops of `blocks` and of parents are refused, a blocked bug cannot be closed (admins may go
 * past, and the history says so), a duplicate is closed as it is declared, and a related bug of
 * a project hidden from the reader is not named. The real HTTP servers on a real PostgreSQL.
 */
type Bug = { _id: string; key: string; status: string; title: string };
type Relation = { type: string; bug: { _id: string; key: string; status: string } };

describe('relations and sub-bugs', () => {
  let t: TestSystem;
  let api: ReturnType<typeof http>;
  let admin: TestUser;
  let tess: TestUser; // tester, reports everything
  let olga: TestUser; // another tester
  let dan: TestUser; // developer, assigned everywhere
  let project: { _id: string; key: string };
  let secret: { _id: string; key: string };
  const b: Bug[] = [];

  const refused = (status: number, call: () => Promise<{ status: number; body: any }>) =>
    expectRefused(t.system.pool, status, call);
  const report = async (title: string, projectId = project._id) => {
    const made = await api.post(
      '/api/bugs',
      { title, description: 'Something depends on something else.', assignedTo: [dan.id], projectId },
      tess.token,
    );
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    return made.body.bug as Bug;
  };
  const bug = async (id: string, token = admin.token) => {
    const got = await api.get(`/api/bugs/${id}`, token);
    expect(got.status, JSON.stringify(got.body)).toBe(200);
    return got.body as Bug & { relations: Relation[]; parent: Bug | null; subBugs: { total: number; closed: number } };
  };
  const relations = async (id: string, token = admin.token) =>
    (await bug(id, token)).relations.map((r) => `${r.type} ${r.bug.key}`).sort();
  const relate = (from: Bug, type: string, to: Bug, token = admin.token) =>
    api.post(`/api/bugs/${from._id}/relations`, { type, bugId: to._id }, token);
  const close = (which: Bug, token = dan.token, extra: Record<string, unknown> = {}) =>
    api.put(`/api/bugs/${which._id}/status`, { status: 'Closed', ...extra }, token);

  beforeAll(async () => {
    t = await startTestSystem();
    api = http(t.url);
    admin = await registerUser(t.url, 'admin', 'Ada Admin');
    tess = await registerUser(t.url, 'tester', 'Tess Tester');
    olga = await registerUser(t.url, 'tester', 'Olga Other');
    dan = await registerUser(t.url, 'developer', 'Dan Developer');
    project = (await api.post('/api/projects', { key: 'REL', name: 'Relations' }, admin.token)).body;
    secret = (await api.post('/api/projects', { key: 'SEC', name: 'Secret', private: true }, admin.token)).body;
    for (const who of [tess, dan]) {
      const added = await api.put(`/api/projects/${secret._id}/members/${who.id}`, { role: 'member' }, admin.token);
      expect(added.status, JSON.stringify(added.body)).toBe(200);
    }
    for (let i = 1; i <= 6; i++) b.push(await report(`Relation case number ${i}`));
  });
  afterAll(async () => {
    await t?.close();
  });

  it('shows a relation on both bugs, each its way, from the answer on', async () => {
    const [b1, b2] = b as [Bug, Bug];
    const made = await relate(b1, 'blocks', b2, tess.token);
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body.bug.relations).toEqual([
      {
        type: 'blocks',
        bug: expect.objectContaining({ _id: b2._id, key: b2.key, status: 'Open', title: 'Relation case number 2' }),
      },
    ]);
    expect(await relations(b1._id)).toEqual([`blocks ${b2.key}`]);
    expect(await relations(b2._id)).toEqual([`blocked_by ${b1.key}`]);
    // Said again, from either side: nothing new.
    await refused(200, () => relate(b2, 'blocked_by', b1));
    const list = await api.get(`/api/bugs?project=REL&sort=number`, admin.token);
    expect(list.body.bugs.find((x: Bug) => x._id === b2._id).relations).toHaveLength(1);
  });

  it('refuses a relation to itself and a loop of blocks (400 "That would make a cycle"), appending nothing', async () => {
    const [b1, b2, b3] = b as [Bug, Bug, Bug];
    for (const call of [
      () => relate(b1, 'blocks', b1),
      () => relate(b2, 'blocks', b1),
      () => relate(b1, 'blocked_by', b2),
    ]) {
      expect((await refused(400, call)).body.message).toBe(relationMessages.cycle);
    }
    expect((await relate(b2, 'blocks', b3)).status).toBe(201);
    expect((await refused(400, () => relate(b3, 'blocks', b1))).body.message).toBe(relationMessages.cycle);
    expect((await refused(400, () => relate(b1, 'blocked_by', b3))).body.message).toBe(relationMessages.cycle);
    // Not a loop: relates_to goes any way.
    expect((await relate(b3, 'relates_to', b1)).status).toBe(201);
    expect(await relations(b1._id)).toEqual([`blocks ${b2.key}`, `relates_to ${b3.key}`]);
  });

  it('refuses strangers, unknown types and bugs the caller cannot see', async () => {
    const [b1, , , b4] = b as [Bug, Bug, Bug, Bug];
    await refused(403, () => relate(b1, 'relates_to', b4, olga.token));
    await refused(400, () => api.post(`/api/bugs/${b1._id}/relations`, { type: 'causes', bugId: b4._id }, admin.token));
    await refused(400, () => api.post(`/api/bugs/${b1._id}/relations`, { type: 'blocks' }, admin.token));
    await refused(404, () => api.post(`/api/bugs/${b1._id}/relations`, { type: 'blocks', bugId: 'nope' }, admin.token));
    const hidden = await report('A bug in the secret project', secret._id);
    // Olga is no member of the secret project: for her its bug does not exist.
    const mine = await api.post(
      '/api/bugs',
      {
        title: 'Olga reports one too',
        description: 'Her own bug, in the public project.',
        assignedTo: [dan.id],
        projectId: project._id,
      },
      olga.token,
    );
    await refused(404, () => relate(mine.body.bug, 'relates_to', hidden, olga.token));
    // An admin may relate them; Olga's bug then names nothing of the secret one, to her.
    expect((await relate(mine.body.bug, 'relates_to', hidden)).status).toBe(201);
    expect((await bug(mine.body.bug._id, olga.token)).relations).toEqual([]);
    expect(JSON.stringify((await api.get('/api/bugs?project=REL', olga.token)).body)).not.toContain(hidden._id);
    expect(await relations(mine.body.bug._id, admin.token)).toEqual([`relates_to ${hidden.key}`]);
  });

  it('will not close a blocked bug until its blockers are, unless an admin goes past them', async () => {
    const [b1, b2, b3, , b5] = b as [Bug, Bug, Bug, Bug, Bug];
    expect((await refused(409, () => close(b2))).body.message).toBe(`Blocked by ${b1.key}: close it first`);
    // The edit form's status selector too.
    await refused(409, () => api.put(`/api/bugs/${b2._id}`, { status: 'Resolved' }, admin.token));
    // Two open blockers: both named.
    expect((await relate(b5, 'blocks', b3)).status).toBe(201);
    expect((await refused(409, () => close(b3))).body.message).toMatch(
      new RegExp(`^Blocked by (${b2.key} and ${b5.key}|${b5.key} and ${b2.key}): close them first$`),
    );
    // Only an admin goes past: a developer's override is no override.
    await refused(409, () => close(b3, dan.token, { override: true }));
    // The edit form goes past them too, for an admin who says so.
    await refused(409, () => api.put(`/api/bugs/${b3._id}`, { status: 'Resolved' }, admin.token));
    const past = await close(b3, admin.token, { override: true });
    expect(past.status, JSON.stringify(past.body)).toBe(200);
    const history = await api.get(`/api/bugs/${b3._id}/history`, admin.token);
    const closed = history.body.events.find((e: { type: string }) => e.type === 'BugStatusChanged');
    expect(closed.data.overriddenBlockers.sort()).toEqual([b2._id, b5._id].sort());
    // Its blocker closed, the bug closes.
    expect((await close(b1)).status).toBe(200);
    expect((await close(b2)).status).toBe(200);
    expect((await bug(b2._id)).relations.find((r) => r.type === 'blocked_by')?.bug.status).toBe('Closed');
  });

  it('closes a duplicate as it is declared, and both show it', async () => {
    const [b1, , , b4] = b as [Bug, Bug, Bug, Bug];
    const dup = await relate(b4, 'duplicate_of', b1, tess.token);
    expect(dup.status, JSON.stringify(dup.body)).toBe(201);
    expect(dup.body.bug.status).toBe('Closed');
    expect(await relations(b4._id)).toEqual([`duplicate_of ${b1.key}`]);
    expect(await relations(b1._id)).toContain(`duplicated_by ${b4.key}`);
  });

  it('removes a relation from either side, and 404s one that is not there', async () => {
    const [b1, , b3] = b as [Bug, Bug, Bug];
    const gone = await api.call('DELETE', `/api/bugs/${b1._id}/relations/${b3._id}?type=relates_to`, {
      token: admin.token,
    });
    expect(gone.status, JSON.stringify(gone.body)).toBe(200);
    expect(await relations(b3._id)).not.toContain(`relates_to ${b1.key}`);
    expect(await relations(b1._id)).not.toContain(`relates_to ${b3.key}`);
    await refused(404, () =>
      api.call('DELETE', `/api/bugs/${b1._id}/relations/${b3._id}?type=relates_to`, { token: admin.token }),
    );
    await refused(400, () =>
      api.call('DELETE', `/api/bugs/${b1._id}/relations/${b3._id}?type=near`, { token: admin.token }),
    );
  });

  it('makes sub-bugs: the parent counts them and their progress, loops refused', async () => {
    const [, , , , b5, b6] = b as [Bug, Bug, Bug, Bug, Bug, Bug];
    const [child1, child2] = [await report('First sub-bug of six'), await report('Second sub-bug of six')];
    for (const child of [child1, child2]) {
      const set = await api.put(`/api/bugs/${child._id}/parent`, { parentId: b6._id }, tess.token);
      expect(set.status, JSON.stringify(set.body)).toBe(200);
      expect(set.body.bug.parent).toMatchObject({ _id: b6._id, key: b6.key, status: 'Open' });
    }
    expect((await bug(b6._id)).subBugs).toEqual({ total: 2, closed: 0 });
    const listed = await api.get(`/api/bugs?parent=${b6._id}`, admin.token);
    expect(listed.body.bugs.map((x: Bug) => x._id).sort()).toEqual([child1._id, child2._id].sort());
    expect((await close(child1)).status).toBe(200);
    expect((await bug(b6._id)).subBugs).toEqual({ total: 2, closed: 1 });
    expect((await bug(child2._id)).parent?.key).toBe(b6.key);
    // A parent that is itself, or its own sub-bug (at any depth), is a loop.
    expect(
      (await refused(400, () => api.put(`/api/bugs/${b6._id}/parent`, { parentId: b6._id }, admin.token))).body.message,
    ).toBe(relationMessages.cycle);
    expect((await api.put(`/api/bugs/${b5._id}/parent`, { parentId: child2._id }, admin.token)).status).toBe(200);
    expect(
      (await refused(400, () => api.put(`/api/bugs/${b6._id}/parent`, { parentId: b5._id }, admin.token))).body.message,
    ).toBe(relationMessages.cycle);
    await refused(404, () => api.put(`/api/bugs/${b5._id}/parent`, { parentId: 'nope' }, admin.token));
    await refused(403, () => api.put(`/api/bugs/${b5._id}/parent`, { parentId: null }, olga.token));
    // Same parent again: nothing; none: it leaves.
    await refused(200, () => api.put(`/api/bugs/${child2._id}/parent`, { parentId: b6._id }, admin.token));
    expect(
      (await api.put(`/api/bugs/${child2._id}/parent`, { parentId: null }, admin.token)).body.bug.parent,
    ).toBeNull();
    expect((await bug(b6._id)).subBugs).toEqual({ total: 1, closed: 1 });
    // A renamed parent is renamed on its sub-bugs too.
    await api.put(`/api/bugs/${b6._id}`, { title: 'The parent, renamed' }, admin.token);
    expect((await bug(child1._id)).parent?.title).toBe('The parent, renamed');
  });

  it('tells a blocked bug’s assignees when its last open blocker closes, and a duplicate’s reporter follows the original', async () => {
    const [x, y, z] = [
      await report('Blocker one of three'),
      await report('Blocked by two'),
      await report('Blocker two of three'),
    ];
    expect((await relate(x, 'blocks', y)).status).toBe(201);
    expect((await relate(y, 'blocked_by', z)).status).toBe(201);
    const told = async (user: TestUser, kind: string, bugId: string) => {
      const list = await api.get('/api/notifications', user.token);
      expect(list.status, JSON.stringify(list.body)).toBe(200);
      return list.body.notifications.filter(
        (n: { kind: string; bugId: string }) => n.kind === kind && n.bugId === bugId,
      );
    };
    expect((await close(x, admin.token)).status).toBe(200);
    expect(await told(dan, 'unblocked', y._id)).toEqual([]);
    expect((await close(z, admin.token)).status).toBe(200);
    const unblocked = await told(dan, 'unblocked', y._id);
    expect(unblocked).toHaveLength(1);
    expect(unblocked[0].text).toContain('is no longer blocked');

    const mine = await api.post(
      '/api/bugs',
      {
        title: 'Olga saw the same thing',
        description: 'It is the very bug Tess reported.',
        assignedTo: [dan.id],
        projectId: project._id,
      },
      olga.token,
    );
    expect((await relate(mine.body.bug, 'duplicate_of', y)).status).toBe(201);
    const comment = await api.post(`/api/bugs/${y._id}/comments`, { body: 'Fixed on main, please check.' }, dan.token);
    expect(comment.status, JSON.stringify(comment.body)).toBe(201);
    expect(await told(olga, 'commented', y._id)).toHaveLength(1);
  });
});
