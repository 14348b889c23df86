import {
  byLeadThenName,
  createProjectBody,
  defaultProjectDecider,
  generalProject,
  type ProjectDto,
  type ProjectState,
  projectDecider,
  projectDtoSchema,
  projectIdBody,
  projectMemberBody,
  projectMessages,
  streams,
  updateProjectBody,
} from '@bugtrail/domain';
import { errorAnswer, forbiddenAnswer, invalidAnswer } from '@bugtrail/platform';
import { z } from 'zod';
import { defineCommand } from '../command.js';
import { positionHeaders } from '../commands.openapi.js';
import type { WriteApiDeps } from '../deps.js';
import { defaultProjectId, visibleProject } from './project-facts.js';
import { claimProjectKey } from './project-keys.js';
import { ProjectRights } from './project-rights.js';

/**
 * Projects (api.md "Projects", issue 35): admins create them; admins and a project's leads
 * change it and its members. Each project is one stream; its keys are claimed in the append's
 * transaction (ProjectKeys), so a key is given once across every project, now and before.
 */
const tags = ['projects'];
const id = z.string().trim().min(1).max(100);
/** A project by its `_id` in the path (its field and state commands name it the same way). */
export const projectParams = {
  schema: z.object({ id }),
  notFound: projectMessages.notFound,
  openapi: z.object({ id: z.string().describe('The project’s `_id`') }),
};
const memberParams = {
  schema: z.object({ id, userId: id }),
  notFound: { id: projectMessages.notFound, userId: projectMessages.userNotFound },
  openapi: z.object({
    id: z.string().describe('The project’s `_id`'),
    userId: z.string().describe('The person’s `_id`'),
  }),
};

/** A project as answers show it: members by name, leads first. */
export async function projectDto(deps: WriteApiDeps, state: ProjectState): Promise<ProjectDto> {
  const people = await deps.accounts.people(Object.keys(state.members));
  const members = Object.entries(state.members)
    .map(([userId, role]) => {
      const person = people.get(userId);
      return {
        user: { _id: userId, name: person?.name ?? '', profileImageURL: person?.profileImageURL ?? null },
        role,
      };
    })
    .sort(byLeadThenName);
  return {
    _id: state.id,
    key: state.key,
    name: state.name,
    description: state.description,
    private: state.private,
    access: state.access,
    archived: state.archived,
    createdAt: state.createdAt,
    members,
  };
}

const projectAnswer = { description: 'The project', schema: projectDtoSchema, headers: positionHeaders };
const adminsAndLeads = errorAnswer(`"${projectMessages.adminsAndLeads}"; auditors change nothing`);
const privateNotFound = (what: string) =>
  errorAnswer(`"${projectMessages.notFound}": no such project, or a private one the caller is not a member of${what}`);

export const createProject = defineCommand({
  method: 'post',
  path: '/',
  summary: 'Create a project (admins)',
  description:
    'Its key names its bugs (`WEB-7`) and is given once: a key any project has had, now or before, is refused. ' +
    'A private project and its bugs exist only for its members, admins and auditors.',
  tags,
  roles: ['admin'],
  body: {
    schema: createProjectBody,
    fields: {
      key: '2 to 10 characters: capital letters and digits, starting with a letter (`WEB`)',
      name: 'Required, at most 100 characters',
      description: 'At most 2,000 characters',
      private: 'Only members, admins and auditors see it (default false)',
      access: '"reporters" (default: the roles’ rules) or "team" (members work on every bug of it)',
    },
  },
  stream: ({ newId }) => streams.project(newId('CreateProject')),
  decider: projectDecider,
  command: ({ body, newId }) => ({
    type: 'CreateProject',
    data: {
      projectId: newId('CreateProject'),
      key: body.key,
      name: body.name,
      description: body.description ?? '',
      private: body.private ?? false,
      access: body.access ?? 'reporters',
    },
  }),
  policy: {
    mustBeNew: true,
    alongside: async (tx, { state }) => {
      await claimProjectKey(tx, state.key, state.id);
      await ProjectRights.write(tx, state);
    },
  },
  answer: async (handled, _request, _command, deps) => ({ status: 201, body: await projectDto(deps, handled.state) }),
  responses: {
    201: projectAnswer,
    400: invalidAnswer,
    403: forbiddenAnswer,
    409: errorAnswer(`"${projectMessages.keyTaken}"`),
  },
});

