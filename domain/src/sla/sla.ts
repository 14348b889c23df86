import {
  type AutomationCondition,
  type AutomationContext,
  conditionIssues,
  conditionsHold,
} from '../automations/automation-vocabulary.js';
import { bugFacts } from '../automations/bug-facts.js';
import type { BugState, ReportedBug } from '../bugs/bug.js';
import { evolveBugWith } from '../bugs/bug.js';
import { ForbiddenError, NotFoundError, ValidationError } from '../core/errors.js';
import { type Actor, assertNever, type Command, type Decider, type Event } from '../core/event.js';
import type { FieldDef } from '../projects/field-values.js';
import { userMessages } from '../users/user-vocabulary.js';
import type { SlaEventData, slaBreachEventSchemas, slaEventSchemas } from './sla.schemas.js';
import { type BugSla, formatDuration, type SlaTarget, slaLimits, slaMessages, slaTargets } from './sla-vocabulary.js';

type SlaEventType = keyof typeof slaEventSchemas;
export type SlaEvent = { [Type in SlaEventType]: Event<Type, SlaEventData<Type>> }[SlaEventType];
export type BugSlaBreached = Event<'BugSlaBreached', SlaEventData<'BugSlaBreached'>>;
export type SlaBreachEvent = BugSlaBreached & { type: keyof typeof slaBreachEventSchemas };

/** A policy as bugs meet it. */
export type SlaPolicy = Readonly<{
  id: string;
  name: string;
  /** Null: every project's bugs. */
  projectId: string | null;
  conditions: readonly AutomationCondition[];
  respondSeconds: number | null;
  resolveSeconds: number | null;
  /** Its place among policies: the first that holds for a bug is the bug's. */
  createdAt: string;
  /** Breaches due before this (its creation or last change) are measured, not told. */
  since: string;
}>;

/** One policy's stream (`sla-{id}`) folded. */
export type SlaPolicyState = SlaPolicy & Readonly<{ exists: boolean; deleted: boolean }>;

export const initialSlaPolicyState = (): SlaPolicyState => ({
  exists: false,
  deleted: false,
  id: '',
  name: '',
  projectId: null,
  conditions: [],
  respondSeconds: null,
  resolveSeconds: null,
  createdAt: '',
  since: '',
});

export function evolveSlaPolicy(state: SlaPolicyState, event: SlaEvent): SlaPolicyState {
  switch (event.type) {
    case 'SlaPolicyCreated': {
      const d = event.data;
      return {
        exists: true,
        deleted: false,
        id: d.policyId,
        name: d.name,
        projectId: d.projectId,
        conditions: d.conditions as AutomationCondition[],
        respondSeconds: d.respondSeconds,
        resolveSeconds: d.resolveSeconds,
        createdAt: d.createdAt,
        since: d.createdAt,
      };
    }
    case 'SlaPolicyChanged': {
      const d = event.data;
      return {
        ...state,
        ...(d.name !== undefined ? { name: d.name } : {}),
        ...(d.conditions !== undefined ? { conditions: d.conditions as AutomationCondition[] } : {}),
        ...(d.respondSeconds !== undefined ? { respondSeconds: d.respondSeconds } : {}),
        ...(d.resolveSeconds !== undefined ? { resolveSeconds: d.resolveSeconds } : {}),
        since: d.changedAt,
      };
    }
    case 'SlaPolicyDeleted':
      return { ...state, deleted: true };
    default:
      return state;
  }
}

type Checked = { ledProjects: readonly string[]; context: AutomationContext };
export type CreateSlaPolicy = Command<
  'CreateSlaPolicy',
  Checked & {
    policyId: string;
    name: string;
    projectId: string | null;
    conditions: readonly AutomationCondition[];
    respondSeconds: number | null;
    resolveSeconds: number | null;
  }
>;
export type ChangeSlaPolicy = Command<
  'ChangeSlaPolicy',
  Checked & {
    policyId: string;
    name?: string | undefined;
    conditions?: readonly AutomationCondition[] | undefined;
    respondSeconds?: number | null | undefined;
    resolveSeconds?: number | null | undefined;
  }
>;
export type DeleteSlaPolicy = Command<'DeleteSlaPolicy', { policyId: string; ledProjects: readonly string[] }>;
export type SlaPolicyCommand = CreateSlaPolicy | ChangeSlaPolicy | DeleteSlaPolicy;

/** Admins write any policy; a project's leads, that project's (not the policies of all). */
export function canManageSla(actor: Actor, projectId: string | null, ledProjects: readonly string[]): boolean {
  if (actor.role === 'admin') return true;
  return projectId !== null && ledProjects.includes(projectId);
}

function assertManager(actor: Actor | null, projectId: string | null, ledProjects: readonly string[]) {
  if (actor === null) return;
  if (actor.role === 'auditor') throw new ForbiddenError(userMessages.readOnlyRole);
  if (!canManageSla(actor, projectId, ledProjects)) {
    throw new ForbiddenError(
      projectId !== null && actor.role !== 'admin' ? slaMessages.notYourProject : slaMessages.cannotManage,
    );
  }
}

