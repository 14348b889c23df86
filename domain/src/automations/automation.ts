import { ForbiddenError, NotFoundError, ValidationError } from '../core/errors.js';
import { type Actor, assertNever, type Command, type Decider, type Event } from '../core/event.js';
import { userMessages } from '../users/user-vocabulary.js';
import type { AutomationEventData, AutomationWhen, automationEventSchemas } from './automation.schemas.js';
import {
  type ActionContext,
  type AutomationAction,
  actionIssues,
  automationLimits,
  automationMessages,
  conditionIssues,
} from './automation-vocabulary.js';

type AutomationEventType = keyof typeof automationEventSchemas;
export type AutomationEvent = {
  [Type in AutomationEventType]: Event<Type, AutomationEventData<Type>>;
}[AutomationEventType];

/** One rule's stream (`automation-{id}`) folded. */
export type AutomationState = Readonly<{
  exists: boolean;
  deleted: boolean;
  id: string;
  name: string;
  projectId: string | null;
  enabled: boolean;
  /** Paused by the reactor (it kept failing) until someone enables it again. */
  paused: boolean;
  /** Runs in a row with a failed action (enabling it again starts afresh). */
  failures: number;
  when: AutomationWhen;
  actions: readonly AutomationAction[];
}>;

export const initialAutomationState = (): AutomationState => ({
  exists: false,
  deleted: false,
  id: '',
  name: '',
  projectId: null,
  enabled: false,
  paused: false,
  failures: 0,
  when: { event: 'bug.reported', conditions: [] },
  actions: [],
});

export function evolveAutomation(state: AutomationState, event: AutomationEvent): AutomationState {
  switch (event.type) {
    case 'AutomationCreated': {
      const d = event.data;
      return {
        exists: true,
        deleted: false,
        id: d.automationId,
        name: d.name,
        projectId: d.projectId,
        enabled: d.enabled,
        paused: false,
        failures: 0,
        when: d.when as AutomationWhen,
        actions: d.actions as unknown as AutomationAction[],
      };
    }
    case 'AutomationChanged': {
      const d = event.data;
      return {
        ...state,
        ...(d.name !== undefined ? { name: d.name } : {}),
        ...(d.enabled !== undefined
          ? { enabled: d.enabled, paused: d.enabled ? false : state.paused, failures: d.enabled ? 0 : state.failures }
          : {}),
        ...(d.when !== undefined ? { when: d.when as AutomationWhen } : {}),
        ...(d.actions !== undefined ? { actions: d.actions as unknown as AutomationAction[] } : {}),
      };
    }
    case 'AutomationRan':
      return {
        ...state,
        failures: event.data.outcomes.some((o) => o.outcome === 'failed') ? state.failures + 1 : 0,
      };
    case 'AutomationPaused':
      return { ...state, enabled: false, paused: true };
    case 'AutomationDeleted':
      return { ...state, deleted: true, enabled: false };
    default:
      return state;
  }
}

/**
 * Who asks, and what write-api learnt for them: the projects they lead, and what the rule's
 * words are checked against (its project's fields, or every project's for a rule of all).
 */
type Checked = { ledProjects: readonly string[]; context: ActionContext };

export type CreateAutomation = Command<
  'CreateAutomation',
  Checked & {
    automationId: string;
    name: string;
    projectId: string | null;
    enabled: boolean;
    when: AutomationWhen;
    actions: readonly AutomationAction[];
  }
>;
export type ChangeAutomation = Command<
  'ChangeAutomation',
  Checked & {
    automationId: string;
    name?: string | undefined;
    enabled?: boolean | undefined;
    when?: AutomationWhen | undefined;
    actions?: readonly AutomationAction[] | undefined;
  }
>;
export type DeleteAutomation = Command<'DeleteAutomation', { automationId: string; ledProjects: readonly string[] }>;
/** The reactor's, with no actor: what the rule did on one triggering event (it pauses after failures in a row). */
export type RecordAutomationRun = Command<'RecordAutomationRun', AutomationEventData<'AutomationRan'>>;
export type AutomationCommand = CreateAutomation | ChangeAutomation | DeleteAutomation | RecordAutomationRun;

/** Admins write any rule; a project's leads, the rules of that project (not the rules of all). */
export function canManageAutomation(actor: Actor, projectId: string | null, ledProjects: readonly string[]): boolean {
  if (actor.role === 'admin') return true;
  return projectId !== null && ledProjects.includes(projectId);
}

