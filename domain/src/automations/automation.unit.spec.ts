import { deciderSpec } from '@bugtrail/testing';
import { describe, expect, it } from 'vitest';
import type { Actor } from '../core/event.js';
import { userMessages } from '../users/user-vocabulary.js';
import { type AutomationCommand, type AutomationEvent, automationDecider, canManageAutomation } from './automation.js';
import { createAutomationBody, simulateAutomationBody, updateAutomationBody } from './automation.schemas.js';
import {
  type ActionContext,
  actionIssues,
  automationMessages,
  type BugFacts,
  conditionHolds,
  conditionIssues,
  conditionsHold,
  triggerOf,
} from './automation-vocabulary.js';

const admin: Actor = { id: 'admin-1', role: 'admin' };
const lead: Actor = { id: 'lead-1', role: 'tester' };
const dev: Actor = { id: 'dev-1', role: 'developer' };
const auditor: Actor = { id: 'aud-1', role: 'auditor' };
const now = '2026-12-07T10:00:00.000Z';

const facts: BugFacts = {
  priority: 'High',
  severity: 'Major',
  status: 'Open',
  module: 'Checkout',
  labels: [{ id: 'l-urgent', name: 'urgent' }],
  project: { id: 'p-web', key: 'WEB' },
  fields: { customer: 'Acme', story_points: 5, platforms: ['iOS', 'Web'], found_on: '2026-11-30' },
};

const context: ActionContext = {
  projectId: 'p-web',
  users: [
    { id: 'dev-1', role: 'developer' },
    { id: 'tess', role: 'tester' },
  ],
  milestones: [
    { id: 'm-1', projectId: 'p-web' },
    { id: 'm-ops', projectId: 'p-ops' },
  ],
  fields: new Map([
    ['customer', [{ type: 'select', name: 'Customer', options: ['Acme', 'Globex'] }]],
    ['story_points', [{ type: 'number', name: 'Story points', options: [] }]],
    ['platforms', [{ type: 'multi_select', name: 'Platforms', options: ['iOS', 'Web', 'Android'] }]],
    ['found_on', [{ type: 'date', name: 'Found on', options: [] }]],
  ]),
  labels: [{ id: 'l-urgent', name: 'urgent' }],
  projects: [{ id: 'p-web', key: 'WEB' }],
};

