import { type BugStatus, bugStatuses, priorities, severities } from '../bugs/bug-vocabulary.js';
import type { FieldIssue } from '../core/errors.js';
import type { FieldType, ShownFieldValue } from '../projects/field-vocabulary.js';

/**
 * Automation rules (api.md "Automation rules", issue 38), without zod: what a rule may say and
 * what its words mean. A rule is a trigger (an event of a bug), conditions on the bug as that
 * event left it (all must hold), and actions. The server decides with these, the web's rule
 * editor checks with the same, and the reactor and the simulation match with the same.
 */

/** The events a rule may wait for, each one or more of a bug's event types. */
export const automationTriggers = {
  'bug.reported': ['BugReported'],
  'bug.status_changed': ['BugStatusChanged'],
  'bug.field_changed': ['BugDetailsEdited', 'BugFieldsChanged'],
  'bug.labeled': ['BugLabelsAdded'],
  'bug.commented': ['CommentAdded'],
  'bug.code_linked': ['CommitLinked', 'PullRequestLinked'],
  'bug.due_passed': ['BugOverdue'],
} as const satisfies Record<string, readonly string[]>;
export type AutomationTrigger = keyof typeof automationTriggers;
export const automationTriggerNames = Object.keys(automationTriggers) as AutomationTrigger[];

/** The trigger an event of a bug is, if any. */
export function triggerOf(eventType: string): AutomationTrigger | null {
  for (const trigger of automationTriggerNames) {
    if ((automationTriggers[trigger] as readonly string[]).includes(eventType)) return trigger;
  }
  return null;
}

export const conditionOps = ['is', 'is_not', 'contains', 'in'] as const;
export type ConditionOp = (typeof conditionOps)[number];
/** The bug's own fields a condition may name; any other name is a custom field's key. */
export const conditionFields = ['priority', 'severity', 'status', 'module', 'labels', 'project'] as const;
export type ConditionField = (typeof conditionFields)[number];

export type ConditionValue = string | number | (string | number)[];
export type AutomationCondition = Readonly<{ field: string; op: ConditionOp; value: ConditionValue }>;

export const actionTypes = [
  'set_field',
  'set_status',
  'assign',
  'add_label',
  'remove_label',
  'comment',
  'notify',
  'set_milestone',
] as const;
export type ActionType = (typeof actionTypes)[number];
export type AutomationAction =
  | Readonly<{ type: 'set_field'; field: string; value: string | number | string[] | null }>
  | Readonly<{ type: 'set_status'; status: BugStatus }>
  | Readonly<{ type: 'assign'; userIds: readonly string[] }>
  | Readonly<{ type: 'add_label'; labelId: string }>
  | Readonly<{ type: 'remove_label'; labelId: string }>
  | Readonly<{ type: 'comment'; body: string }>
  | Readonly<{ type: 'notify'; userIds?: readonly string[] | undefined; role?: NotifyRole | undefined }>
  | Readonly<{ type: 'set_milestone'; milestoneId: string | null }>;
export const notifyRoles = ['admin', 'developer', 'tester'] as const;
export type NotifyRole = (typeof notifyRoles)[number];

export const automationLimits = {
  nameMax: 80,
  conditions: 20,
  actions: 10,
  inValues: 50,
  valueMax: 200,
  commentMax: 5000,
  userIds: 20,
  /** A chain of rules stops after this many rule-made changes (api.md). */
  chainDepth: 5,
  /** Failures in a row after which a rule is paused and admins are told. */
  failuresToPause: 5,
} as const;

