import { automationMessages, userMessages } from '@bugtrail/domain';
import {
  countStoredEvents,
  expectRefused,
  http,
  registerAuditor,
  registerUser,
  type TestUser,
} from '@bugtrail/testing';
import { startTestSystem, type TestSystem } from '@bugtrail/testing/system';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Issue 38, automation rules (api.md "Automation rules"): admins write any rule, a project's
 * leads that project's rules; the words are checked against what exists, and a refusal appends
 * nothing; reads show each person the rules they may write. Real HTTP servers, a real PostgreSQL.
 */
describe('automation rules', () => {
  let t: TestSystem;
  let api: ReturnType<typeof http>;
  let admin: TestUser;
  let lead: TestUser; // a tester who leads WEB
  let tess: TestUser; // a tester, member of WEB
  let dan: TestUser; // developer
  let auditor: TestUser;
  let web: { _id: string; key: string };
  let ops: { _id: string; key: string };
  let urgent: { _id: string };
  let ruleId = '';

  const refused = (status: number, call: () => Promise<{ status: number; body: any }>) =>
    expectRefused(t.system.pool, status, call);
  const rule = (over: Record<string, unknown> = {}) => ({
    name: 'Triage',
    projectId: web._id,
    when: {
      event: 'bug.reported',
      conditions: [
        { field: 'priority', op: 'is', value: 'High' },
        { field: 'customer', op: 'in', value: ['Acme', 'Globex'] },
      ],
    },
    then: [
      { type: 'add_label', labelId: 'urgent' },
      { type: 'assign', userIds: [dan.id] },
      { type: 'comment', body: 'Triaged by a rule' },
    ],
    ...over,
  });

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
    const field = await api.post(
      `/api/projects/${web._id}/fields`,
      { name: 'Customer', type: 'select', options: ['Acme', 'Globex', 'Initech'] },
      admin.token,
    );
    expect(field.status, JSON.stringify(field.body)).toBe(201);
    urgent = (await api.post('/api/labels', { name: 'urgent', color: '#dc2626' }, admin.token)).body;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('lets an admin write a rule for a project, keeping a label named by name by its id', async () => {
    const made = await api.post('/api/automations', rule(), admin.token);
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body).toMatchObject({
      name: 'Triage',
      projectId: web._id,
      enabled: true,
      paused: false,
      when: { event: 'bug.reported' },
      then: [
        { type: 'add_label', labelId: urgent._id },
        { type: 'assign', userIds: [dan.id] },
        { type: 'comment', body: 'Triaged by a rule' },
      ],
    });
    ruleId = made.body._id;
    const read = await api.get(`/api/automations/${ruleId}`, admin.token);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ _id: ruleId, createdBy: admin.id, then: made.body.then });
    // A project named by its key; a rule of every project (admins).
    expect(
      (await api.post('/api/automations', rule({ projectId: 'web', name: 'By key' }), admin.token)).body.projectId,
    ).toBe(web._id);
    const everywhere = await api.post(
      '/api/automations',
      rule({ projectId: undefined, name: 'Everywhere', when: { event: 'bug.commented', conditions: [] } }),
      admin.token,
    );
    expect(everywhere.status, JSON.stringify(everywhere.body)).toBe(201);
    expect(everywhere.body.projectId).toBeNull();
  });

  it('lets a lead write their project’s rules only; others are refused, appending nothing', async () => {
    const mine = await api.post('/api/automations', rule({ name: 'Lead’s' }), lead.token);
    expect(mine.status, JSON.stringify(mine.body)).toBe(201);
    expect(
      (await refused(403, () => api.post('/api/automations', rule({ projectId: ops._id }), lead.token))).body.message,
    ).toBe(automationMessages.notYourProject);
    expect(
      (await refused(403, () => api.post('/api/automations', rule({ projectId: null }), lead.token))).body.message,
    ).toBe(automationMessages.cannotManage);
    await refused(403, () => api.post('/api/automations', rule(), tess.token));
    await refused(403, () => api.post('/api/automations', rule(), dan.token));
    expect((await refused(403, () => api.post('/api/automations', rule(), auditor.token))).body.message).toBe(
      userMessages.readOnlyRole,
    );
    await refused(404, () => api.post('/api/automations', rule({ projectId: 'NOPE' }), admin.token));
    await refused(401, () => api.post('/api/automations', rule(), ''));
  });

  it('refuses unknown events, fields, operators and actions, and values of the wrong type, naming each', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ when: { event: 'bug.exploded' } }, automationMessages.unknownEvent('bug.exploded'), 'when.event'],
      [
        { when: { event: 'bug.reported', conditions: [{ field: 'colour', op: 'is', value: 'red' }] } },
        automationMessages.unknownField('colour'),
        'when.conditions.0.field',
      ],
      [
        { when: { event: 'bug.reported', conditions: [{ field: 'priority', op: 'like', value: 'High' }] } },
        automationMessages.unknownOp('like'),
        'when.conditions.0.op',
      ],
      [
        { when: { event: 'bug.reported', conditions: [{ field: 'customer', op: 'is', value: 'Umbrella' }] } },
        'Customer must be one of: Acme, Globex, Initech',
        'when.conditions.0.value',
      ],
      [{ then: [{ type: 'launch_rocket' }] }, automationMessages.unknownAction('launch_rocket'), 'then.0.type'],
      [{ then: [{ type: 'add_label', labelId: 'nope' }] }, automationMessages.unknownLabel('nope'), 'then.0.labelId'],
      [{ then: [{ type: 'assign', userIds: [tess.id] }] }, automationMessages.unknownUser(tess.id), 'then.0.userIds'],
      [
        { then: [{ type: 'set_field', field: 'customer', value: 7 }] },
        'Customer must be one of: Acme, Globex, Initech',
        'then.0.value',
      ],
      [{ then: [] }, automationMessages.actionsRequired, 'then'],
      [{ name: '' }, automationMessages.nameRequired, 'name'],
    ];
    for (const [over, message, field] of cases) {
      const answer = await refused(400, () => api.post('/api/automations', rule(over), admin.token));
      expect(answer.body.message, field).toBe(message);
      expect(answer.body.details?.[0]?.field, message).toBe(field);
    }
  });

  it('shows admins and auditors every rule, a lead their project’s, anyone else none', async () => {
    const names = async (user: TestUser) =>
      ((await api.get('/api/automations', user.token)).body.automations as { name: string }[]).map((r) => r.name);
    expect(await names(admin)).toEqual(['Triage', 'By key', 'Everywhere', 'Lead’s']);
    expect(await names(auditor)).toEqual(['Triage', 'By key', 'Everywhere', 'Lead’s']);
    expect(await names(lead)).toEqual(['Triage', 'By key', 'Lead’s']);
    expect(await names(tess)).toEqual([]);
    expect(await names(dan)).toEqual([]);
    expect((await api.get(`/api/automations/${ruleId}`, tess.token)).status).toBe(404);
    expect((await api.get(`/api/automations/${ruleId}/runs`, dan.token)).status).toBe(404);
    expect((await api.get(`/api/automations/${ruleId}/runs`, lead.token)).body).toEqual({ runs: [], nextCursor: null });
    expect((await api.get('/api/automations/nope', admin.token)).status).toBe(404);
  });

  it('changes only what is sent; a lead may change their project’s rule, not another’s; delete is once', async () => {
    const off = await api.patch(`/api/automations/${ruleId}`, { enabled: false }, lead.token);
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    expect(off.body).toMatchObject({ enabled: false, name: 'Triage' });
    // The same again changes nothing: nothing is appended.
    const before = await countStoredEvents(t.system.pool);
    expect((await api.patch(`/api/automations/${ruleId}`, { enabled: false }, admin.token)).status).toBe(200);
    expect(await countStoredEvents(t.system.pool)).toBe(before);
    await refused(400, () =>
      api.patch(
        `/api/automations/${ruleId}`,
        { when: { event: 'bug.reported', conditions: [{ field: 'severity', op: 'is', value: 'Huge' }] } },
        admin.token,
      ),
    );
    const everywhere = (
      (await api.get('/api/automations', admin.token)).body.automations as { _id: string; name: string }[]
    ).find((r) => r.name === 'Everywhere')!;
    await refused(404, () => api.patch(`/api/automations/${everywhere._id}`, { name: 'Mine' }, lead.token));
    await refused(404, () => api.delete(`/api/automations/${everywhere._id}`, tess.token));
    const gone = await api.delete(`/api/automations/${ruleId}`, admin.token);
    expect(gone.status).toBe(200);
    expect((await api.get(`/api/automations/${ruleId}`, admin.token)).status).toBe(404);
    await refused(404, () => api.patch(`/api/automations/${ruleId}`, { enabled: true }, admin.token));
  });
});
