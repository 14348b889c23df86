import { generalProject, projectMessages, userMessages } from '@bugtrail/domain';
import { expectRefused, http, registerAuditor, registerUser, SseReader, type TestUser } from '@bugtrail/testing';
import { startTestSystem, type TestSystem } from '@bugtrail/testing/system';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Issue 35, first slice: projects as streams, their keys given once, members, privacy on the
 * project itself, and the default project the first start makes. The real HTTP servers on a
 * real PostgreSQL; each refusal appends nothing.
 */
describe('projects: create, change, members, keys, privacy', () => {
  let t: TestSystem;
  let api: ReturnType<typeof http>;
  let admin: TestUser;
  let auditor: TestUser;
  let lee: TestUser;
  let tess: TestUser;
  let otto: TestUser;

  const refused = (status: number, call: () => Promise<{ status: number; body: any }>) =>
    expectRefused(t.system.pool, status, call);
  const patch = (id: string, body: unknown, token: string) => api.call('PATCH', `/api/projects/${id}`, { body, token });
  const create = (body: Record<string, unknown>, token = admin.token) => api.post('/api/projects', body, token);
  const keysOf = async (token: string) =>
    ((await api.get('/api/projects', token)).body.projects as { key: string }[]).map((p) => p.key);

  beforeAll(async () => {
    t = await startTestSystem();
    api = http(t.url);
    admin = await registerUser(t.url, 'admin', 'Ada Admin');
    auditor = await registerAuditor(t.url, admin.token, 'Audrey Auditor');
    lee = await registerUser(t.url, 'developer', 'Lee Lead');
    tess = await registerUser(t.url, 'tester', 'Tess Tester');
    otto = await registerUser(t.url, 'developer', 'Otto Outsider');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('starts with the default project, General (BUG), which everybody sees', async () => {
    const list = await api.get('/api/projects', tess.token);
    expect(list.status).toBe(200);
    expect(list.body.projects).toEqual([
      {
        _id: generalProject.id,
        key: 'BUG',
        name: 'General',
        description: generalProject.description,
        private: false,
        access: 'reporters',
        archived: false,
        createdAt: expect.any(String),
        members: [],
      },
    ]);
    expect((await api.get('/api/projects/BUG', otto.token)).body._id).toBe(generalProject.id);
    expect((await api.get(`/api/projects/${generalProject.id}`, otto.token)).body.key).toBe('BUG');
  });

  it('lets an admin create a project, answered whole and listed', async () => {
    const made = await create({ key: 'WEB', name: 'Web app', description: 'The website' });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body).toEqual({
      _id: expect.any(String),
      key: 'WEB',
      name: 'Web app',
      description: 'The website',
      private: false,
      access: 'reporters',
      archived: false,
      createdAt: expect.any(String),
      members: [],
    });
    expect(made.headers.get('x-event-position')).toBeTruthy();
    expect(await keysOf(tess.token)).toEqual(['BUG', 'WEB']);
    expect((await api.get('/api/projects/WEB', tess.token)).body).toEqual(made.body);
  });

  it('refuses a bad key, a taken key, a missing name, and anyone but an admin, appending nothing', async () => {
    for (const key of ['W', 'web', '1AB', 'WEB-2', 'ABCDEFGHIJK', 42]) {
      const bad = await refused(400, () => create({ key, name: 'X' }));
      expect(bad.body.message).toBe(projectMessages.keyInvalid);
    }
    const taken = await refused(409, () => create({ key: 'BUG', name: 'Another' }));
    expect(taken.body.message).toBe(projectMessages.keyTaken);
    await refused(409, () => create({ key: 'WEB', name: 'Another' }));
    expect((await refused(400, () => create({ key: 'API' }))).body.message).toBe(projectMessages.nameRequired);
    await refused(400, () => create({ key: 'API', name: 'Api', private: 'yes' }));
    await refused(400, () => create({ key: 'API', name: 'Api', access: 'everyone' }));
    await refused(403, () => create({ key: 'API', name: 'Api' }, lee.token));
    await refused(403, () => create({ key: 'API', name: 'Api' }, tess.token));
    await refused(403, () => create({ key: 'API', name: 'Api' }, auditor.token));
    await refused(401, () => api.post('/api/projects', { key: 'API', name: 'Api' }));
  });

  it('gives a key once when twenty admins race for it: one project, nineteen 409s', async () => {
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => create({ key: 'RACE', name: `Race ${i}` })));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(19);
    const { rows } = await t.system.pool.query(
      "select count(*)::int as n from eventstore.events where type = 'ProjectCreated' and data->>'key' = 'RACE'",
    );
    expect(rows[0].n).toBe(1);
  });

  it('hides a private project from non-members, and shows it to members, auditors and admins', async () => {
    const sec = (await create({ key: 'SEC', name: 'Security', private: true })).body;
    expect(sec.private).toBe(true);
    expect(await keysOf(otto.token)).not.toContain('SEC');
    expect(await keysOf(tess.token)).not.toContain('SEC');
    for (const path of ['/api/projects/SEC', `/api/projects/${sec._id}`]) {
      const hidden = await api.get(path, otto.token);
      expect(hidden.status).toBe(404);
      expect(hidden.body.message).toBe(projectMessages.notFound);
    }
    expect(await keysOf(auditor.token)).toContain('SEC');
    expect(await keysOf(admin.token)).toContain('SEC');
    const joined = await api.put(`/api/projects/${sec._id}/members/${tess.id}`, { role: 'member' }, admin.token);
    expect(joined.status, JSON.stringify(joined.body)).toBe(200);
    expect(joined.body.members).toEqual([
      { user: { _id: tess.id, name: 'Tess Tester', profileImageURL: null }, role: 'member' },
    ]);
    expect(await keysOf(tess.token)).toContain('SEC');
    expect((await api.get('/api/projects/SEC', tess.token)).body.members).toHaveLength(1);
    // A non-member changing it finds nothing there; a member who is not a lead may not.
    expect((await refused(404, () => patch(sec._id, { name: 'X' }, otto.token))).body.message).toBe(
      projectMessages.notFound,
    );
    await refused(404, () => api.put(`/api/projects/${sec._id}/members/${otto.id}`, { role: 'lead' }, otto.token));
    expect((await refused(403, () => patch(sec._id, { name: 'X' }, tess.token))).body.message).toBe(
      projectMessages.adminsAndLeads,
    );
    expect((await refused(403, () => patch(sec._id, { name: 'X' }, auditor.token))).body.message).toBe(
      userMessages.readOnlyRole,
    );
  });

  it('lets a lead rename and re-key the project; the old key keeps resolving and stays its own', async () => {
    const app = (await create({ key: 'APP', name: 'Mobile' })).body;
    expect((await api.put(`/api/projects/${app._id}/members/${lee.id}`, { role: 'lead' }, admin.token)).status).toBe(
      200,
    );
    const changed = await patch(app._id, { key: 'MOB', name: 'Mobile app', access: 'team' }, lee.token);
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body).toMatchObject({ key: 'MOB', name: 'Mobile app', access: 'team' });
    expect((await api.get('/api/projects/APP', tess.token)).body).toMatchObject({ _id: app._id, key: 'MOB' });
    expect((await api.get('/api/projects/MOB', tess.token)).body._id).toBe(app._id);
    // Nobody else may take APP, nor MOB, nor another project's current key.
    expect((await refused(409, () => create({ key: 'APP', name: 'Other' }))).body.message).toBe(
      projectMessages.keyTaken,
    );
    expect((await refused(409, () => patch(app._id, { key: 'WEB' }, lee.token))).body.message).toBe(
      projectMessages.keyTaken,
    );
    // Its own earlier key it may take back.
    expect((await patch(app._id, { key: 'APP' }, lee.token)).body.key).toBe('APP');
    expect((await api.get('/api/projects/MOB', tess.token)).body.key).toBe('APP');
    await refused(400, () => patch(app._id, { key: 'app' }, lee.token));
    await refused(400, () => patch(app._id, { name: '' }, lee.token));
    // Archiving and restoring are changes like any other.
    expect((await patch(app._id, { archived: true }, admin.token)).body.archived).toBe(true);
    expect((await patch(app._id, { archived: false, description: null }, admin.token)).body).toMatchObject({
      archived: false,
      description: '',
    });
  });

  it('keeps the last lead, refuses unknown people and non-members, and removes members', async () => {
    const api2 = (await create({ key: 'API', name: 'Public API' })).body;
    const members = `/api/projects/${api2._id}/members`;
    expect((await api.put(`${members}/${lee.id}`, { role: 'lead' }, admin.token)).status).toBe(200);
    expect((await refused(409, () => api.delete(`${members}/${lee.id}`, admin.token))).body.message).toBe(
      projectMessages.lastLead,
    );
    await refused(409, () => api.put(`${members}/${lee.id}`, { role: 'member' }, lee.token));
    expect(
      (await refused(404, () => api.put(`${members}/no-such-user`, { role: 'member' }, admin.token))).body.message,
    ).toBe(projectMessages.userNotFound);
    expect((await refused(404, () => api.delete(`${members}/${otto.id}`, lee.token))).body.message).toBe(
      projectMessages.memberNotFound,
    );
    expect(
      (await refused(400, () => api.put(`${members}/${otto.id}`, { role: 'owner' }, lee.token))).body.message,
    ).toBe(projectMessages.roleInvalid);
    await refused(404, () =>
      api.put(`/api/projects/no-such-project/members/${otto.id}`, { role: 'member' }, admin.token),
    );
    // The lead adds a second lead, who then removes the first.
    const both = await api.put(`${members}/${otto.id}`, { role: 'lead' }, lee.token);
    expect(both.body.members.map((m: { user: { name: string } }) => m.user.name)).toEqual([
      'Lee Lead',
      'Otto Outsider',
    ]);
    const left = await api.delete(`${members}/${lee.id}`, otto.token);
    expect(left.status, JSON.stringify(left.body)).toBe(200);
    expect(left.body.members).toEqual([
      { user: { _id: otto.id, name: 'Otto Outsider', profileImageURL: null }, role: 'lead' },
    ]);
    // Lee is no lead any more.
    await refused(403, () => patch(api2._id, { name: 'Lee was here' }, lee.token));
  });

  it('lets an admin choose the default project, by id or key, among those that exist', async () => {
    const web = (await api.get('/api/projects/WEB', admin.token)).body;
    const set = await api.put('/api/projects/default', { projectId: web._id }, admin.token);
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body).toEqual({ projectId: web._id });
    expect((await api.put('/api/projects/default', { projectId: 'BUG' }, admin.token)).body).toEqual({
      projectId: generalProject.id,
    });
    await refused(404, () => api.put('/api/projects/default', { projectId: 'NOPE' }, admin.token));
    // The default project works by the reporters' rules: a team project cannot become it, nor it a team project.
    const team = (await create({ key: 'TEAM', name: 'A team', access: 'team' })).body;
    const teamRefused = await refused(409, () =>
      api.put('/api/projects/default', { projectId: team._id }, admin.token),
    );
    expect(teamRefused.body.message).toBe(projectMessages.defaultKeepsReporters);
    await refused(409, () => patch(generalProject.id, { access: 'team' }, admin.token));
    expect((await patch(web._id, { access: 'team' }, admin.token)).body.access).toBe('team');
    await refused(403, () => api.put('/api/projects/default', { projectId: 'BUG' }, lee.token));
    await refused(400, () => api.put('/api/projects/default', {}, admin.token));
  });

  it('tells a private project’s changes over the live stream to its members only, a public one’s to all', async () => {
    const hidden = (await create({ key: 'LIVE', name: 'Live secret', private: true })).body;
    const open = (await create({ key: 'PUB', name: 'Live public' })).body;
    expect(
      (await api.put(`/api/projects/${hidden._id}/members/${tess.id}`, { role: 'member' }, admin.token)).status,
    ).toBe(200);
    const outsider = await SseReader.open(t.url, otto.token);
    const member = await SseReader.open(t.url, tess.token);
    const watcher = await SseReader.open(t.url, auditor.token);
    try {
      const from = { outsider: outsider.messages.length, member: member.messages.length };
      expect((await patch(hidden._id, { name: 'Live secret, renamed' }, admin.token)).status).toBe(200);
      expect((await patch(open._id, { name: 'Live public, renamed' }, admin.token)).status).toBe(200);
      const heard = (reader: SseReader, id: string, since = 0) =>
        reader.waitFor((m) => m.topics.includes(`project:${id}`), 20_000, since);
      await heard(member, hidden._id, from.member);
      await heard(watcher, hidden._id);
      // The public project's change comes after the private one's: once the outsider hears it, it would have heard both.
      await heard(outsider, open._id, from.outsider);
      expect(
        outsider.messages.slice(from.outsider).some((m) => m.topics.some((topic) => topic.includes(hidden._id))),
      ).toBe(false);
    } finally {
      outsider.close();
      member.close();
      watcher.close();
    }
  });
});
