import {
  type ActionContext,
  type Actor,
  type AutomationAction,
  type AutomationState,
  automationDecider,
  automationMessages,
  createAutomationBody,
  ForbiddenError,
  milestoneDecider,
  NotFoundError,
  type ProjectState,
  projectMessages,
  seesProject,
  streams,
  updateAutomationBody,
  userMessages,
} from '@bugtrail/domain';
import { errorAnswer, invalidAnswer } from '@bugtrail/platform';
import { z } from 'zod';
import { defineCommand } from '../command.js';
import { positionHeaders } from '../commands.openapi.js';
import type { WriteApiDeps } from '../deps.js';
import { loadProject } from '../projects/project-facts.js';
import { conditionContext, ledBy, namedProject } from './condition-context.js';

/**
 * Automation rules (api.md "Automation rules", issue 38): admins write any rule, a project's
 * leads that project's rules. Each rule is one stream; its words are checked against what
 * exists (the project's custom fields, or every project's for a rule of all; labels, people,
 * milestones) before anything is appended. The automation reactor runs them (ADR 029).
 */
const tags = ['automations'];
/** Auditors change nothing (ADR 012): refused at the door, before a rule is looked for. */
const admits = (actor: Actor) => {
  if (actor.role === 'auditor') throw new ForbiddenError(userMessages.readOnlyRole);
};
const audience = ['admin', 'tester (project lead)', 'developer (project lead)'];
const automationParams = {
  schema: z.object({ id: z.string().trim().min(1).max(100) }),
  notFound: automationMessages.notFound,
  openapi: z.object({ id: z.string().describe('The rule’s `_id`') }),
};

/** A rule as answers show it (`then`: its actions, as api.md calls them). */
export const automationDto = (state: AutomationState) => ({
  _id: state.id,
  name: state.name,
  projectId: state.projectId,
  enabled: state.enabled,
  paused: state.paused,
  when: state.when,
  // biome-ignore lint/suspicious/noThenProperty: api.md's word for a rule's actions (an array, never a thenable)
  then: state.actions,
});
const automationAnswer = {
  description: 'The rule',
  schema: z.object({
    _id: z.string(),
    name: z.string(),
    projectId: z.string().nullable(),
    enabled: z.boolean(),
    paused: z
      .boolean()
      .describe('Paused by the reactor after five failing runs in a row; enabling it again resumes it'),
    when: z.object({
      event: z.string(),
      conditions: z.array(z.object({ field: z.string(), op: z.string(), value: z.unknown() })),
    }),
    // biome-ignore lint/suspicious/noThenProperty: api.md's word for a rule's actions
    then: z.array(z.object({ type: z.string() }).loose()),
  }),
  headers: positionHeaders,
};
const refusals = {
  400: invalidAnswer,
  403: errorAnswer(`"${automationMessages.cannotManage}" or "${automationMessages.notYourProject}"`),
  404: errorAnswer(`"${automationMessages.notFound}", or "${projectMessages.notFound}" for its project`),
};
const fields = {
  name: 'Required, at most 80 characters',
  projectId: 'The project whose bugs it acts on (its `_id` or key); none: every project (admins only)',
  enabled: 'Default true; a rule acts on events recorded after it is created or enabled',
  when: '`{ event, conditions: [{ field, op, value }] }`',
  // biome-ignore lint/suspicious/noThenProperty: api.md's word for a rule's actions (a description here)
  then: 'The actions, 1 to 10: `{ type, ... }`',
};

/** A rule's project is for good: a change names the rest. */
const { projectId: _projectId, ...changeFields } = fields;

/** What a rule's words are checked against: its project's fields (every project's for a rule of all), labels, people, milestones. */
async function actionContext(
  deps: WriteApiDeps,
  project: ProjectState | null,
  actions: readonly AutomationAction[],
): Promise<ActionContext> {
  const { fields: byKey, labels, projects } = await conditionContext(deps, project);
  const userIds = new Set<string>();
  const milestoneIds = new Set<string>();
  for (const action of actions) {
    if (action.type === 'assign' || action.type === 'notify') for (const id of action.userIds ?? []) userIds.add(id);
    if (action.type === 'set_field' && typeof action.value === 'string') userIds.add(action.value);
    if (action.type === 'set_milestone' && action.milestoneId) milestoneIds.add(action.milestoneId);
  }
  const { rows: users } = await deps.pool.query<{ user_id: string; role: string }>(
    'select user_id, role from auth.credentials where user_id = any($1::text[]) and deactivated_at is null',
    [[...userIds]],
  );
  const milestones = await Promise.all(
    [...milestoneIds].map(async (id) => (await deps.commands.load(streams.milestone(id), milestoneDecider)).state),
  );
  return {
    projectId: project?.id ?? null,
    fields: byKey,
    labels,
    projects,
    users: users.map((u) => ({ id: u.user_id, role: u.role })),
    milestones: milestones.filter((m) => m.exists && !m.deleted).map((m) => ({ id: m.id, projectId: m.projectId })),
  };
}

