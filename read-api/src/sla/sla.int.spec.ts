import { slaMessages, userMessages } from '@bugtrail/domain';
import { silentLogger } from '@bugtrail/platform';
import { listBugs, SlaBreaches } from '@bugtrail/projector';
import { eventually, expectRefused, http, registerAuditor, registerUser, type TestUser } from '@bugtrail/testing';
import { startTestSystem, type TestSystem } from '@bugtrail/testing/system';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Issue 38, SLA policies (api.md "Automation rules"): who may write them and what is refused,
 * the `sla` every bug answer carries, at-risk and breached lists, a breach told once as an event
 * that notifies the assignees, and compliance per policy measured over the past as soon as a
 * policy is written. Real HTTP servers, a real PostgreSQL.
 */
describe('SLA policies', () => {
  let t: TestSystem;
  let api: ReturnType<typeof http>;
  let admin: TestUser;
  let lead: TestUser; // a tester who leads WEB
  let tess: TestUser; // a tester, member of WEB
  let dan: TestUser; // developer
  let auditor: TestUser;
  let web: { _id: string; key: string };
  let ops: { _id: string; key: string };

  const refused = (status: number, call: () => Promise<{ status: number; body: any }>) =>
    expectRefused(t.system.pool, status, call);
  const report = async (over: Record<string, unknown> = {}) => {
    const made = await api.post(
      '/api/bugs',
      {
        title: 'Checkout total is wrong',
        description: 'Rounds down.',
        priority: 'High',
        projectId: web._id,
        assignedTo: [dan.id],
        ...over,
      },
      tess.token,
    );
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    return made.body.bug;
  };
  const plus = (at: string, seconds: number) => new Date(Date.parse(at) + seconds * 1000).toISOString();

  beforeAll(async () => {
    t = await startTestSystem();
    api = http(t.url);
    admin = await registerUser(t.url, 'admin', 'Ada Admin');
    lead = await registerUser(t.url, 'tester', 'Lea Lead');
    tess = await registerUser(t.url, 'tester', 'Tess Tester');
    dan = await registerUser(t.url, 'developer', 'Dan Developer');
    auditor = await registerAuditor(t.url, admin.token);
    web = (await api.post('/api/projects', { key: 'WEB', name: 'Web' }, admin.token)).body;
    ops = (await api.post('/api/projects', { key: 'OPS', name: 'Ops' }, admin.token)).body;
    for (const [user, role] of [
      [lead, 'lead'],
      [tess, 'member'],
    ] as const) {
      expect((await api.put(`/api/projects/${web._id}/members/${user.id}`, { role }, admin.token)).status).toBe(200);
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  it('refuses bad policies and those the caller may not write, appending nothing', async () => {
    const good = { name: 'Urgent', conditions: [{ field: 'priority', op: 'is', value: 'High' }], respondWithin: '4h' };
    const bad = await refused(400, () => api.post('/api/sla', { ...good, respondWithin: '4 hours' }, admin.token));
    expect(bad.body.message).toBe(slaMessages.duration('respondWithin'));
    expect(bad.body.details[0].field).toBe('respondWithin');
    await refused(400, () => api.post('/api/sla', { ...good, respondWithin: '0h' }, admin.token));
    await refused(400, () => api.post('/api/sla', { ...good, respondWithin: 4 }, admin.token));
    await refused(400, () => api.post('/api/sla', { ...good, respondWithin: '400d' }, admin.token));
    const none = await refused(400, () => api.post('/api/sla', { name: 'Nothing', conditions: [] }, admin.token));
    expect(none.body.message).toBe(slaMessages.targetRequired);
    const unknown = await refused(400, () =>
      api.post('/api/sla', { ...good, conditions: [{ field: 'colour', op: 'is', value: 'red' }] }, admin.token),
    );
    expect(unknown.body.details[0].field).toBe('conditions.0.field');
    const wrongType = await refused(400, () =>
      api.post('/api/sla', { ...good, conditions: [{ field: 'priority', op: 'is', value: 'Soon' }] }, admin.token),
    );
    expect(wrongType.body.details[0].field).toBe('conditions.0.value');
    await refused(400, () => api.post('/api/sla', { ...good, name: '' }, admin.token));

    await refused(403, () => api.post('/api/sla', good, dan.token));
    const auditorRefused = await refused(403, () => api.post('/api/sla', good, auditor.token));
    expect(auditorRefused.body.message).toBe(userMessages.readOnlyRole);
    // A lead writes their project's policies, not those of every project nor of another project.
    const all = await refused(403, () => api.post('/api/sla', good, lead.token));
    expect(all.body.message).toBe(slaMessages.cannotManage);
    const other = await refused(403, () => api.post('/api/sla', { ...good, projectId: ops._id }, lead.token));
    expect(other.body.message).toBe(slaMessages.notYourProject);
    await refused(404, () => api.post('/api/sla', { ...good, projectId: 'NOPE' }, admin.token));
  });

  it('gives every bug answer the SLA of the first policy that holds for it', async () => {
    const global = await api.post(
      '/api/sla',
      {
        name: 'Urgent',
        conditions: [{ field: 'priority', op: 'is', value: 'High' }],
        respondWithin: '4h',
        resolveWithin: '3d',
      },
      admin.token,
    );
    expect(global.status, JSON.stringify(global.body)).toBe(201);
    expect(global.body).toMatchObject({ name: 'Urgent', projectId: null, respondWithin: '4h', resolveWithin: '3d' });
    // The project's own policy comes before the policy of every project; its lead may write it (by key).
    const own = await api.post(
      '/api/sla',
      {
        name: 'Web critical',
        projectId: 'web',
        conditions: [{ field: 'severity', op: 'is', value: 'Critical' }],
        respondWithin: '30m',
      },
      lead.token,
    );
    expect(own.status, JSON.stringify(own.body)).toBe(201);
    expect(own.body.projectId).toBe(web._id);

    const high = await report();
    expect(high.sla).toMatchObject({
      policy: { _id: global.body._id, name: 'Urgent' },
      respondBy: plus(high.createdAt, 4 * 3600),
      resolveBy: plus(high.createdAt, 3 * 86400),
      breached: [],
      atRisk: false,
    });
    const critical = await report({ severity: 'Critical' });
    expect(critical.sla).toMatchObject({ policy: { name: 'Web critical' }, resolveBy: null });
    expect(critical.sla.respondBy).toBe(plus(critical.createdAt, 30 * 60));
    const low = await report({ priority: 'Low' });
    expect(low.sla).toBeNull();

    // Reads say the same; a change of priority changes the policy, leaving Open is the response.
    expect((await api.get(`/api/bugs/${high._id}`, tess.token)).body.sla).toEqual(high.sla);
    const raised = await api.put(`/api/bugs/${low._id}`, { priority: 'High', version: low.version }, admin.token);
    expect(raised.status, JSON.stringify(raised.body)).toBe(200);
    expect((await api.get(`/api/bugs/${low._id}`, tess.token)).body.sla.policy.name).toBe('Urgent');
    const started = await api.put(`/api/bugs/${high._id}/status`, { status: 'In Progress' }, dan.token);
    expect(started.status).toBe(200);
    const answered = (await api.get(`/api/bugs/${high._id}`, dan.token)).body;
    expect(answered.sla.respondedAt).toBe(answered.respondedAt);
    expect(answered.sla.respondedAt).not.toBeNull();
    expect(answered.sla.breached).toEqual([]);

    // Everyone reads the policies, in the order they are tried; a change follows on the bugs at once.
    const listed = await api.get('/api/sla', dan.token);
    expect(listed.body.policies.map((p: { name: string }) => p.name)).toEqual(['Web critical', 'Urgent']);
    const changed = await api.patch(
      `/api/sla/${global.body._id}`,
      { name: 'Urgent bugs', respondWithin: '2h' },
      admin.token,
    );
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    const moved = await eventually(async () => {
      const bug = (await api.get(`/api/bugs/${high._id}`, tess.token)).body;
      return bug.sla?.policy.name === 'Urgent bugs' ? bug : null;
    });
    expect(moved.sla.respondBy).toBe(plus(high.createdAt, 2 * 3600));
    await refused(400, () =>
      api.patch(`/api/sla/${global.body._id}`, { respondWithin: null, resolveWithin: null }, admin.token),
    );
    await refused(404, () => api.patch(`/api/sla/${global.body._id}`, { name: 'Mine' }, lead.token));
    await refused(404, () => api.patch('/api/sla/nope', { name: 'x' }, admin.token));

    // Deleted: its bugs meet no policy (none other holds for them).
    expect((await api.delete(`/api/sla/${global.body._id}`, admin.token)).status).toBe(200);
    const gone = await eventually(async () => {
      const bug = (await api.get(`/api/bugs/${high._id}`, tess.token)).body;
      return bug.sla === null ? bug : null;
    });
    expect(gone.sla).toBeNull();
    expect((await api.get(`/api/sla/${global.body._id}`, admin.token)).status).toBe(404);
    expect((await api.delete(`/api/sla/${own.body._id}`, lead.token)).status).toBe(200);
  });

  it('measures a new policy over the past at once, and lists breached and at-risk bugs', async () => {
    const opsBug = (title: string) =>
      api
        .post(
          '/api/bugs',
          { title, description: 'Nightly job.', priority: 'Medium', projectId: ops._id, assignedTo: [dan.id] },
          tess.token,
        )
        .then((r) => {
          expect(r.status, JSON.stringify(r.body)).toBe(201);
          return r.body.bug;
        });
    const [a, b, c] = [await opsBug('Backup failed'), await opsBug('Disk almost full'), await opsBug('Cron drift')];
    expect((await api.put(`/api/bugs/${a._id}/status`, { status: 'In Progress' }, admin.token)).status).toBe(200);
    // Written after the bugs: it holds for them at once, and its 1s to resolve has passed for all three.
    const policy = await api.post(
      '/api/sla',
      { name: 'Ops', projectId: ops._id, respondWithin: '1h', resolveWithin: '1s' },
      admin.token,
    );
    expect(policy.status, JSON.stringify(policy.body)).toBe(201);
    const figures = await eventually(async () => {
      const m = await api.get(`/api/metrics/sla?project=${ops.key}`, auditor.token);
      const ops_ = m.body.policies?.find((p: { _id: string }) => p._id === policy.body._id);
      return ops_?.bugs === 3 && ops_.resolve.breached === 3 ? ops_ : null;
    });
    // Per bug: every one missed its 1s to resolve.
    expect(figures).toMatchObject({ met: 0, breached: 3, pending: 0, compliance: 0 });
    expect(figures.respond).toEqual({ met: 1, breached: 0, pending: 2, compliance: 1 });
    expect(figures.resolve).toEqual({ met: 0, breached: 3, pending: 0, compliance: 0 });
    // A window before the bugs: no bug.
    const before = await api.get(`/api/metrics/sla?project=${ops.key}&to=${a.createdAt}`, admin.token);
    expect(before.body.policies.find((p: { _id: string }) => p._id === policy.body._id).bugs).toBe(0);
    expect((await api.get('/api/metrics/sla', dan.token)).status).toBe(403);
    expect((await api.get('/api/metrics/sla?from=2026-02-01&to=2026-01-01', admin.token)).status).toBe(400);

    const breached = await api.get(`/api/bugs?project=${ops.key}&sla=breached`, admin.token);
    expect(breached.status).toBe(200);
    expect(breached.body.bugs.map((bug: { _id: string }) => bug._id).sort()).toEqual([a._id, b._id, c._id].sort());
    expect(breached.body.bugs[0].sla.breached).toEqual(['resolve']);
    expect((await api.get(`/api/bugs?sla=soon`, admin.token)).status).toBe(400);

    // At risk: the last quarter of a window, read at a chosen moment (the query's clock).
    const list = (now: Date) =>
      listBugs(t.system.db, {
        scope: { kind: 'all' },
        filters: { projects: [web._id], sla: 'at_risk', now: now.toISOString() },
      });
    const risky = await api.post('/api/sla', { name: 'Web day', projectId: web._id, resolveWithin: '1d' }, admin.token);
    expect(risky.status).toBe(201);
    const bug = await report({ priority: 'Low' });
    expect(bug.sla.policy.name).toBe('Web day');
    const at = (hours: number) => new Date(Date.parse(bug.createdAt) + hours * 3600_000);
    const ids = async (now: Date) => (await list(now)).bugs.map((x) => x._id);
    expect(await ids(at(17))).not.toContain(bug._id);
    expect(await ids(at(19))).toContain(bug._id);
    expect(await ids(at(25))).not.toContain(bug._id);
    expect((await api.delete(`/api/sla/${risky.body._id}`, admin.token)).status).toBe(200);
  });

  it('tells a breach once, as an event of the bug that notifies its assignees', async () => {
    const policy = await api.post(
      '/api/sla',
      {
        name: 'Blink',
        projectId: web._id,
        conditions: [{ field: 'module', op: 'is', value: 'billing' }],
        respondWithin: '1s',
      },
      admin.token,
    );
    expect(policy.status, JSON.stringify(policy.body)).toBe(201);
    const bug = await report({ module: 'billing' });
    expect(bug.sla.policy.name).toBe('Blink');
    const clock = new SlaBreaches(t.system.commands, t.system.pool, { logger: silentLogger });
    const later = new Date(Date.parse(bug.createdAt) + 5000);
    // The clock may already have told it (the system's own runs every few seconds): once, either way.
    await eventually(async () => {
      await clock.runOnce(later);
      const history = (await api.get(`/api/bugs/${bug._id}/history`, admin.token)).body;
      return history.events?.some((e: { type: string }) => e.type === 'BugSlaBreached') ? true : null;
    });
    expect(await clock.runOnce(later)).toBe(0);
    const history = (await api.get(`/api/bugs/${bug._id}/history`, admin.token)).body;
    const told = history.events.filter((e: { type: string }) => e.type === 'BugSlaBreached');
    expect(told).toHaveLength(1);
    expect(told[0].data).toMatchObject({ policyId: policy.body._id, target: 'respond', dueAt: bug.sla.respondBy });
    const notice = await eventually(async () => {
      const inbox = (await api.get('/api/notifications', dan.token)).body;
      return inbox.notifications?.find(
        (n: { kind: string; bugId: string }) => n.kind === 'sla_breached' && n.bugId === bug._id,
      );
    });
    expect(notice.text).toBe(`#${bug.number} Checkout total is wrong was not responded to in time (SLA Blink)`);
    // Its answer says so once the real clock has passed the due time too.
    const shown = await eventually(async () => {
      const answer = (await api.get(`/api/bugs/${bug._id}`, dan.token)).body;
      return answer.sla.breached.length > 0 ? answer : null;
    });
    expect(shown.sla.breached).toEqual(['respond']);
  });
});