describe('automation conditions', () => {
  it('names the trigger of each bug event, and none for others', () => {
    expect(triggerOf('BugReported')).toBe('bug.reported');
    expect(triggerOf('BugStatusChanged')).toBe('bug.status_changed');
    expect(triggerOf('BugFieldsChanged')).toBe('bug.field_changed');
    expect(triggerOf('BugDetailsEdited')).toBe('bug.field_changed');
    expect(triggerOf('BugLabelsAdded')).toBe('bug.labeled');
    expect(triggerOf('CommentAdded')).toBe('bug.commented');
    expect(triggerOf('PullRequestLinked')).toBe('bug.code_linked');
    expect(triggerOf('BugOverdue')).toBe('bug.due_passed');
    expect(triggerOf('BugRanked')).toBeNull();
  });

  it('compares scalars by is, is_not, contains and in, ignoring case', () => {
    expect(conditionHolds({ field: 'priority', op: 'is', value: 'high' }, facts)).toBe(true);
    expect(conditionHolds({ field: 'priority', op: 'is_not', value: 'High' }, facts)).toBe(false);
    expect(conditionHolds({ field: 'severity', op: 'in', value: ['Critical', 'Major'] }, facts)).toBe(true);
    expect(conditionHolds({ field: 'module', op: 'contains', value: 'check' }, facts)).toBe(true);
    expect(conditionHolds({ field: 'module', op: 'contains', value: 'search' }, facts)).toBe(false);
    expect(conditionHolds({ field: 'project', op: 'is', value: 'WEB' }, facts)).toBe(true);
    expect(conditionHolds({ field: 'project', op: 'is', value: 'p-web' }, facts)).toBe(true);
    expect(conditionHolds({ field: 'status', op: 'is', value: 'Closed' }, facts)).toBe(false);
  });

  it('reads lists as lists: labels and multi-selects contain, a missing value is none', () => {
    expect(conditionHolds({ field: 'labels', op: 'contains', value: 'urgent' }, facts)).toBe(true);
    expect(conditionHolds({ field: 'labels', op: 'contains', value: 'l-urgent' }, facts)).toBe(true);
    expect(conditionHolds({ field: 'labels', op: 'is_not', value: 'urgent' }, facts)).toBe(false);
    expect(conditionHolds({ field: 'platforms', op: 'contains', value: ['iOS', 'Web'] }, facts)).toBe(true);
    expect(conditionHolds({ field: 'platforms', op: 'contains', value: ['iOS', 'Android'] }, facts)).toBe(false);
    expect(conditionHolds({ field: 'platforms', op: 'in', value: ['Android', 'Web'] }, facts)).toBe(true);
    expect(conditionHolds({ field: 'story_points', op: 'is', value: 5 }, facts)).toBe(true);
    expect(conditionHolds({ field: 'story_points', op: 'in', value: [1, 2, 3] }, facts)).toBe(false);
    expect(conditionHolds({ field: 'tier', op: 'is', value: 'Gold' }, facts)).toBe(false);
    expect(conditionHolds({ field: 'tier', op: 'is_not', value: 'Gold' }, facts)).toBe(true);
    const noModule = { ...facts, module: null };
    expect(conditionHolds({ field: 'module', op: 'contains', value: 'c' }, noModule)).toBe(false);
  });

  it('holds when every condition does (none: always)', () => {
    expect(conditionsHold([], facts)).toBe(true);
    expect(
      conditionsHold(
        [
          { field: 'priority', op: 'is', value: 'High' },
          { field: 'customer', op: 'is', value: 'Acme' },
        ],
        facts,
      ),
    ).toBe(true);
    expect(
      conditionsHold(
        [
          { field: 'priority', op: 'is', value: 'High' },
          { field: 'customer', op: 'is', value: 'Globex' },
        ],
        facts,
      ),
    ).toBe(false);
  });

  it('refuses unknown fields and values their field cannot hold, naming the place', () => {
    const issues = conditionIssues(
      [
        { field: 'priority', op: 'is', value: 'Urgent' },
        { field: 'colour', op: 'is', value: 'red' },
        { field: 'story_points', op: 'is', value: 'five' },
        { field: 'found_on', op: 'is', value: 'yesterday' },
        { field: 'customer', op: 'in', value: ['Acme', 'Initech'] },
        { field: 'severity', op: 'in', value: 'Major' },
        { field: 'priority', op: 'is', value: ['High', 'Low'] },
        { field: 'labels', op: 'contains', value: 'nope' },
        { field: 'project', op: 'is', value: 'OPS' },
        { field: 'story_points', op: 'contains', value: 5 },
        { field: 'platforms', op: 'contains', value: ['iOS', 'Web'] },
        { field: 'labels', op: 'is', value: ['urgent'] },
      ],
      context,
    );
    expect(issues).toEqual([
      { field: 'when.conditions.0.value', message: automationMessages.oneOf('priority', ['Low', 'Medium', 'High']) },
      { field: 'when.conditions.1.field', message: 'Unknown field: colour' },
      { field: 'when.conditions.2.value', message: 'Story points must be a number' },
      { field: 'when.conditions.3.value', message: 'Found on must be a date (YYYY-MM-DD)' },
      { field: 'when.conditions.4.value', message: 'Customer must be one of: Acme, Globex' },
      { field: 'when.conditions.5.value', message: automationMessages.inNeedsList('severity') },
      { field: 'when.conditions.6.value', message: automationMessages.listNeedsIn('priority') },
      { field: 'when.conditions.7.value', message: 'Unknown label: nope' },
      { field: 'when.conditions.8.value', message: 'Unknown project: OPS' },
      { field: 'when.conditions.9.value', message: automationMessages.containsNeedsText('Story points') },
    ]);
  });
});

describe('automation actions', () => {
  it('refuses what does not exist or cannot be set, naming the place', () => {
    expect(
      actionIssues(
        [
          { type: 'set_field', field: 'customer', value: 'Initech' },
          { type: 'set_field', field: 'colour', value: 'red' },
          { type: 'set_field', field: 'priority', value: 'Urgent' },
          { type: 'set_field', field: 'story_points', value: 'many' },
          { type: 'assign', userIds: ['tess'] },
          { type: 'add_label', labelId: 'l-gone' },
          { type: 'set_milestone', milestoneId: 'm-ops' },
          { type: 'set_milestone', milestoneId: 'm-none' },
          { type: 'notify', userIds: ['nobody'] },
          { type: 'set_field', field: 'customer', value: ['Acme'] },
        ],
        context,
      ),
    ).toEqual([
      { field: 'then.0.value', message: 'Customer must be one of: Acme, Globex' },
      { field: 'then.1.field', message: 'Unknown field: colour' },
      { field: 'then.2.value', message: automationMessages.oneOf('priority', ['Low', 'Medium', 'High']) },
      { field: 'then.3.value', message: 'Story points must be a number' },
      { field: 'then.4.userIds', message: automationMessages.unknownUser('tess') },
      { field: 'then.5.labelId', message: automationMessages.unknownLabel('l-gone') },
      { field: 'then.6.milestoneId', message: automationMessages.milestoneElsewhere },
      { field: 'then.7.milestoneId', message: automationMessages.unknownMilestone },
      { field: 'then.8.userIds', message: automationMessages.unknownUser('nobody') },
      { field: 'then.9.value', message: automationMessages.listNeedsIn('Customer') },
    ]);
    expect(
      actionIssues(
        [
          { type: 'set_field', field: 'customer', value: null },
          { type: 'set_field', field: 'platforms', value: ['iOS'] },
          { type: 'set_field', field: 'module', value: 'Checkout' },
          { type: 'assign', userIds: ['dev-1'] },
          { type: 'add_label', labelId: 'urgent' },
          { type: 'set_milestone', milestoneId: 'm-1' },
          { type: 'notify', role: 'admin' },
          { type: 'comment', body: 'Looked at by the rule' },
          { type: 'set_status', status: 'In Progress' },
        ],
        context,
      ),
    ).toEqual([]);
  });
});