export const automationMessages = {
  notFound: 'Automation not found',
  cannotManage: 'Only admins, and leads within their project, can manage automations',
  nameRequired: 'Rule name is required',
  nameTooLong: `Rule name must be at most ${automationLimits.nameMax} characters`,
  unknownEvent: (event: string) => `Unknown event: ${event}. One of: ${automationTriggerNames.join(', ')}`,
  unknownOp: (op: string) => `Unknown operator: ${op}. One of: ${conditionOps.join(', ')}`,
  unknownField: (field: string) => `Unknown field: ${field}`,
  unknownAction: (type: string) => `Unknown action: ${type}. One of: ${actionTypes.join(', ')}`,
  tooManyConditions: `A rule has at most ${automationLimits.conditions} conditions`,
  tooManyActions: `A rule has at most ${automationLimits.actions} actions`,
  actionsRequired: 'A rule needs at least one action',
  inNeedsList: (field: string) => `${field}: "in" takes a list of values`,
  listNeedsIn: (field: string) => `${field}: a list of values needs "in"`,
  oneOf: (field: string, allowed: readonly string[]) => `${field} must be one of: ${allowed.join(', ')}`,
  number: (field: string) => `${field} must be a number`,
  day: (field: string) => `${field} must be a date (YYYY-MM-DD)`,
  text: (field: string) => `${field} must be text`,
  containsNeedsText: (field: string) => `${field}: "contains" compares text or a list`,
  unknownLabel: (label: string) => `Unknown label: ${label}`,
  unknownProject: (project: string) => `Unknown project: ${project}`,
  unknownUser: (id: string) => `Unknown user: ${id}`,
  unknownMilestone: 'Unknown milestone',
  milestoneElsewhere: 'That milestone belongs to another project',
  notifyNeedsSomeone: 'notify needs userIds or a role',
  commentRequired: 'A comment action needs a body',
  statusInvalid: 'status must be Open, In Progress or Closed',
  fieldNotSettable: (field: string) => `${field} cannot be set by a rule`,
  notYourProject: 'You can only write rules for projects you lead',
  simulateRange: 'from must be before to',
} as const;

/** A rule's own change to a bug is recorded with this in its metadata (history: "by rule <name>"). */
export type RuleMark = Readonly<{ _id: string; name: string; depth: number }>;

// ── the bug a condition reads ──────────────────────────────────────────────────

/** What conditions compare: the bug as the triggering event left it. */
export type BugFacts = Readonly<{
  priority: string;
  severity: string;
  status: BugStatus;
  module: string | null;
  labels: readonly { id: string; name: string }[];
  project: Readonly<{ id: string; key: string }>;
  /** Custom fields by key: option names, numbers, days, text, user ids. */
  fields: Readonly<Record<string, ShownFieldValue>>;
}>;

const lower = (v: unknown) => String(v).trim().toLowerCase();
const equal = (a: unknown, b: unknown) =>
  typeof a === 'number' || typeof b === 'number' ? Number(a) === Number(b) : lower(a) === lower(b);

/** The values a bug holds in a field (a list for labels and multi-selects; none: empty). */
function valuesOf(facts: BugFacts, field: string): { values: (string | number)[]; list: boolean } {
  switch (field) {
    case 'priority':
    case 'severity':
    case 'status':
      return { values: [facts[field]], list: false };
    case 'module':
      return { values: facts.module ? [facts.module] : [], list: false };
    case 'project':
      return { values: [facts.project.id, facts.project.key], list: false };
    case 'labels':
      return { values: facts.labels.flatMap((l) => [l.id, l.name]), list: true };
    default: {
      const value = facts.fields[field];
      if (value === null || value === undefined) return { values: [], list: false };
      return Array.isArray(value) ? { values: value, list: true } : { values: [value], list: false };
    }
  }
}

/** Whether one condition holds of the bug (a project matches by id or key, a label by id or name). */
export function conditionHolds(condition: AutomationCondition, facts: BugFacts): boolean {
  const { values, list } = valuesOf(facts, condition.field);
  const wanted = Array.isArray(condition.value) ? condition.value : [condition.value];
  const has = (v: string | number) => values.some((x) => equal(x, v));
  switch (condition.op) {
    case 'is':
      return list ? wanted.every(has) : wanted.some(has);
    case 'is_not':
      return !wanted.some(has);
    case 'contains':
      return list ? wanted.every(has) : values.some((x) => wanted.every((v) => lower(x).includes(lower(v))));
    case 'in':
      return wanted.some(has);
    default:
      return false;
  }
}