/** A label named by its name is kept by its id, as api.md names it (`labelId`). */
function withLabelIds(actions: readonly AutomationAction[], context: ActionContext): AutomationAction[] {
  return actions.map((action) => {
    if (action.type !== 'add_label' && action.type !== 'remove_label') return action;
    const wanted = action.labelId.trim().toLowerCase();
    const label =
      context.labels.find((l) => l.id === action.labelId) ??
      context.labels.find((l) => l.name.toLowerCase() === wanted);
    return label ? { ...action, labelId: label.id } : action;
  });
}

export const createAutomation = defineCommand({
  method: 'post',
  path: '/',
  summary: 'Write an automation rule (admins; a project’s leads for that project)',
  description:
    'Checked against what exists: an unknown field, event, operator or action, a value its field cannot hold, or a label, person or milestone that does not exist is a 400 naming it (`details[].field` is its place: `when.conditions.0.value`, `then.1.labelId`).',
  tags,
  audience,
  admits,
  body: { schema: createAutomationBody, fields },
  stream: ({ newId }) => streams.automation(newId('CreateAutomation')),
  decider: automationDecider,
  command: async ({ body, actor, newId }, deps) => {
    const project = body.projectId ? await namedProject(deps, body.projectId, actor) : null;
    const context = await actionContext(deps, project, body.then);
    return {
      type: 'CreateAutomation',
      data: {
        automationId: newId('CreateAutomation'),
        name: body.name,
        projectId: project?.id ?? null,
        enabled: body.enabled,
        when: { event: body.when.event, conditions: body.when.conditions as never },
        actions: withLabelIds(body.then, context),
        ledProjects: ledBy(actor, project),
        context,
      },
    };
  },
  policy: { mustBeNew: true },
  answer: (handled) => ({ status: 201, body: automationDto(handled.state) }),
  responses: { 201: automationAnswer, ...refusals },
});

/** The rule's stream folded, and its project as the caller may see it (404 for either missing). */
async function loadRule(deps: WriteApiDeps, id: string, actor: Actor) {
  const rule = (await deps.commands.load(streams.automation(id), automationDecider)).state;
  if (!rule.exists || rule.deleted) throw new NotFoundError(automationMessages.notFound);
  const project = rule.projectId ? await loadProject(deps, rule.projectId) : null;
  if (project && !seesProject(actor, project)) throw new NotFoundError(automationMessages.notFound);
  return { rule, project };
}

export const updateAutomation = defineCommand({
  method: 'patch',
  path: '/:id',
  summary: 'Change a rule: its name, words, or whether it is enabled',
  description: 'Enabling a rule again (or a paused one) makes it act on events recorded from then on.',
  tags,
  audience,
  admits,
  params: automationParams,
  body: { schema: updateAutomationBody, fields: changeFields },
  stream: ({ params }) => streams.automation(params.id),
  decider: automationDecider,
  command: async ({ body, params, actor }, deps) => {
    const { project } = await loadRule(deps, params.id, actor);
    const context = await actionContext(deps, project, body.then ?? []);
    return {
      type: 'ChangeAutomation',
      data: {
        automationId: params.id,
        name: body.name,
        enabled: body.enabled,
        when: body.when ? { event: body.when.event, conditions: body.when.conditions as never } : undefined,
        actions: body.then ? withLabelIds(body.then, context) : undefined,
        ledProjects: ledBy(actor, project),
        context,
      },
    };
  },
  policy: { retryOnConflict: true },
  answer: (handled) => ({ status: 200, body: automationDto(handled.state) }),
  responses: { 200: automationAnswer, ...refusals },
});

export const deleteAutomation = defineCommand({
  method: 'delete',
  path: '/:id',
  summary: 'Delete a rule: it acts no more; its run log stays in history',
  tags,
  audience,
  admits,
  params: automationParams,
  stream: ({ params }) => streams.automation(params.id),
  decider: automationDecider,
  command: async ({ params, actor }, deps) => {
    const { project } = await loadRule(deps, params.id, actor);
    return { type: 'DeleteAutomation', data: { automationId: params.id, ledProjects: ledBy(actor, project) } };
  },
  policy: ({ params }) => ({ retryOnConflict: true, naturalKey: `delete-automation:${params.id}` }),
  answer: () => ({ status: 200, body: { message: 'Automation deleted' } }),
  responses: {
    200: { description: 'Deleted', schema: z.object({ message: z.string() }), headers: positionHeaders },
    403: refusals[403],
    404: errorAnswer(`"${automationMessages.notFound}"`),
  },
});

export const automationCommands = [createAutomation, updateAutomation, deleteAutomation];