function assertConditions(conditions: readonly AutomationCondition[] | undefined, context: AutomationContext) {
  const issues = conditions ? conditionIssues(conditions, context, 'conditions') : [];
  if (issues.length > 0) throw new ValidationError(issues[0]!.message, issues);
}

export function decideSlaPolicy(command: SlaPolicyCommand, state: SlaPolicyState): SlaEvent[] {
  const actor = command.metadata.actor;
  const now = command.metadata.now;
  switch (command.type) {
    case 'CreateSlaPolicy': {
      const { ledProjects, context, ...d } = command.data;
      assertManager(actor, d.projectId, ledProjects);
      if (state.exists) return [];
      assertConditions(d.conditions, context);
      if (d.respondSeconds === null && d.resolveSeconds === null) {
        throw new ValidationError(slaMessages.targetRequired, [
          { field: 'respondWithin', message: slaMessages.targetRequired },
        ]);
      }
      return [
        {
          type: 'SlaPolicyCreated',
          data: {
            policyId: d.policyId,
            name: d.name,
            projectId: d.projectId,
            conditions: d.conditions.map((c) => ({ ...c })) as never,
            respondSeconds: d.respondSeconds,
            resolveSeconds: d.resolveSeconds,
            createdAt: now,
          },
        },
      ];
    }
    case 'ChangeSlaPolicy': {
      const { ledProjects, context, policyId, ...asked } = command.data;
      const policy = existing(state, actor, ledProjects);
      assertManager(actor, policy.projectId, ledProjects);
      assertConditions(asked.conditions, context);
      const changes: Omit<SlaEventData<'SlaPolicyChanged'>, 'policyId' | 'changedAt'> = {};
      if (asked.name !== undefined && asked.name !== policy.name) changes.name = asked.name;
      if (asked.conditions !== undefined && JSON.stringify(asked.conditions) !== JSON.stringify(policy.conditions)) {
        changes.conditions = asked.conditions.map((c) => ({ ...c })) as never;
      }
      if (asked.respondSeconds !== undefined && asked.respondSeconds !== policy.respondSeconds) {
        changes.respondSeconds = asked.respondSeconds;
      }
      if (asked.resolveSeconds !== undefined && asked.resolveSeconds !== policy.resolveSeconds) {
        changes.resolveSeconds = asked.resolveSeconds;
      }
      const respond = changes.respondSeconds === undefined ? policy.respondSeconds : changes.respondSeconds;
      const resolve = changes.resolveSeconds === undefined ? policy.resolveSeconds : changes.resolveSeconds;
      if (respond === null && resolve === null) {
        throw new ValidationError(slaMessages.targetRequired, [
          { field: 'respondWithin', message: slaMessages.targetRequired },
        ]);
      }
      if (Object.keys(changes).length === 0) return [];
      return [{ type: 'SlaPolicyChanged', data: { policyId, ...changes, changedAt: now } }];
    }
    case 'DeleteSlaPolicy': {
      const policy = existing(state, actor, command.data.ledProjects);
      assertManager(actor, policy.projectId, command.data.ledProjects);
      return [{ type: 'SlaPolicyDeleted', data: { policyId: policy.id, name: policy.name } }];
    }
    default:
      return assertNever(command);
  }
}

function existing(state: SlaPolicyState, actor: Actor | null, ledProjects: readonly string[]): SlaPolicyState {
  if (!state.exists || state.deleted) throw new NotFoundError(slaMessages.notFound);
  // A policy of a project the caller does not lead is not theirs to change: it does not exist for them.
  if (actor && actor.role !== 'admin' && !canManageSla(actor, state.projectId, ledProjects)) {
    throw new NotFoundError(slaMessages.notFound);
  }
  return state;
}

export const slaPolicyDecider: Decider<SlaPolicyState, SlaPolicyCommand, SlaEvent> = {
  initialState: initialSlaPolicyState,
  evolve: evolveSlaPolicy,
  decide: decideSlaPolicy,
};

/** A policy as answers show it (durations as written: `4h`). */
export const slaPolicyDto = (policy: SlaPolicy) => ({
  _id: policy.id,
  name: policy.name,
  projectId: policy.projectId,
  conditions: policy.conditions,
  respondWithin: policy.respondSeconds === null ? null : formatDuration(policy.respondSeconds),
  resolveWithin: policy.resolveSeconds === null ? null : formatDuration(policy.resolveSeconds),
  createdAt: policy.createdAt,
});
export type SlaPolicyDto = ReturnType<typeof slaPolicyDto>;

// ── a bug's SLA ───────────────────────────────────────────────────────────────

/**
 * The policy that holds for a bug: of those whose project and conditions match, the project's own
 * before those of every project, then the oldest. One policy per bug: its answer, its list
 * filters and the compliance figures all read the same one.
 */
export function policyFor(
  bug: ReportedBug,
  policies: readonly SlaPolicy[],
  project: Readonly<{ key: string; fields: readonly FieldDef[] }>,
): SlaPolicy | null {
  let best: SlaPolicy | null = null;
  const candidates = policies.filter((p) => p.projectId === null || p.projectId === bug.projectId);
  if (candidates.length === 0) return null;
  const facts = bugFacts(bug, project, () => '');
  for (const policy of candidates) {
    if (best && !before(policy, best)) continue;
    if (conditionsHold(policy.conditions, facts)) best = policy;
  }
  return best;
}