/** All conditions hold (none: always). */
export const conditionsHold = (conditions: readonly AutomationCondition[], facts: BugFacts): boolean =>
  conditions.every((c) => conditionHolds(c, facts));

// ── checking a rule against what exists ──────────────────────────────────────

/** What a rule's words are checked against: the custom fields its project has (every project's, for a rule of all). */
export type AutomationContext = Readonly<{
  /** Custom fields by key (a key of several projects: each of its definitions). */
  fields: ReadonlyMap<string, readonly { type: FieldType; name: string; options: readonly string[] }[]>;
  /** Label ids and names that exist. */
  labels: readonly { id: string; name: string }[];
  /** Project ids and keys that exist. */
  projects: readonly { id: string; key: string }[];
}>;

const isDay = (v: unknown) => typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v);

/**
 * What is wrong with a rule's conditions, each naming its place (`when.conditions.2.value`): an
 * unknown field, a list without `in` (or `in` without one), a value its field cannot hold.
 */
export function conditionIssues(
  conditions: readonly AutomationCondition[],
  context: AutomationContext,
  at = 'when.conditions',
): FieldIssue[] {
  return conditions.flatMap((condition, index) => {
    const issue = conditionIssue(condition, context);
    return issue ? [{ field: `${at}.${index}.${issue.at}`, message: issue.message }] : [];
  });
}

/** The first thing wrong with one condition, and where (its `field` or its `value`). */
function conditionIssue(
  condition: AutomationCondition,
  context: AutomationContext,
): { at: 'field' | 'value'; message: string } | null {
  const { field, op, value } = condition;
  const bad = (message: string) => ({ at: 'value' as const, message });
  const listed = Array.isArray(value);
  const defs = context.fields.get(field) ?? [];
  // Labels and multi-selects hold lists: `is` and `contains` may name several (all of them).
  const holdsList = field === 'labels' || defs.some((def) => def.type === 'multi_select');
  if (op === 'in' && !listed) return bad(automationMessages.inNeedsList(field));
  if (op !== 'in' && listed && !holdsList) return bad(automationMessages.listNeedsIn(field));
  const values = listed ? value : [value];
  const outside = (allowed: readonly string[]) => values.some((v) => !allowed.some((a) => equal(a, v)));
  switch (field) {
    case 'priority':
      return outside(priorities) ? bad(automationMessages.oneOf(field, priorities)) : null;
    case 'severity':
      return outside(severities) ? bad(automationMessages.oneOf(field, severities)) : null;
    case 'status':
      return outside(bugStatuses) ? bad(automationMessages.oneOf(field, bugStatuses)) : null;
    case 'module':
      return values.some((v) => typeof v !== 'string') ? bad(automationMessages.text(field)) : null;
    case 'project': {
      const unknown = values.find((v) => !context.projects.some((p) => equal(p.id, v) || equal(p.key, v)));
      return unknown === undefined ? null : bad(automationMessages.unknownProject(String(unknown)));
    }
    case 'labels': {
      const unknown = values.find((v) => !context.labels.some((l) => equal(l.id, v) || equal(l.name, v)));
      return unknown === undefined ? null : bad(automationMessages.unknownLabel(String(unknown)));
    }
  }
  if (defs.length === 0) return { at: 'field', message: automationMessages.unknownField(field) };
  for (const def of defs) {
    const issue = valueIssue(def, op, values);
    if (issue) return bad(issue);
  }
  return null;
}

/** What a custom field's condition value cannot be, for one definition of its key. */
function valueIssue(
  def: { type: FieldType; name: string; options: readonly string[] },
  op: ConditionOp,
  values: readonly (string | number)[],
): string | null {
  switch (def.type) {
    case 'number':
      if (op === 'contains') return automationMessages.containsNeedsText(def.name);
      return values.every((v) => typeof v === 'number' && Number.isFinite(v))
        ? null
        : automationMessages.number(def.name);
    case 'date':
      if (op === 'contains') return automationMessages.containsNeedsText(def.name);
      return values.every(isDay) ? null : automationMessages.day(def.name);
    case 'select':
    case 'multi_select':
      return values.every((v) => def.options.some((o) => equal(o, v)))
        ? null
        : automationMessages.oneOf(def.name, def.options);
    default:
      return values.every((v) => typeof v === 'string') ? null : automationMessages.text(def.name);
  }
}