describe('automation bodies', () => {
  const rule = {
    name: 'Triage',
    when: { event: 'bug.reported', conditions: [{ field: 'priority', op: 'is', value: 'High' }] },
    then: [
      { type: 'add_label', labelId: 'l-urgent' },
      { type: 'assign', userIds: ['dev-1'] },
      { type: 'set_status', status: 'Resolved' },
      { type: 'notify', role: 'admin' },
    ],
  };

  /** The rule with other actions (api.md calls them `then`). */
  const withActions = (actions: unknown[]) => ({ ...rule, then: actions });

  it('reads a rule: enabled by default, a status in any spelling', () => {
    const parsed = createAutomationBody.parse(rule);
    expect(parsed.enabled).toBe(true);
    expect(parsed.then[2]).toEqual({ type: 'set_status', status: 'Closed' });
  });

  it('names an unknown event, operator or action, and what an action lacks', () => {
    const messages = (body: unknown) => {
      const result = createAutomationBody.safeParse(body);
      return result.success ? [] : result.error.issues.map((i) => i.message);
    };
    expect(messages({ ...rule, when: { event: 'bug.exploded' } })).toEqual([
      automationMessages.unknownEvent('bug.exploded'),
    ]);
    expect(
      messages({
        ...rule,
        when: { event: 'bug.reported', conditions: [{ field: 'priority', op: 'like', value: 'x' }] },
      }),
    ).toEqual([automationMessages.unknownOp('like')]);
    expect(messages(withActions([{ type: 'launch_rocket' }]))).toEqual([
      automationMessages.unknownAction('launch_rocket'),
    ]);
    expect(messages(withActions([{ type: 'notify' }]))).toEqual([automationMessages.notifyNeedsSomeone]);
    expect(messages(withActions([{ type: 'comment', body: '  ' }]))).toEqual([automationMessages.commentRequired]);
    expect(messages(withActions([{ type: 'set_status', status: 'Done' }]))).toEqual([automationMessages.statusInvalid]);
    expect(messages(withActions([]))).toEqual([automationMessages.actionsRequired]);
    expect(messages({ ...rule, name: ' ' })).toEqual([automationMessages.nameRequired]);
    expect(updateAutomationBody.parse({ enabled: false })).toEqual({ enabled: false });
    expect(simulateAutomationBody.safeParse({ from: '2026-12-01', to: '2026-11-01' }).success).toBe(false);
  });
});

