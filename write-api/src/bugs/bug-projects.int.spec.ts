import { readFile } from 'node:fs/promises';
import { bugProjectMessages, generalProject, projectMessages } from '@bugtrail/domain';
import { type NewEvent, PostgresEventStore } from '@bugtrail/eventstore';
import {
  createTestDatabase,
  eventually,
  expectRefused,
  http,
  registerAuditor,
  registerUser,
  type TestUser,
  type ThrowawayDatabase,
} from '@bugtrail/testing';
import { startTestSystem, type TestSystem } from '@bugtrail/testing/system';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateAll } from '../../../cli/src/system.js';

/**
 * Issue 35, bugs in projects: every bug belongs to a project and has a key there (`WEB-7`)
 * beside its number (#42); keys are given once, per project, without gaps; a new project key
 * or a move gives a bug a new key while the old ones keep naming it. The real HTTP servers on
 * a real PostgreSQL; each refusal appends nothing.
 */

const report = (title: string, developerId: string, extra: Record<string, unknown> = {}) => ({
  title,
  description: 'Steps to reproduce it are in the comments.',
  priority: 'High',
  severity: 'Major',
  assignedTo: [developerId],
  ...extra,
});

describe('bugs in projects: keys, the default project, moves', () => {
  let t: TestSystem;
  let api: ReturnType<typeof http>;
  let admin: TestUser;
  let dev: TestUser;
  let tess: TestUser;
  let tom: TestUser;
  let web: { _id: string; key: string };
  let vault: { _id: string; key: string };

  const refused = (status: number, call: () => Promise<{ status: number; body: any }>) =>
    expectRefused(t.system.pool, status, call);
  const byKey = (key: string, token: string) => api.get(`/api/bugs/by-key/${key}`, token);

  beforeAll(async () => {
    t = await startTestSystem();
    api = http(t.url);
    admin = await registerUser(t.url, 'admin', 'Ada Admin');
    dev = await registerUser(t.url, 'developer', 'Dan Developer');
    tess = await registerUser(t.url, 'tester', 'Tess Tester');
    tom = await registerUser(t.url, 'tester', 'Tom Outsider');
    web = (await api.post('/api/projects', { key: 'WEB', name: 'Web app' }, admin.token)).body;
    vault = (await api.post('/api/projects', { key: 'SEC', name: 'Security', private: true }, admin.token)).body;
    for (const user of [tess, dev]) {
      const added = await api.call('PUT', `/api/projects/${vault._id}/members/${user.id}`, {
        body: { role: 'member' },
        token: admin.token,
      });
      expect(added.status, JSON.stringify(added.body)).toBe(200);
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  it('puts a report without projectId (the spec’s clients) in General, keyed BUG-n beside its number', async () => {
    const made = await api.post('/api/bugs', report('Checkout button unresponsive', dev.id), tess.token);
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const bug = made.body.bug;
    expect(bug.projectId).toBe(generalProject.id);
    expect(bug.project).toEqual({ _id: generalProject.id, key: 'BUG', name: 'General' });
    expect(bug.key).toBe(`BUG-${bug.number}`);
    expect((await api.get(`/api/bugs/${bug._id}`, tess.token)).body).toMatchObject({
      key: bug.key,
      project: bug.project,
    });
    expect((await byKey(bug.key, tess.token)).body._id).toBe(bug._id);
  });

  it('numbers 20 reports sent at once into one project 1 to 20: no duplicate, no gap', async () => {
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        api.post('/api/bugs', report(`Layout breaks at width ${i}`, dev.id, { projectId: web._id }), tess.token),
      ),
    );
    for (const answer of answers) expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    const keys = answers
      .map((a) => a.body.bug.key as string)
      .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
    expect(keys).toEqual(Array.from({ length: 20 }, (_, i) => `WEB-${i + 1}`));
    for (const answer of answers) {
      expect(answer.body.bug.project).toEqual({ _id: web._id, key: 'WEB', name: 'Web app' });
    }
    // Installation-wide numbers go on across projects, each given once.
    expect(new Set(answers.map((a) => a.body.bug.number)).size).toBe(20);
    const listed = await api.get('/api/bugs?limit=100', admin.token);
    const webKeys = (listed.body.bugs as { key: string }[]).filter((b) => b.key.startsWith('WEB-'));
    expect(webKeys).toHaveLength(20);
  });

  it('takes a project by key too, and refuses one the reporter cannot see or that is archived, appending nothing', async () => {
    const made = await api.post(
      '/api/bugs',
      report('Password reset mail is late', dev.id, { projectId: 'SEC' }),
      tess.token,
    );
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body.bug.key).toBe('SEC-1');
    // Tom is no member of the private project: for him it does not exist.
    const hidden = await refused(404, () =>
      api.post('/api/bugs', report('Password reset mail is late', dev.id, { projectId: vault._id }), tom.token),
    );
    expect(hidden.body.message).toBe(projectMessages.notFound);
    await refused(404, () =>
      api.post('/api/bugs', report('Password reset mail is late', dev.id, { projectId: 'NOPE' }), tess.token),
    );
    const old = (await api.post('/api/projects', { key: 'OLD', name: 'Old app' }, admin.token)).body;
    expect(
      (await api.call('PATCH', `/api/projects/${old._id}`, { body: { archived: true }, token: admin.token })).status,
    ).toBe(200);
    const archived = await refused(409, () =>
      api.post('/api/bugs', report('Old app crashes at start', dev.id, { projectId: old._id }), tess.token),
    );
    expect(archived.body.message).toBe(bugProjectMessages.archived);
    await refused(400, () =>
      api.post('/api/bugs', report('Old app crashes at start', dev.id, { projectId: 42 }), tess.token),
    );
  });

  it('shows a new project key on its bugs, and the old keys keep naming them', async () => {
    const first = (await byKey('WEB-1', tess.token)).body;
    const rekeyed = await api.call('PATCH', `/api/projects/${web._id}`, {
      body: { key: 'SHOP', name: 'Shop' },
      token: admin.token,
    });
    expect(rekeyed.status, JSON.stringify(rekeyed.body)).toBe(200);
    const now = await api.get(`/api/bugs/${first._id}`, tess.token);
    expect(now.body.key).toBe('SHOP-1');
    expect(now.body.project).toEqual({ _id: web._id, key: 'SHOP', name: 'Shop' });
    expect((await byKey('WEB-1', tess.token)).body._id).toBe(first._id);
    expect((await byKey('SHOP-1', tess.token)).body._id).toBe(first._id);
    expect((await byKey('shop-1', tess.token)).body._id).toBe(first._id);
    // The next report continues the project's numbers under its new key.
    const next = await api.post(
      '/api/bugs',
      report('Cart total rounds wrong', dev.id, { projectId: web._id }),
      tess.token,
    );
    expect(next.body.bug.key).toBe('SHOP-21');
    // Lists take the project by its key (any it has had, any case) or id, several at once.
    const inProject = async (query: string) => {
      const answer = await api.get(`/api/bugs?limit=100&${query}`, admin.token);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      return { keys: (answer.body.bugs as { key: string }[]).map((b) => b.key), total: answer.body.total };
    };
    const shop = await inProject('project=SHOP');
    expect(shop.keys).toHaveLength(21);
    expect(shop.total).toBe(21);
    expect(shop.keys.every((k) => k.startsWith('SHOP-'))).toBe(true);
    for (const query of ['project=web', `project=${web._id}`]) expect((await inProject(query)).keys).toEqual(shop.keys);
    const both = await inProject('project=SHOP&project=BUG');
    expect(both.total).toBe(22);
    expect((await inProject('project=NOPE')).total).toBe(0);
    for (const missing of ['SHOP-99', 'SHOP-0', 'SHOP', 'NOPE-1', '42']) {
      expect((await byKey(missing, tess.token)).status).toBe(404);
    }
  });

  it('moves a bug: a new key in the new project, the old key still names it; refusals append nothing', async () => {
    const bug = (await api.post('/api/bugs', report('Token leaks into the logs', dev.id), tess.token)).body.bug;
    // Tess reported it but is no member of General: only admins (or a reporter in both) move it.
    const denied = await refused(403, () =>
      api.call('PUT', `/api/bugs/${bug._id}/project`, { body: { projectId: vault._id }, token: tess.token }),
    );
    expect(denied.body.message).toBe(bugProjectMessages.cannotMove);
    await refused(404, () =>
      api.call('PUT', `/api/bugs/${bug._id}/project`, { body: { projectId: 'NOPE' }, token: admin.token }),
    );
    await refused(400, () => api.call('PUT', `/api/bugs/${bug._id}/project`, { body: {}, token: admin.token }));
    await refused(404, () =>
      api.call('PUT', '/api/bugs/no-such-bug/project', { body: { projectId: vault._id }, token: admin.token }),
    );
    const moved = await api.call('PUT', `/api/bugs/${bug._id}/project`, {
      body: { projectId: vault._id },
      token: admin.token,
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body.message).toBe(bugProjectMessages.moved);
    expect(moved.body.bug).toMatchObject({ projectId: vault._id, key: 'SEC-2', number: bug.number });
    expect((await byKey(bug.key, admin.token)).body.key).toBe('SEC-2');
    expect((await byKey('SEC-2', tess.token)).body._id).toBe(bug._id);
    // Moving it where it is changes nothing.
    const again = await refused(200, () =>
      api.call('PUT', `/api/bugs/${bug._id}/project`, { body: { projectId: 'SEC' }, token: admin.token }),
    );
    expect(again.body.bug.key).toBe('SEC-2');
    // The private project's keys name nothing for a non-member, old keys included.
    expect((await byKey('SEC-2', tom.token)).status).toBe(404);
    // Its history records the move.
    const history = await api.get(`/api/bugs/${bug._id}/history`, admin.token);
    expect(JSON.stringify(history.body)).toContain('BugMovedToProject');
  });
});

describe('a private project’s bugs do not exist for those outside it', () => {
  let t: TestSystem;
  let api: ReturnType<typeof http>;
  let admin: TestUser;
  let auditor: TestUser;
  let dev: TestUser;
  let tess: TestUser;
  let tom: TestUser;
  let vault: { _id: string };
  let secret: { _id: string; number: number; key: string };
  let open: { _id: string };

  beforeAll(async () => {
    t = await startTestSystem();
    api = http(t.url);
    admin = await registerUser(t.url, 'admin', 'Ada Admin');
    auditor = await registerAuditor(t.url, admin.token, 'Audrey Auditor');
    dev = await registerUser(t.url, 'developer', 'Dan Developer');
    tess = await registerUser(t.url, 'tester', 'Tess Tester');
    tom = await registerUser(t.url, 'tester', 'Tom Outsider');
    vault = (await api.post('/api/projects', { key: 'SEC', name: 'Security', private: true }, admin.token)).body;
    for (const user of [tess, dev]) {
      await api.call('PUT', `/api/projects/${vault._id}/members/${user.id}`, {
        body: { role: 'member' },
        token: admin.token,
      });
    }
    secret = (
      await api.post(
        '/api/bugs',
        report('Session token printed in access logs', dev.id, { projectId: vault._id }),
        tess.token,
      )
    ).body.bug;
    open = (await api.post('/api/bugs', report('Session banner overlaps the menu', dev.id), tom.token)).body.bug;
    expect(secret.key).toBe('SEC-1');
  });
  afterAll(async () => {
    await t?.close();
  });

  const addressed = (bug: { _id: string; number: number; key: string }) => [
    `/api/bugs/${bug._id}`,
    `/api/bugs/by-number/${bug.number}`,
    `/api/bugs/by-key/${bug.key}`,
    `/api/bugs/${bug._id}/history`,
    `/api/bugs/${bug._id}/comments`,
  ];
  const listedIds = async (path: string, token: string) => {
    const answer = await api.get(path, token);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return { ids: (answer.body.bugs as { _id: string }[]).map((b) => b._id), body: answer.body };
  };

  it('answers 404 to a non-member wherever the bug is addressed, and the whole bug to members, admins and auditors', async () => {
    for (const path of addressed(secret)) {
      const hidden = await api.get(path, tom.token);
      expect(hidden.status, path).toBe(404);
      expect(JSON.stringify(hidden.body)).not.toContain('Session token');
      for (const user of [tess, dev, admin, auditor]) expect((await api.get(path, user.token)).status, path).toBe(200);
    }
  });

  it('leaves it out of a non-member’s lists, totals and searches, and keeps it in a member’s', async () => {
    const byProject = await listedIds('/api/bugs/all-viewable?limit=50&project=SEC', tom.token);
    expect(byProject.ids).toEqual([]);
    expect(byProject.body.total).toBe(0);
    expect((await listedIds('/api/bugs/all-viewable?limit=50&project=SEC', tess.token)).ids).toEqual([secret._id]);
    const theirs = await listedIds('/api/bugs/all-viewable?limit=50', tom.token);
    expect(theirs.ids).toEqual([open._id]);
    expect(theirs.body.total).toBe(1);
    // The summary counts what Tom may list (from the counters, less the hidden project's).
    expect(theirs.body.statusSummary).toMatchObject({ all: 1, open: 1 });
    for (const q of ['Session', 'SEC-1', `%23${secret.number}`]) {
      expect((await listedIds(`/api/bugs/all-viewable?q=${q}`, tom.token)).ids).not.toContain(secret._id);
    }
    const members = await listedIds('/api/bugs/all-viewable?limit=50', tess.token);
    expect(members.ids.sort()).toEqual([secret._id, open._id].sort());
    expect(members.body.total).toBe(2);
    expect((await listedIds('/api/bugs/all-viewable?q=SEC-1', tess.token)).ids).toEqual([secret._id]);
    expect(members.body.statusSummary).toMatchObject({ all: 2, open: 2 });
    expect((await listedIds('/api/bugs?limit=50', admin.token)).body.total).toBe(2);
  });

  it('hides a member’s own report from them once they leave the project', async () => {
    const removed = await api.call('DELETE', `/api/projects/${vault._id}/members/${tess.id}`, { token: admin.token });
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    expect((await api.get(`/api/bugs/${secret._id}`, tess.token)).status).toBe(404);
    const own = await listedIds('/api/bugs?limit=50', tess.token);
    expect(own.ids).toEqual([]);
    expect(own.body.statusSummary).toMatchObject({ all: 0 });
    const dashboard = await api.get('/api/bugs/tester-dashboard', tess.token);
    expect(dashboard.status).toBe(200);
    expect(JSON.stringify(dashboard.body)).not.toContain(secret._id);
    expect(JSON.stringify(dashboard.body)).not.toContain('Session token');
  });
});

type Fixture = {
  streams: { streamId: string; events: NewEvent[] }[];
  bugNumbers: { bugId: string; number: number }[];
};

describe('a store written before projects', () => {
  let database: ThrowawayDatabase;
  let t: TestSystem;
  let fixture: Fixture;

  beforeAll(async () => {
    fixture = JSON.parse(await readFile(new URL('./fixtures/store-before-projects.json', import.meta.url), 'utf8'));
    database = await createTestDatabase();
    const pool = new pg.Pool({ connectionString: database.url });
    try {
      await migrateAll(pool);
      const store = new PostgresEventStore(pool);
      for (const stream of fixture.streams) await store.append(stream.streamId, stream.events, 'no_stream');
      for (const { bugId, number } of fixture.bugNumbers) {
        await pool.query('insert into write_api.bug_numbers (bug_id, number) values ($1, $2)', [bugId, number]);
      }
      await pool.query("select setval('write_api.bug_number_seq', 2)");
    } finally {
      await pool.end();
    }
    t = await startTestSystem({ databaseUrl: database.url });
  });
  afterAll(async () => {
    await t?.close();
    await database?.drop();
  });

  it('puts every old bug in General as of its report, keyed by its number, and goes on after them', async () => {
    const api = http(t.url);
    const admin = await registerUser(t.url, 'admin', 'Ada Admin');
    const [a, b, c] = fixture.streams.filter((s) => s.streamId.startsWith('bug-')).map((s) => s.streamId.slice(4));
    // The first start numbered the old bug before serving; the read models follow a moment later.
    // What the last look saw, said when the read models never catch up (to tell a slow machine from a lost event).
    let seen: unknown = null;
    await eventually(async () => {
      const answer = await api.get(`/api/bugs/${c}`, admin.token);
      seen = {
        status: answer.status,
        number: answer.body?.number,
        key: answer.body?.key,
        version: answer.body?.version,
      };
      return answer.body?.number === 3 || null;
    }).catch(async (error: unknown) => {
      const { rows } = await t.system.pool
        .query('select name, position, version from projector.checkpoints order by name')
        .catch(() => ({ rows: [] as unknown[] }));
      throw new Error(`the old bug never showed number 3: ${JSON.stringify({ seen, checkpoints: rows })} (${error})`);
    });
    expect((await api.get('/api/bugs/by-key/BUG-1', admin.token)).body._id).toBe(a);
    expect((await api.get('/api/bugs/by-key/BUG-2', admin.token)).body._id).toBe(b);
    // The bug from before numbers took the next number at the first start, and its key with it.
    const old = await api.get(`/api/bugs/${c}`, admin.token);
    expect(old.body).toMatchObject({
      number: 3,
      key: 'BUG-3',
      projectId: generalProject.id,
      project: { _id: generalProject.id, key: 'BUG', name: 'General' },
    });
    // Time travel shows it in General as of its report.
    const then = await api.get(`/api/bugs/${a}/history?at=2025-03-01T10:00:00.000Z`, admin.token);
    expect(then.status, JSON.stringify(then.body)).toBe(200);
    expect(then.body).toMatchObject({ key: 'BUG-1', projectId: generalProject.id });
    // A new report goes on after the old numbers, in General as in the whole installation.
    const dev = await registerUser(t.url, 'developer', 'Dee Developer');
    const made = await api.post('/api/bugs', report('Checkout button unresponsive', dev.id), admin.token);
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body.bug).toMatchObject({ number: 4, key: 'BUG-4' });
  });
});
