import { deciderSpec } from '@bugtrail/testing';
import { describe, expect, it } from 'vitest';
import type { AutomationContext } from '../automations/automation-vocabulary.js';
import { evolveBug, type ReportedBug } from '../bugs/bug.js';
import type { Actor } from '../core/event.js';
import { userMessages } from '../users/user-vocabulary.js';
import {
  breachKey,
  bugSla,
  policyFor,
  type SlaEvent,
  type SlaPolicy,
  type SlaPolicyCommand,
  slaBreachDecider,
  slaClock,
  slaPolicyDecider,
} from './sla.js';
import { createSlaBody } from './sla.schemas.js';
import { formatDuration, parseDuration, slaAt, slaMessages } from './sla-vocabulary.js';

const admin: Actor = { id: 'admin-1', role: 'admin' };
const lead: Actor = { id: 'lead-1', role: 'tester' };
const reported = '2026-12-07T10:00:00.000Z';
const at = (hours: number) => new Date(Date.parse(reported) + hours * 3_600_000).toISOString();

const bug = (over: Partial<ReportedBug> = {}): ReportedBug => {
  const state = evolveBug({ kind: 'empty' }, {
    type: 'BugReported',
    data: {
      bugId: 'b-1',
      title: 'Checkout total is wrong',
      description: 'Rounds down',
      priority: 'High',
      severity: 'Major',
      status: 'Open',
      module: null,
      dueDate: null,
      reporterId: 'tess',
      projectId: 'p-web',
    },
    metadata: { occurredAt: reported },
  } as never) as ReportedBug;
  return { ...state, ...over };
};
const policy = (over: Partial<SlaPolicy> = {}): SlaPolicy => ({
  id: 'sla-1',
  name: 'Urgent',
  projectId: null,
  conditions: [{ field: 'priority', op: 'is', value: 'High' }],
  respondSeconds: 4 * 3600,
  resolveSeconds: 72 * 3600,
  createdAt: '2026-01-01T00:00:00.000Z',
  since: '2026-01-01T00:00:00.000Z',
  ...over,
});
const web = { key: 'WEB', fields: [] };

describe('SLA durations', () => {
  it('reads a number and a unit, and writes the shortest exact one back', () => {
    expect(parseDuration('30s')).toBe(30);
    expect(parseDuration('4h')).toBe(14_400);
    expect(parseDuration('3d')).toBe(259_200);
    for (const bad of ['4', 'h', '4 hours', '1.5h', '0m', '-1h', '4w', '']) expect(parseDuration(bad)).toBeNull();
    expect(formatDuration(14_400)).toBe('4h');
    expect(formatDuration(90)).toBe('90s');
    expect(formatDuration(259_200)).toBe('3d');
  });

  it('refuses a policy with no target, naming the field', () => {
    const parsed = createSlaBody.safeParse({ name: 'Nothing' });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toBe(slaMessages.targetRequired);
    expect(createSlaBody.safeParse({ name: 'Long', resolveWithin: '367d' }).success).toBe(false);
    expect(createSlaBody.parse({ name: 'Ok', resolveWithin: '2d' }).resolveWithin).toBe(172_800);
  });
});

