import { http, registerUser, type TestUser } from '@bugtrail/testing';
import { startTestSystem, type TestSystem } from '@bugtrail/testing/system';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** Archiving a bug (issue 34's proof command) over real HTTP: who may, what it hides, what brings it back. */
describe('PUT /api/bugs/{id}/archived', () => {
  let t: TestSystem;
  let api: ReturnType<typeof http>;
  let admin: TestUser;
  let tester: TestUser;
  let otherTester: TestUser;
  let developer: TestUser;

  const eventCount = async () =>
    Number((await t.system.pool.query('select count(*)::int as n from eventstore.events')).rows[0].n);
  async function refused(status: number, message: string, call: () => Promise<{ status: number; body: any }>) {
    const before = await eventCount();
    const answer = await call();
    expect(answer.status, JSON.stringify(answer.body)).toBe(status);
    expect(answer.body.message).toBe(message);
    expect(await eventCount()).toBe(before);
  }
  const report = async (title: string) => {
    const answer = await api.post(
      '/api/bugs',
      { title, description: `${title}, every time`, priority: 'High', severity: 'Major', assignedTo: [developer.id] },
      tester.token,
    );
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    return answer.body.bug._id as string;
  };
  const setStatus = async (id: string, status: string) =>
    expect((await api.put(`/api/bugs/${id}/status`, { status }, developer.token)).status).toBe(200);
  const listed = async (query = '') => {
    const answer = await api.get(`/api/bugs?limit=50${query}`, admin.token);
    expect(answer.status).toBe(200);
    return {
      ids: (answer.body.bugs as { _id: string }[]).map((b) => b._id),
      total: Number(answer.headers.get('x-total-count')),
    };
  };
  const closedCount = async () => (await api.get('/api/bugs/admin-dashboard', admin.token)).body.statistics.closedBugs;

  beforeAll(async () => {
    t = await startTestSystem();
    api = http(t.url);
    admin = await registerUser(t.url, 'admin');
    tester = await registerUser(t.url, 'tester');
    otherTester = await registerUser(t.url, 'tester');
    developer = await registerUser(t.url, 'developer');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('puts a closed bug out of lists, counts and dashboards; its page stays, and restoring brings it back', async () => {
    const kept = await report('Stays in the lists');
    const id = await report('Archived once closed');
    await setStatus(id, 'Closed');
    const before = { list: await listed(), closed: await closedCount() };
    expect(before.list.ids).toContain(id);

    const archived = await api.put(`/api/bugs/${id}/archived`, { archived: true }, admin.token);
    expect(archived.status, JSON.stringify(archived.body)).toBe(200);
    expect(archived.body.message).toBe('Bug archived');
    expect(archived.body.bug).toMatchObject({ _id: id, status: 'Closed', archived: true });
    expect(archived.headers.get('etag')).toBe(`"${archived.body.bug.version}"`);

    const after = await listed();
    expect(after.ids).not.toContain(id);
    expect(after.ids).toContain(kept);
    expect(after.total).toBe(before.list.total - 1);
    expect(await closedCount()).toBe(before.closed - 1);
    expect(await listed('&archived=true')).toEqual({ ids: [id], total: 1 });
    const page = await api.get(`/api/bugs/${id}`, tester.token);
    expect(page.status).toBe(200);
    expect(page.body.archived).toBe(true);
    // Archiving again changes nothing.
    const again = await api.put(`/api/bugs/${id}/archived`, { archived: true }, admin.token);
    expect(again.body.bug.version).toBe(archived.body.bug.version);

    const restored = await api.put(`/api/bugs/${id}/archived`, { archived: false }, admin.token);
    expect(restored.status).toBe(200);
    expect(restored.body).toMatchObject({ message: 'Bug restored', bug: { archived: false } });
    expect((await listed()).ids).toContain(id);
    expect(await closedCount()).toBe(before.closed);
  });

  it('brings a reopened bug back by itself', async () => {
    const id = await report('Reopened from the archive');
    await setStatus(id, 'Closed');
    expect((await api.put(`/api/bugs/${id}/archived`, { archived: true }, admin.token)).status).toBe(200);
    await setStatus(id, 'Open');
    expect((await api.get(`/api/bugs/${id}`, admin.token)).body.archived).toBe(false);
    expect((await listed()).ids).toContain(id);
    expect((await listed('&archived=true')).ids).not.toContain(id);
  });

  it('refuses others, open bugs, bad input and unknown bugs, and appends nothing', async () => {
    const open = await report('Still open');
    const closed = await report('Closed, not theirs');
    await setStatus(closed, 'Closed');
    const put = (id: string, body: unknown, user: TestUser) => () =>
      api.put(`/api/bugs/${id}/archived`, body, user.token);
    await refused(409, 'Only closed bugs can be archived', put(open, { archived: true }, admin));
    await refused(403, 'Only admins can archive bugs', put(closed, { archived: true }, tester));
    await refused(403, 'Only admins can archive bugs', put(closed, { archived: true }, developer));
    await refused(403, "You don't have permission to view this bug", put(closed, { archived: true }, otherTester));
    await refused(404, 'Bug not found', put('0123456789abcdef01234567', { archived: true }, admin));
    const bad = await api.put(`/api/bugs/${closed}/archived`, { archived: 'yes' }, admin.token);
    expect(bad.status).toBe(400);
    expect(bad.body.details?.[0]?.field).toBe('archived');
    expect((await api.put(`/api/bugs/${closed}/archived`, { archived: true }, '')).status).toBe(401);
    expect((await api.get('/api/bugs?archived=maybe', admin.token)).status).toBe(400);
  });

  it('is in the OpenAPI document', async () => {
    const doc = (await api.get('/api/openapi.json')).body;
    expect(doc.paths['/api/bugs/{id}/archived']?.put).toBeDefined();
  });
});
