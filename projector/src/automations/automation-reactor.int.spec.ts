import { type RecordedEvent, START } from '@bugtrail/eventstore';
import { createLogger } from '@bugtrail/platform';
import { countStoredEvents, http, registerUser, type TestUser } from '@bugtrail/testing';
import { startTestSystem, type TestSystem } from '@bugtrail/testing/system';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AutomationReactor } from './automation-reactor.js';

/**
 * Issue 38, the automation reactor (ADR 029) on a real system: a rule acts on a matching report
 * through the one write path, its changes carry `metadata.rule`, its run is recorded; it does not
 * act on what came before it, nor on what does not match; two rules that trigger each other stop
 * after five rule-made changes; running the same events again appends nothing.
 */
describe('the automation reactor', () => {
  let t: TestSystem;
  let api: ReturnType<typeof http>;
  let admin: TestUser;
  let tess: TestUser;
  let dan: TestUser;
  let web: { _id: string; key: string };
  let urgent: { _id: string };
  let triage = '';

  const report = async (title: string, priority: string, fields?: Record<string, unknown>) => {
    const answer = await api.post(
      '/api/bugs',
      {
        title,
        description: 'A bug for the rules to see.',
        priority,
        projectId: web._id,
        ...(fields ? { fields } : {}),
      },
      tess.token,
    );
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    return answer.body.bug as { _id: string };
  };
  const eventsOf = (bugId: string) => t.system.store.readStream(`bug-${bugId}`);
  /** Waits until the reactor has read everything appended so far. */
  const settled = async () => {
    // Until it has read everything, what it appended itself included: the checkpoint is read
    // first, so whatever it appended before saving it is in the newest event read after. (Not
    // headPosition: that stays below every transaction still open, and so may lag behind.)
    for (let i = 0; i < 400; i++) {
      const { rows } = await t.system.pool.query(`select position from projector.reactors where name = 'automations'`);
      const [newest] = await t.system.store.readAllBackwards({ limit: 1 });
      if (rows[0]?.position >= (newest?.position ?? '')) {
        // And the read models have it all (runs, notifications, the bugs' answers).
        expect(await t.system.changeFeed.waitFor(newest!.position, 30_000)).toBe(true);
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error('the automation reactor did not catch up');
  };

  beforeAll(async () => {
    t = await startTestSystem();
    api = http(t.url);
    admin = await registerUser(t.url, 'admin', 'Ada Admin');
    tess = await registerUser(t.url, 'tester', 'Tess Tester');
    dan = await registerUser(t.url, 'developer', 'Dan Developer');
    // A team project: reports come in without an assignee (its triage), for the rule to assign.
    web = (await api.post('/api/projects', { key: 'WEB', name: 'Web', access: 'team' }, admin.token)).body;
    for (const user of [tess, dan]) {
      expect(
        (await api.put(`/api/projects/${web._id}/members/${user.id}`, { role: 'member' }, admin.token)).status,
      ).toBe(200);
    }
    await api.post(
      `/api/projects/${web._id}/fields`,
      { name: 'Customer', type: 'select', options: ['Acme', 'Globex'] },
      admin.token,
    );
    urgent = (await api.post('/api/labels', { name: 'urgent', color: '#dc2626' }, admin.token)).body;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('acts on a matching report through the write path, by rule, and records the run', async () => {
    const before = await report('Reported before the rule', 'High', { customer: 'Acme' });
    const made = await api.post(
      '/api/automations',
      {
        name: 'Triage',
        projectId: web._id,
        when: {
          event: 'bug.reported',
          conditions: [
            { field: 'priority', op: 'is', value: 'High' },
            { field: 'customer', op: 'is', value: 'Acme' },
          ],
        },
        then: [
          { type: 'add_label', labelId: urgent._id },
          { type: 'assign', userIds: [dan.id] },
          { type: 'comment', body: 'Triaged: urgent for Acme.' },
        ],
      },
      admin.token,
    );
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    triage = made.body._id;
    const matching = await report('Checkout fails for Acme', 'High', { customer: 'Acme' });
    const otherCustomer = await report('Checkout fails for Globex', 'High', { customer: 'Globex' });
    const low = await report('A typo for Acme', 'Low', { customer: 'Acme' });
    await settled();

    const events = await eventsOf(matching._id);
    const byRule = events.filter((e) => e.metadata.rule);
    expect(byRule.map((e) => e.type)).toEqual(['BugLabelsAdded', 'DevelopersAssigned', 'CommentAdded']);
    for (const e of byRule) {
      expect(e.metadata.rule).toEqual({ _id: triage, name: 'Triage', depth: 1 });
      expect(e.metadata.actorId).toBe(admin.id);
    }
    for (const bug of [before, otherCustomer, low]) {
      expect(
        (await eventsOf(bug._id)).filter((e) => e.metadata.rule),
        bug._id,
      ).toEqual([]);
    }
    // The bug answers say so (once the read models have the rule's changes), and the run log does.
    expect(
      await t.system.changeFeed.waitFor((await t.system.store.readAllBackwards({ limit: 1 }))[0]!.position, 30_000),
    ).toBe(true);
    const bug = (await api.get(`/api/bugs/${matching._id}`, admin.token)).body;
    expect(bug.labels.map((l: { name: string }) => l.name)).toEqual(['urgent']);
    expect(bug.assignedTo.map((u: { _id: string }) => u._id)).toEqual([dan.id]);
    // History shows each change with its rule ("by rule Triage" on the bug page).
    const history = (await api.get(`/api/bugs/${matching._id}/history`, admin.token)).body.events as {
      type: string;
      actor: { _id: string };
      metadata: { rule?: { name: string } };
    }[];
    expect(history.filter((e) => e.metadata.rule?.name === 'Triage').map((e) => [e.type, e.actor._id])).toEqual([
      ['BugLabelsAdded', admin.id],
      ['DevelopersAssigned', admin.id],
      ['CommentAdded', admin.id],
    ]);
    const runs = (await api.get(`/api/automations/${triage}/runs`, admin.token)).body.runs;
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({
      bugId: matching._id,
      trigger: 'bug.reported',
      failed: false,
      outcomes: [
        { type: 'add_label', outcome: 'done' },
        { type: 'assign', outcome: 'done' },
        { type: 'comment', outcome: 'done' },
      ],
    });
  });

  it('simulates over the same stretch exactly what the live rule did, changing nothing', async () => {
    await settled();
    const { createdAt } = (await api.get(`/api/automations/${triage}`, admin.token)).body;
    const to = new Date(Date.now() + 60_000).toISOString();
    const before = await countStoredEvents(t.system.pool);
    const simulated = await api.post(`/api/automations/${triage}/simulate`, { from: createdAt, to }, admin.token);
    expect(simulated.status, JSON.stringify(simulated.body)).toBe(200);
    const runs = (await api.get(`/api/automations/${triage}/runs`, admin.token)).body.runs as {
      bugId: string;
      outcomes: { type: string }[];
    }[];
    const live = runs.flatMap((r) => r.outcomes.map((o) => [r.bugId, o.type]));
    const replayed = (simulated.body.actions as { bugId: string; action: { type: string } }[]).map((a) => [
      a.bugId,
      a.action.type,
    ]);
    expect(replayed).toEqual(live);
    expect(simulated.body.matched).toBe(runs.length);
    expect(await countStoredEvents(t.system.pool)).toBe(before);
    // Over all time it also sees the bug reported before the rule existed (which the live rule left alone).
    const ever = await api.post(`/api/automations/${triage}/simulate`, { from: '2000-01-01', to }, admin.token);
    expect(ever.body.matched).toBe(runs.length + 1);

    // A draft, before it is saved: the same words, the same answer.
    const rule = (await api.get(`/api/automations/${triage}`, admin.token)).body;
    const draft = await api.post(
      '/api/automations/simulate',
      { name: 'Draft', projectId: 'WEB', when: rule.when, then: rule.then, from: createdAt, to },
      admin.token,
    );
    expect(draft.status, JSON.stringify(draft.body)).toBe(200);
    expect(draft.body.matched).toBe(runs.length);
    // Who may not write it may not replay it; a window the wrong way round is a 400.
    expect((await api.post(`/api/automations/${triage}/simulate`, { from: createdAt, to }, tess.token)).status).toBe(
      404,
    );
    expect(
      (
        await api.post(
          '/api/automations/simulate',
          { name: 'D', when: rule.when, then: rule.then, from: createdAt, to },
          tess.token,
        )
      ).status,
    ).toBe(403);
    expect(
      (await api.post(`/api/automations/${triage}/simulate`, { from: to, to: createdAt }, admin.token)).status,
    ).toBe(400);
  });

  it('stops two rules that trigger each other after five rule-made changes', async () => {
    const pingPong = (name: string, from: string, to: string) =>
      api.post(
        '/api/automations',
        {
          name,
          projectId: web._id,
          when: { event: 'bug.field_changed', conditions: [{ field: 'severity', op: 'is', value: from }] },
          then: [{ type: 'set_field', field: 'severity', value: to }],
        },
        admin.token,
      );
    expect((await pingPong('Up', 'Major', 'Critical')).status).toBe(201);
    expect((await pingPong('Down', 'Critical', 'Major')).status).toBe(201);
    const bug = await report('Severity keeps changing', 'Medium');
    const edited = await api.put(`/api/bugs/${bug._id}`, { severity: 'Major' }, tess.token);
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    await settled();
    const byRule = (await eventsOf(bug._id)).filter((e) => e.metadata.rule);
    expect(byRule.map((e) => [e.metadata.rule!.name, e.metadata.rule!.depth])).toEqual([
      ['Up', 1],
      ['Down', 2],
      ['Up', 3],
      ['Down', 4],
      ['Up', 5],
    ]);
    // The bug's answer, once the read models have the last rule-made change too.
    expect(await t.system.changeFeed.waitFor(byRule.at(-1)!.position, 30_000)).toBe(true);
    expect((await api.get(`/api/bugs/${bug._id}`, admin.token)).body.severity).toBe('Critical');
  });

  it('tells the people a notify names, and pauses a rule after five failing runs in a row, telling the admins', async () => {
    const temp = (await api.post('/api/labels', { name: 'temp', color: '#64748b' }, admin.token)).body;
    const made = await api.post(
      '/api/automations',
      {
        name: 'Flag talk',
        projectId: web._id,
        when: { event: 'bug.commented', conditions: [] },
        then: [
          { type: 'notify', userIds: [dan.id] },
          { type: 'add_label', labelId: temp._id },
        ],
      },
      admin.token,
    );
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    // The label goes after the rule is written: each run's add_label fails from then on.
    expect((await api.delete(`/api/labels/${temp._id}`, admin.token)).status).toBe(200);
    const bug = await report('A bug people talk about', 'Low');
    for (let i = 1; i <= 6; i++) {
      const said = await api.post(`/api/bugs/${bug._id}/comments`, { body: `Comment ${i}` }, tess.token);
      expect(said.status, JSON.stringify(said.body)).toBe(201);
      await settled();
    }
    const runs = (await api.get(`/api/automations/${made.body._id}/runs`, admin.token)).body.runs as {
      failed: boolean;
      outcomes: { type: string; outcome: string; message?: string }[];
    }[];
    // Five runs, each telling Dan and failing to label; the sixth comment found the rule paused.
    expect(runs).toHaveLength(5);
    expect(runs.every((r) => r.failed && r.outcomes[0]!.outcome === 'done')).toBe(true);
    expect(runs[0]!.outcomes[1]).toMatchObject({ type: 'add_label', outcome: 'failed' });
    const rule = (await api.get(`/api/automations/${made.body._id}`, admin.token)).body;
    expect(rule).toMatchObject({ enabled: false, paused: true });
    const told = async (user: TestUser, kind: string) =>
      ((await api.get('/api/notifications', user.token)).body.notifications as { kind: string; text: string }[]).filter(
        (n) => n.kind === kind,
      );
    expect(await told(dan, 'rule')).toHaveLength(5);
    expect((await told(dan, 'rule'))[0]!.text).toMatch(/^Rule Flag talk: .*A bug people talk about$/);
    expect((await told(admin, 'rule_paused')).map((n) => n.text)).toEqual([
      expect.stringMatching(/^An automation rule was paused after 5 failing runs in a row: /),
    ]);
  });

  it('appends nothing new when the same events are run again (a crash before the checkpoint, a second leader)', async () => {
    await settled();
    const all: RecordedEvent[] = [];
    for (let from = START; ; ) {
      const page = await t.system.store.readAll(from, 500);
      if (page.length === 0) break;
      all.push(...page);
      from = page.at(-1)!.position;
    }
    const before = await countStoredEvents(t.system.pool);
    const again = new AutomationReactor(t.system.commands, t.system.pool, { logger: createLogger('silent') });
    await again.react(all);
    expect(await t.system.store.readAll(all.at(-1)!.position, 100)).toEqual([]);
    expect(await countStoredEvents(t.system.pool)).toBe(before);
  });
});