describe('the policy a bug meets', () => {
  it('takes its project’s own policy before one of every project, then the oldest', () => {
    const all = policy({ id: 'all' });
    const older = policy({ id: 'older', createdAt: '2025-01-01T00:00:00.000Z' });
    const own = policy({ id: 'own', projectId: 'p-web', createdAt: '2026-06-01T00:00:00.000Z' });
    const other = policy({ id: 'other', projectId: 'p-ops', createdAt: '2020-01-01T00:00:00.000Z' });
    expect(policyFor(bug(), [all, older], web)?.id).toBe('older');
    expect(policyFor(bug(), [all, own, older, other], web)?.id).toBe('own');
    expect(policyFor(bug({ priority: 'Low' }), [all, own], web)).toBeNull();
  });

  it('counts respond and resolve from the report; leaving Open and being Closed meet them', () => {
    const sla = bugSla(bug(), policy());
    expect(sla).toMatchObject({ respondBy: at(4), resolveBy: at(72), breached: [], atRisk: false });
    const answered = evolveBug(bug(), {
      type: 'BugStatusChanged',
      data: { bugId: 'b-1', from: 'Open', to: 'In Progress' },
      metadata: { occurredAt: at(5) },
    } as never) as ReportedBug;
    expect(answered.respondedAt).toBe(at(5));
    expect(bugSla(answered, policy())?.breached).toEqual(['respond']);
    // Reopened, the first response and resolution stand.
    const closed = evolveBug(answered, {
      type: 'BugStatusChanged',
      data: { bugId: 'b-1', from: 'In Progress', to: 'Closed' },
      metadata: { occurredAt: at(10) },
    } as never) as ReportedBug;
    const reopened = evolveBug(closed, {
      type: 'BugStatusChanged',
      data: { bugId: 'b-1', from: 'Closed', to: 'Open' },
      metadata: { occurredAt: at(11) },
    } as never) as ReportedBug;
    expect([reopened.respondedAt, reopened.resolvedAt]).toEqual([at(5), at(10)]);
  });

  it('reads the clock: at risk in the last quarter of a window, breached once past due', () => {
    const sla = bugSla(bug(), policy())!;
    expect(slaAt(sla, reported, new Date(at(2.9)))).toMatchObject({ breached: [], atRisk: false });
    expect(slaAt(sla, reported, new Date(at(3.1)))).toMatchObject({ breached: [], atRisk: true });
    expect(slaAt(sla, reported, new Date(at(4.1)))).toMatchObject({ breached: ['respond'], atRisk: false });
    expect(slaAt(sla, reported, new Date(at(80)))).toMatchObject({ breached: ['respond', 'resolve'] });
  });

  it('keeps when it breaches, is at risk and has a breach to tell; told and older breaches are not told', () => {
    const sla = bugSla(bug(), policy())!;
    expect(slaClock(sla, reported, [], reported)).toEqual({ breachedAt: at(4), riskAt: at(3), tellAt: at(4) });
    expect(slaClock(sla, reported, [breachKey('sla-1', 'respond', at(4))], reported).tellAt).toBe(at(72));
    // Written after the respond target passed: only the resolve target is told.
    expect(slaClock(sla, reported, [], at(6)).tellAt).toBe(at(72));
    expect(slaClock(null, reported, [], reported)).toEqual({ breachedAt: null, riskAt: null, tellAt: null });
  });
});

