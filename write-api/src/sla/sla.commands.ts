import {
  type Actor,
  createSlaBody,
  ForbiddenError,
  NotFoundError,
  projectMessages,
  seesProject,
  slaMessages,
  slaPolicyDecider,
  slaPolicyDto,
  streams,
  updateSlaBody,
  userMessages,
} from '@bugtrail/domain';
import { errorAnswer, invalidAnswer, slaPolicySchema } from '@bugtrail/platform';
import { z } from 'zod';
import { conditionContext, conditionsById, ledBy, namedProject } from '../automations/condition-context.js';
import { defineCommand } from '../command.js';
import { positionHeaders } from '../commands.openapi.js';
import type { WriteApiDeps } from '../deps.js';
import { loadProject } from '../projects/project-facts.js';
import { SlaTable } from './sla-table.js';

/**
 * SLA policies (api.md "Automation rules", issue 38): admins write any policy, a project's leads
 * that project's. Each policy is one stream; its conditions are checked against what exists, and
 * kept with labels and projects by id. `write_api.sla_policies` follows each event in the
 * append's transaction: write-api's bug answers show the SLA that holds.
 */
const tags = ['sla'];
/** Auditors change nothing (ADR 012): refused at the door. */
const admits = (actor: Actor) => {
  if (actor.role === 'auditor') throw new ForbiddenError(userMessages.readOnlyRole);
};
const audience = ['admin', 'tester (project lead)', 'developer (project lead)'];
const params = {
  schema: z.object({ id: z.string().trim().min(1).max(100) }),
  notFound: slaMessages.notFound,
  openapi: z.object({ id: z.string().describe('The policy’s `_id`') }),
};
const answer = { description: 'The policy', schema: slaPolicySchema, headers: positionHeaders };
const refusals = {
  400: invalidAnswer,
  403: errorAnswer(`"${slaMessages.cannotManage}" or "${slaMessages.notYourProject}"`),
  404: errorAnswer(`"${slaMessages.notFound}", or "${projectMessages.notFound}" for its project`),
};
const fields = {
  name: 'Required, at most 80 characters',
  projectId: 'The project whose bugs it holds for (its `_id` or key); none: every project (admins only)',
  conditions: '`[{ field, op, value }]` as a rule’s: all must hold for the bug',
  respondWithin: '`30s`, `4h`, `3d`: respond = the bug leaves Open',
  resolveWithin: 'Resolve = the bug is Closed; give at least one of the two',
};
const { projectId: _projectId, ...changeFields } = fields;

export const createSla = defineCommand({
  method: 'post',
  path: '/',
  summary: 'Write an SLA policy (admins; a project’s leads for that project)',
  description:
    'The first policy that holds for a bug (its project’s before those of every project, then the oldest) gives it `sla`. A new policy is measured over the past at once (`GET /api/metrics/sla`); breaches are told from its creation on.',
  tags,
  audience,
  admits,
  body: { schema: createSlaBody, fields },
  stream: ({ newId }) => streams.sla(newId('CreateSlaPolicy')),
  decider: slaPolicyDecider,
  command: async ({ body, actor, newId }, deps) => {
    const project = body.projectId ? await namedProject(deps, body.projectId, actor) : null;
    const context = await conditionContext(deps, project);
    return {
      type: 'CreateSlaPolicy',
      data: {
        policyId: newId('CreateSlaPolicy'),
        name: body.name,
        projectId: project?.id ?? null,
        conditions: conditionsById(body.conditions as never, context),
        respondSeconds: body.respondWithin ?? null,
        resolveSeconds: body.resolveWithin ?? null,
        ledProjects: ledBy(actor, project),
        context,
      },
    };
  },
  policy: { mustBeNew: true, alongside: (tx, { state }) => SlaTable.write(tx, state) },
  answer: (handled) => ({ status: 201, body: slaPolicyDto(handled.state) }),
  responses: { 201: { ...answer, description: 'The policy' }, ...refusals },
});

/** The policy's stream folded, and its project as the caller may see it (404 for either missing). */
async function loadPolicy(deps: WriteApiDeps, id: string, actor: Actor) {
  const policy = (await deps.commands.load(streams.sla(id), slaPolicyDecider)).state;
  if (!policy.exists || policy.deleted) throw new NotFoundError(slaMessages.notFound);
  const project = policy.projectId ? await loadProject(deps, policy.projectId) : null;
  if (project && !seesProject(actor, project)) throw new NotFoundError(slaMessages.notFound);
  return { policy, project };
}

export const updateSla = defineCommand({
  method: 'patch',
  path: '/:id',
  summary: 'Change an SLA policy: its name, conditions or targets',
  description: 'Bugs’ SLAs follow at once, the past’s too; a breach due before the change is not told.',
  tags,
  audience,
  admits,
  params,
  body: { schema: updateSlaBody, fields: changeFields },
  stream: ({ params }) => streams.sla(params.id),
  decider: slaPolicyDecider,
  command: async ({ body, params, actor }, deps) => {
    const { project } = await loadPolicy(deps, params.id, actor);
    const context = await conditionContext(deps, project);
    return {
      type: 'ChangeSlaPolicy',
      data: {
        policyId: params.id,
        name: body.name,
        conditions: body.conditions ? conditionsById(body.conditions as never, context) : undefined,
        respondSeconds: body.respondWithin,
        resolveSeconds: body.resolveWithin,
        ledProjects: ledBy(actor, project),
        context,
      },
    };
  },
  policy: { retryOnConflict: true, alongside: (tx, { state }) => SlaTable.write(tx, state) },
  answer: (handled) => ({ status: 200, body: slaPolicyDto(handled.state) }),
  responses: { 200: answer, ...refusals },
});

export const deleteSla = defineCommand({
  method: 'delete',
  path: '/:id',
  summary: 'Delete an SLA policy: its bugs meet the next policy that holds, or none',
  tags,
  audience,
  admits,
  params,
  stream: ({ params }) => streams.sla(params.id),
  decider: slaPolicyDecider,
  command: async ({ params, actor }, deps) => {
    const { project } = await loadPolicy(deps, params.id, actor);
    return { type: 'DeleteSlaPolicy', data: { policyId: params.id, ledProjects: ledBy(actor, project) } };
  },
  policy: ({ params }) => ({
    retryOnConflict: true,
    naturalKey: `delete-sla:${params.id}`,
    alongside: (tx, { state }) => SlaTable.write(tx, state),
  }),
  answer: () => ({ status: 200, body: { message: 'SLA policy deleted' } }),
  responses: {
    200: { description: 'Deleted', schema: z.object({ message: z.string() }), headers: positionHeaders },
    403: refusals[403],
    404: errorAnswer(`"${slaMessages.notFound}"`),
  },
});

export const slaCommands = [createSla, updateSla, deleteSla];