/** What a rule's actions are checked against, beyond its conditions' words. */
export type ActionContext = AutomationContext &
  Readonly<{
    /** The rule's project (null: a rule of every project). */
    projectId: string | null;
    /** The people its actions name who exist, with their roles. */
    users: readonly { id: string; role: string }[];
    /** The milestones its actions name that exist, with their projects. */
    milestones: readonly { id: string; projectId: string }[];
  }>;

/** The bug's own fields a `set_field` may set, beside custom fields. */
export const settableFields = ['priority', 'severity', 'module'] as const;

/**
 * What is wrong with a rule's actions, each naming its place (`then.1.labelId`): a field it
 * cannot set or a value that field cannot hold, a label, person or milestone that does not
 * exist, a milestone of another project, a developer who is not one.
 */
export function actionIssues(actions: readonly AutomationAction[], context: ActionContext): FieldIssue[] {
  return actions.flatMap((action, index) => {
    const issue = actionIssue(action, context);
    return issue ? [{ field: `then.${index}.${issue.at}`, message: issue.message }] : [];
  });
}

function actionIssue(action: AutomationAction, context: ActionContext): { at: string; message: string } | null {
  const knownUser = (id: string, role?: string) => context.users.some((u) => u.id === id && (!role || u.role === role));
  switch (action.type) {
    case 'set_field': {
      const { field, value } = action;
      if (field === 'priority' || field === 'severity') {
        const allowed = field === 'priority' ? priorities : severities;
        return allowed.some((a) => equal(a, value ?? ''))
          ? null
          : { at: 'value', message: automationMessages.oneOf(field, allowed) };
      }
      if (field === 'module') {
        return value === null || typeof value === 'string'
          ? null
          : { at: 'value', message: automationMessages.text(field) };
      }
      const defs = context.fields.get(field);
      if (!defs?.length) return { at: 'field', message: automationMessages.unknownField(field) };
      if (value === null) return null;
      for (const def of defs) {
        const values = Array.isArray(value) ? value : [value];
        if (def.type !== 'multi_select' && Array.isArray(value))
          return { at: 'value', message: automationMessages.listNeedsIn(def.name) };
        if (def.type === 'user') {
          const person = values.find((v) => !knownUser(String(v)));
          if (person !== undefined) return { at: 'value', message: automationMessages.unknownUser(String(person)) };
          continue;
        }
        const issue = valueIssue(def, 'is', values);
        if (issue) return { at: 'value', message: issue };
      }
      return null;
    }
    case 'assign': {
      const unknown = action.userIds.find((id) => !knownUser(id, 'developer'));
      return unknown === undefined ? null : { at: 'userIds', message: automationMessages.unknownUser(unknown) };
    }
    case 'notify': {
      const unknown = (action.userIds ?? []).find((id) => !knownUser(id));
      return unknown === undefined ? null : { at: 'userIds', message: automationMessages.unknownUser(unknown) };
    }
    case 'add_label':
    case 'remove_label':
      return context.labels.some((l) => l.id === action.labelId || equal(l.name, action.labelId))
        ? null
        : { at: 'labelId', message: automationMessages.unknownLabel(action.labelId) };
    case 'set_milestone': {
      if (action.milestoneId === null) return null;
      const milestone = context.milestones.find((m) => m.id === action.milestoneId);
      if (!milestone) return { at: 'milestoneId', message: automationMessages.unknownMilestone };
      return context.projectId !== null && milestone.projectId !== context.projectId
        ? { at: 'milestoneId', message: automationMessages.milestoneElsewhere }
        : null;
    }
    default:
      return null;
  }
}