describe('automation decider', () => {
  const spec = deciderSpec(automationDecider);
  const command = (c: Omit<AutomationCommand, 'metadata'>, actor: Actor | null = admin) =>
    ({ ...c, metadata: { actor, now } }) as AutomationCommand;
  const create = (over: Record<string, unknown> = {}, actor: Actor | null = admin) =>
    command(
      {
        type: 'CreateAutomation',
        data: {
          automationId: 'a-1',
          name: 'Triage',
          projectId: 'p-web',
          enabled: true,
          when: { event: 'bug.reported', conditions: [{ field: 'priority', op: 'is', value: 'High' }] },
          actions: [{ type: 'add_label', labelId: 'l-urgent' }],
          ledProjects: actor === lead ? ['p-web'] : [],
          context,
          ...over,
        },
      } as never,
      actor,
    );
  const created = spec.given().when(create()).thenEvents() as AutomationEvent[];

  it('lets admins write any rule and leads the rules of their project', () => {
    expect(created).toEqual([
      {
        type: 'AutomationCreated',
        data: {
          automationId: 'a-1',
          name: 'Triage',
          projectId: 'p-web',
          enabled: true,
          when: { event: 'bug.reported', conditions: [{ field: 'priority', op: 'is', value: 'High' }] },
          actions: [{ type: 'add_label', labelId: 'l-urgent' }],
        },
      },
    ]);
    expect(spec.given().when(create({}, lead)).thenEvents()).toHaveLength(1);
    spec
      .given()
      .when(create({ projectId: null }, lead))
      .thenThrows('forbidden', automationMessages.cannotManage);
    spec
      .given()
      .when(create({ ledProjects: [] }, lead))
      .thenThrows('forbidden', automationMessages.notYourProject);
    spec.given().when(create({}, dev)).thenThrows('forbidden', automationMessages.notYourProject);
    spec.given().when(create({}, auditor)).thenThrows('forbidden', userMessages.readOnlyRole);
    expect(canManageAutomation(admin, null, [])).toBe(true);
    expect(canManageAutomation(lead, 'p-ops', ['p-web'])).toBe(false);
  });

  it('refuses conditions its project cannot hold, appending nothing', () => {
    spec
      .given()
      .when(create({ when: { event: 'bug.reported', conditions: [{ field: 'colour', op: 'is', value: 'red' }] } }))
      .thenThrows('validation', 'Unknown field: colour', [
        { field: 'when.conditions.0.field', message: 'Unknown field: colour' },
      ]);
  });

  it('changes only what differs; enabling a paused rule is a change; a rule not theirs does not exist for a lead', () => {
    const change = (data: Record<string, unknown>, actor: Actor = admin, ledProjects: string[] = []) =>
      command(
        { type: 'ChangeAutomation', data: { automationId: 'a-1', ledProjects, context, ...data } } as never,
        actor,
      );
    spec
      .given(...created)
      .when(change({ name: 'Triage', enabled: true }))
      .thenNothing();
    spec
      .given(...created)
      .when(change({ enabled: false }))
      .then([{ type: 'AutomationChanged', data: { automationId: 'a-1', enabled: false } }]);
    const paused: AutomationEvent = {
      type: 'AutomationPaused',
      data: { automationId: 'a-1', reason: 'Unknown label', failures: 5 },
    };
    expect(spec.given(...created, paused).state).toMatchObject({ enabled: false, paused: true });
    // Enabling a paused rule again is a change, and starts its failures afresh.
    spec
      .given(...created, paused)
      .when(change({ enabled: true }))
      .then([{ type: 'AutomationChanged', data: { automationId: 'a-1', enabled: true } }]);
    spec
      .given(...created, paused)
      .when(change({ enabled: false }))
      .thenNothing();
    spec
      .given(...created)
      .when(change({ name: 'Mine now' }, lead, []))
      .thenThrows('not_found', automationMessages.notFound);
    spec
      .given(...created)
      .when(change({ name: 'Ours' }, lead, ['p-web']))
      .then([{ type: 'AutomationChanged', data: { automationId: 'a-1', name: 'Ours' } }]);
  });

  it('deletes once; a run is recorded, and five failing in a row pause the rule once', () => {
    const remove = command({ type: 'DeleteAutomation', data: { automationId: 'a-1', ledProjects: [] } } as never);
    spec
      .given(...created)
      .when(remove)
      .then([{ type: 'AutomationDeleted', data: { automationId: 'a-1', name: 'Triage' } }]);
    spec
      .given(...created, { type: 'AutomationDeleted', data: { automationId: 'a-1', name: 'Triage' } })
      .when(remove)
      .thenThrows('not_found', automationMessages.notFound);
    const run = (n: number, outcome: 'done' | 'failed'): AutomationEvent => ({
      type: 'AutomationRan',
      data: {
        automationId: 'a-1',
        triggerEventId: `e-${n}`,
        trigger: 'bug.reported',
        bugId: `b-${n}`,
        at: now,
        outcomes: [{ type: 'add_label', outcome, ...(outcome === 'failed' ? { message: 'Unknown label' } : {}) }],
      },
    });
    const record = (n: number, outcome: 'done' | 'failed') =>
      command({ type: 'RecordAutomationRun', data: run(n, outcome).data } as never, null);
    const fourFailed = [1, 2, 3, 4].map((n) => run(n, 'failed'));
    expect(spec.given(...created, ...fourFailed).state.failures).toBe(4);
    spec
      .given(...created, ...fourFailed)
      .when(record(5, 'failed'))
      .then([
        run(5, 'failed'),
        { type: 'AutomationPaused', data: { automationId: 'a-1', reason: 'Unknown label', failures: 5 } },
      ]);
    // A success in between starts the count afresh; a paused rule is not paused again.
    spec
      .given(...created, ...fourFailed, run(5, 'done'))
      .when(record(6, 'failed'))
      .then([run(6, 'failed')]);
    const paused: AutomationEvent = {
      type: 'AutomationPaused',
      data: { automationId: 'a-1', reason: 'Unknown label', failures: 5 },
    };
    spec
      .given(...created, ...fourFailed, run(5, 'failed'), paused)
      .when(record(6, 'failed'))
      .then([run(6, 'failed')]);
  });
});