function assertManager(actor: Actor | null, projectId: string | null, ledProjects: readonly string[]) {
  if (actor === null) return;
  if (actor.role === 'auditor') throw new ForbiddenError(userMessages.readOnlyRole);
  if (!canManageAutomation(actor, projectId, ledProjects)) {
    throw new ForbiddenError(
      projectId !== null && actor.role !== 'admin'
        ? automationMessages.notYourProject
        : automationMessages.cannotManage,
    );
  }
}

function existing(state: AutomationState, actor: Actor | null, ledProjects: readonly string[]): AutomationState {
  if (!state.exists || state.deleted) throw new NotFoundError(automationMessages.notFound);
  // A rule of a project the caller does not lead is not theirs to see changed: it does not exist for them.
  if (actor && actor.role !== 'admin' && !canManageAutomation(actor, state.projectId, ledProjects)) {
    throw new NotFoundError(automationMessages.notFound);
  }
  return state;
}

function assertWords(
  when: AutomationWhen | undefined,
  actions: readonly AutomationAction[] | undefined,
  context: ActionContext,
) {
  const issues = [
    ...(when ? conditionIssues(when.conditions, context) : []),
    ...(actions ? actionIssues(actions, context) : []),
  ];
  if (issues.length > 0) throw new ValidationError(issues[0]!.message, issues);
}

export function decideAutomation(command: AutomationCommand, state: AutomationState): AutomationEvent[] {
  const actor = command.metadata.actor;
  switch (command.type) {
    case 'CreateAutomation': {
      const { ledProjects, context, ...d } = command.data;
      assertManager(actor, d.projectId, ledProjects);
      if (state.exists) return [];
      assertWords(d.when, d.actions, context);
      return [
        {
          type: 'AutomationCreated',
          data: {
            automationId: d.automationId,
            name: d.name,
            projectId: d.projectId,
            enabled: d.enabled,
            when: { event: d.when.event, conditions: [...d.when.conditions] } as never,
            actions: d.actions.map((a) => ({ ...a })) as never,
          },
        },
      ];
    }
    case 'ChangeAutomation': {
      const { ledProjects, context, automationId, ...asked } = command.data;
      const rule = existing(state, actor, ledProjects);
      assertManager(actor, rule.projectId, ledProjects);
      assertWords(asked.when, asked.actions, context);
      const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
      const changes: Omit<AutomationEventData<'AutomationChanged'>, 'automationId'> = {};
      if (asked.name !== undefined && asked.name !== rule.name) changes.name = asked.name;
      // Enabling a paused rule again is a change even when it reads `enabled: false` → true.
      if (asked.enabled !== undefined && (asked.enabled !== rule.enabled || (asked.enabled && rule.paused))) {
        changes.enabled = asked.enabled;
      }
      if (asked.when !== undefined && !same(asked.when, rule.when)) changes.when = asked.when as never;
      if (asked.actions !== undefined && !same(asked.actions, rule.actions)) changes.actions = asked.actions as never;
      return Object.keys(changes).length > 0 ? [{ type: 'AutomationChanged', data: { automationId, ...changes } }] : [];
    }
    case 'DeleteAutomation': {
      const rule = existing(state, actor, command.data.ledProjects);
      assertManager(actor, rule.projectId, command.data.ledProjects);
      return [{ type: 'AutomationDeleted', data: { automationId: rule.id, name: rule.name } }];
    }
    case 'RecordAutomationRun': {
      if (!state.exists) return [];
      const ran: AutomationEvent = { type: 'AutomationRan', data: command.data };
      const failed = command.data.outcomes.filter((o) => o.outcome === 'failed');
      const failures = failed.length > 0 ? state.failures + 1 : 0;
      if (failures < automationLimits.failuresToPause || !state.enabled || state.deleted) return [ran];
      const reason = failed.at(-1)?.message ?? 'An action failed';
      return [ran, { type: 'AutomationPaused', data: { automationId: state.id, reason, failures } }];
    }
    default:
      return assertNever(command);
  }
}

export const automationDecider: Decider<AutomationState, AutomationCommand, AutomationEvent> = {
  initialState: initialAutomationState,
  evolve: evolveAutomation,
  decide: decideAutomation,
};