const before = (a: SlaPolicy, b: SlaPolicy) => {
  if ((a.projectId === null) !== (b.projectId === null)) return a.projectId !== null;
  return a.createdAt !== b.createdAt ? a.createdAt < b.createdAt : a.id < b.id;
};

const plus = (at: string, seconds: number | null) =>
  seconds === null ? null : new Date(Date.parse(at) + seconds * 1000).toISOString();

/**
 * The bug's SLA under its policy, as its facts alone say (a target met late is breached; one not
 * met yet is left to `slaAt`, which reads the clock when the answer is given).
 */
export function bugSla(bug: ReportedBug, policy: SlaPolicy | null): BugSla | null {
  if (!policy) return null;
  const respondBy = plus(bug.createdAt, policy.respondSeconds);
  const resolveBy = plus(bug.createdAt, policy.resolveSeconds);
  const late = (due: string | null, at: string | null) => due !== null && at !== null && at > due;
  const breached: SlaTarget[] = [];
  if (late(respondBy, bug.respondedAt)) breached.push('respond');
  if (late(resolveBy, bug.resolvedAt)) breached.push('resolve');
  return {
    policy: { _id: policy.id, name: policy.name },
    respondBy,
    resolveBy,
    respondedAt: bug.respondedAt,
    resolvedAt: bug.resolvedAt,
    breached,
    atRisk: false,
  };
}

/** The times lists and the clock look up a bug's SLA by (read-model columns; null: never). */
export type SlaClock = Readonly<{
  /** From then on it is breached (`sla=breached`). */
  breachedAt: string | null;
  /** From then on, until breached, it is at risk (`sla=at_risk`). */
  riskAt: string | null;
  /** The next breach to tell (its event), if the clock has not told it yet. */
  tellAt: string | null;
}>;
export const noSlaClock: SlaClock = { breachedAt: null, riskAt: null, tellAt: null };

/** A told breach's key: one event per bug, policy, target and due time. */
export const breachKey = (policyId: string, target: SlaTarget, dueAt: string) => `${policyId}:${target}:${dueAt}`;

/** When the bug breaches, is at risk, and has a breach to tell, given the breaches told and whence to tell. */
export function slaClock(sla: BugSla | null, reportedAt: string, told: readonly string[], since: string): SlaClock {
  if (!sla) return noSlaClock;
  let breachedAt: string | null = null;
  let riskAt: string | null = null;
  let tellAt: string | null = null;
  const earliest = (a: string | null, b: string) => (a === null || b < a ? b : a);
  for (const target of slaTargets) {
    const due = target === 'respond' ? sla.respondBy : sla.resolveBy;
    const doneAt = target === 'respond' ? sla.respondedAt : sla.resolvedAt;
    if (due === null) continue;
    if (doneAt !== null) {
      if (doneAt > due) breachedAt = earliest(breachedAt, due);
      continue;
    }
    breachedAt = earliest(breachedAt, due);
    const window = Date.parse(due) - Date.parse(reportedAt);
    riskAt = earliest(riskAt, new Date(Date.parse(due) - window * slaLimits.riskShare).toISOString());
    if (due >= since && !told.includes(breachKey(sla.policy._id, target, due))) tellAt = earliest(tellAt, due);
  }
  return { breachedAt, riskAt, tellAt };
}

// ── telling a breach ─────────────────────────────────────────────────────────

export type NoticeSlaBreach = Command<'NoticeSlaBreach', SlaEventData<'BugSlaBreached'>>;
export type SlaBreachState = Readonly<{ bug: BugState; told: ReadonlySet<string> }>;

/**
 * The clock, on the bug's stream: a target passed unmet is told once (per policy, target and due
 * time). Nothing if the bug met it meanwhile, is gone, or the time has not come.
 */
export const slaBreachDecider: Decider<SlaBreachState, NoticeSlaBreach, BugSlaBreached> = {
  initialState: () => ({ bug: { kind: 'empty' }, told: new Set() }),
  evolve(state, event) {
    const e = event as { type: string; data: unknown; metadata?: { occurredAt: string } };
    if (e.type === 'BugSlaBreached') {
      const d = (event as BugSlaBreached).data;
      return { ...state, told: new Set([...state.told, breachKey(d.policyId, d.target, d.dueAt)]) };
    }
    const bug = evolveBugWith(state.bug, e);
    return bug === state.bug ? state : { ...state, bug };
  },
  decide(command, state) {
    const d = command.data;
    const bug = state.bug;
    if (bug.kind !== 'reported' || bug.deleted) return [];
    if ((d.target === 'respond' ? bug.respondedAt : bug.resolvedAt) !== null) return [];
    if (Date.parse(d.dueAt) > Date.parse(command.metadata.now)) return [];
    if (state.told.has(breachKey(d.policyId, d.target, d.dueAt))) return [];
    return [{ type: 'BugSlaBreached', data: { ...d } }];
  },
};