export const updateProject = defineCommand({
  method: 'patch',
  path: '/:id',
  summary: 'Change a project: name, description, key, privacy, access, archived (admins and its leads)',
  description:
    'Only what is sent changes, each change its own event. A new key takes over; the old ones keep resolving. ' +
    'Archived projects stay readable.',
  tags,
  audience: ['admin', 'tester (project lead)', 'developer (project lead)'],
  params: projectParams,
  body: {
    schema: updateProjectBody,
    fields: {
      key: 'A key no project has had (or one of its own earlier keys)',
      name: 'At most 100 characters',
      description: 'At most 2,000 characters',
      private: 'true or false',
      access: '"reporters" or "team"',
      archived: 'true or false',
    },
  },
  stream: ({ params }) => streams.project(params.id),
  decider: projectDecider,
  command: async ({ body, params }, deps) => ({
    type: 'UpdateProject',
    data: {
      // Only a change to team access needs to know (the default project keeps the reporters' rules).
      ...(body.access === 'team' ? { isDefault: (await defaultProjectId(deps)) === params.id } : {}),
      ...(body.key !== undefined ? { key: body.key } : {}),
      ...(body.name !== undefined ? { name: body.name } : {}),
      // null clears it.
      ...(body.description !== undefined ? { description: body.description ?? '' } : {}),
      ...(body.private !== undefined ? { private: body.private } : {}),
      ...(body.access !== undefined ? { access: body.access } : {}),
      ...(body.archived !== undefined ? { archived: body.archived } : {}),
    },
  }),
  policy: {
    retryOnConflict: true,
    alongside: async (tx, { before, state }) => {
      if (state.key !== before.key) await claimProjectKey(tx, state.key, state.id);
      if (state.private !== before.private || state.access !== before.access) await ProjectRights.write(tx, state);
    },
  },
  answer: async (handled, _request, _command, deps) => ({ status: 200, body: await projectDto(deps, handled.state) }),
  responses: {
    200: projectAnswer,
    400: invalidAnswer,
    403: adminsAndLeads,
    404: privateNotFound(''),
    409: errorAnswer(`"${projectMessages.keyTaken}", or "${projectMessages.defaultKeepsReporters}"`),
  },
});

export const setProjectMember = defineCommand({
  method: 'put',
  path: '/:id/members/:userId',
  summary: 'Add a member to a project, or change their role (admins and its leads)',
  tags,
  audience: ['admin', 'tester (project lead)', 'developer (project lead)'],
  params: memberParams,
  body: { schema: projectMemberBody, fields: { role: '"lead" or "member"' } },
  stream: ({ params }) => streams.project(params.id),
  decider: projectDecider,
  command: async ({ params, body }, deps) => ({
    type: 'SetProjectMember',
    data: { userId: params.userId, role: body.role, userKnown: (await deps.accounts.people([params.userId])).size > 0 },
  }),
  policy: { retryOnConflict: true, alongside: (tx, { state }) => ProjectRights.write(tx, state) },
  answer: async (handled, _request, _command, deps) => ({ status: 200, body: await projectDto(deps, handled.state) }),
  responses: {
    200: projectAnswer,
    400: invalidAnswer,
    403: adminsAndLeads,
    404: privateNotFound(`; or "${projectMessages.userNotFound}"`),
    409: errorAnswer(`"${projectMessages.lastLead}"`),
  },
});

export const removeProjectMember = defineCommand({
  method: 'delete',
  path: '/:id/members/:userId',
  summary: 'Remove a member from a project (admins and its leads)',
  tags,
  audience: ['admin', 'tester (project lead)', 'developer (project lead)'],
  params: memberParams,
  stream: ({ params }) => streams.project(params.id),
  decider: projectDecider,
  command: ({ params }) => ({ type: 'RemoveProjectMember', data: { userId: params.userId } }),
  policy: ({ params }) => ({
    retryOnConflict: true,
    naturalKey: `${params.id}:${params.userId}`,
    alongside: (tx, { state }) => ProjectRights.write(tx, state),
  }),
  answer: async (handled, _request, _command, deps) => ({ status: 200, body: await projectDto(deps, handled.state) }),
  responses: {
    200: projectAnswer,
    403: adminsAndLeads,
    404: privateNotFound(`; or "${projectMessages.memberNotFound}"`),
    409: errorAnswer(`"${projectMessages.lastLead}"`),
  },
});

export const setDefaultProject = defineCommand({
  method: 'put',
  path: '/default',
  summary: 'Choose the project a bug reported without `projectId` goes to (admins)',
  description: `The first start makes "${generalProject.name}" (key ${generalProject.key}) the default.`,
  tags,
  roles: ['admin'],
  body: { schema: projectIdBody, fields: { projectId: 'The project’s `_id` (or key)' } },
  stream: () => streams.defaultProject(),
  decider: defaultProjectDecider,
  command: async ({ body, actor, once }, deps) => {
    const project = await once('project', () => visibleProject(deps, body.projectId, actor));
    return {
      type: 'SetDefaultProject',
      data: project
        ? { projectId: project.id, projectExists: true, access: project.access }
        : { projectId: body.projectId, projectExists: false },
    };
  },
  policy: { retryOnConflict: true },
  answer: (handled) => ({ status: 200, body: { projectId: handled.state.projectId } }),
  responses: {
    200: {
      description: 'The default project now',
      schema: z.object({ projectId: z.string() }),
      headers: positionHeaders,
    },
    400: invalidAnswer,
    403: forbiddenAnswer,
    404: errorAnswer(`"${projectMessages.notFound}"`),
    409: errorAnswer(`"${projectMessages.defaultKeepsReporters}": a team project cannot be the default`),
  },
});

/** `/default` is declared before `/:id`'s routes so Hono matches it first. */
export const projectCommands = [setDefaultProject, createProject, updateProject, setProjectMember, removeProjectMember];