describe('SLA policy decisions', () => {
  const { given } = deciderSpec(slaPolicyDecider);
  const context: AutomationContext = { fields: new Map(), labels: [], projects: [{ id: 'p-web', key: 'WEB' }] };
  const command = (c: Omit<SlaPolicyCommand, 'metadata'>, actor: Actor | null = admin) =>
    ({ ...c, metadata: { actor, now: reported } }) as SlaPolicyCommand;
  const create = (over: Record<string, unknown> = {}, actor: Actor = admin) =>
    command(
      {
        type: 'CreateSlaPolicy',
        data: {
          policyId: 'sla-1',
          name: 'Urgent',
          projectId: 'p-web',
          conditions: [{ field: 'priority', op: 'is', value: 'High' }],
          respondSeconds: 3600,
          resolveSeconds: null,
          ledProjects: [],
          context,
          ...over,
        },
      } as never,
      actor,
    );
  const created: SlaEvent = {
    type: 'SlaPolicyCreated',
    data: {
      policyId: 'sla-1',
      name: 'Urgent',
      projectId: 'p-web',
      conditions: [{ field: 'priority', op: 'is', value: 'High' }],
      respondSeconds: 3600,
      resolveSeconds: null,
      createdAt: reported,
    },
  };

  it('lets admins and the project’s leads write it; refuses others, unknown words and no target', () => {
    given().when(create()).then([created]);
    given()
      .when(create({ ledProjects: ['p-web'] }, lead))
      .then([created]);
    given().when(create({}, lead)).thenThrows('forbidden', slaMessages.notYourProject);
    given()
      .when(create({ projectId: null, ledProjects: ['p-web'] }, lead))
      .thenThrows('forbidden', slaMessages.cannotManage);
    given()
      .when(create({}, { id: 'aud', role: 'auditor' }))
      .thenThrows('forbidden', userMessages.readOnlyRole);
    given()
      .when(create({ conditions: [{ field: 'colour', op: 'is', value: 'red' }] }))
      .thenThrows('validation', 'Unknown field: colour', [
        { field: 'conditions.0.field', message: 'Unknown field: colour' },
      ]);
    given()
      .when(create({ respondSeconds: null }))
      .thenThrows('validation', slaMessages.targetRequired, [
        { field: 'respondWithin', message: slaMessages.targetRequired },
      ]);
  });

  it('changes only what differs, keeps a target, and deletes once', () => {
    const change = (data: Record<string, unknown>) =>
      command({ type: 'ChangeSlaPolicy', data: { policyId: 'sla-1', ledProjects: [], context, ...data } } as never);
    given(created)
      .when(change({ name: 'Urgent' }))
      .thenNothing();
    given(created)
      .when(change({ resolveSeconds: 7200 }))
      .then([{ type: 'SlaPolicyChanged', data: { policyId: 'sla-1', resolveSeconds: 7200, changedAt: reported } }]);
    given(created)
      .when(change({ respondSeconds: null }))
      .thenThrows('validation', slaMessages.targetRequired, [
        { field: 'respondWithin', message: slaMessages.targetRequired },
      ]);
    const remove = command({ type: 'DeleteSlaPolicy', data: { policyId: 'sla-1', ledProjects: [] } } as never);
    given(created)
      .when(remove)
      .then([{ type: 'SlaPolicyDeleted', data: { policyId: 'sla-1', name: 'Urgent' } }]);
    given(created, { type: 'SlaPolicyDeleted', data: { policyId: 'sla-1', name: 'Urgent' } })
      .when(remove)
      .thenThrows('not_found', slaMessages.notFound);
  });
});

describe('telling a breach', () => {
  const { given } = deciderSpec(slaBreachDecider);
  const report = {
    type: 'BugReported',
    data: {
      bugId: 'b-1',
      title: 'Checkout total is wrong',
      description: 'Rounds down',
      priority: 'High',
      severity: 'Major',
      status: 'Open',
      module: null,
      dueDate: null,
      reporterId: 'tess',
    },
    metadata: { occurredAt: reported },
  } as never;
  const notice = (now: string) =>
    ({
      type: 'NoticeSlaBreach',
      data: { bugId: 'b-1', policyId: 'sla-1', policyName: 'Urgent', target: 'respond', dueAt: at(4) },
      metadata: { actor: null, now },
    }) as never;
  const told = {
    type: 'BugSlaBreached',
    data: { bugId: 'b-1', policyId: 'sla-1', policyName: 'Urgent', target: 'respond', dueAt: at(4) },
  } as never;

  it('tells it once, after its due time, while the target is unmet', () => {
    given(report)
      .when(notice(at(3)))
      .thenNothing();
    given(report)
      .when(notice(at(5)))
      .then([told]);
    given(report, told)
      .when(notice(at(6)))
      .thenNothing();
    const answered = {
      type: 'BugStatusChanged',
      data: { bugId: 'b-1', from: 'Open', to: 'In Progress' },
      metadata: { occurredAt: at(4.5) },
    } as never;
    given(report, answered)
      .when(notice(at(5)))
      .thenNothing();
  });
});
