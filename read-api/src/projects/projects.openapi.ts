import { fieldDtoSchema, projectDtoSchema, stateDtoSchema } from '@bugtrail/domain';
import { bugDtoSchema, invalidAnswer, notFoundAnswer, type RouteSpec, schemaNames } from '@bugtrail/platform';
import { z } from 'zod';
import { listQuery } from '../bugs/bugs.schemas.js';
import { projectMilestoneReadOperation } from '../milestones/milestones.openapi.js';

/** GET /api/projects and /api/projects/{idOrKey} (projects.routes.ts), relative to their mount. */

schemaNames.add(projectDtoSchema, { id: 'Project' });

export const projectReadOperations: RouteSpec[] = [
  {
    method: 'get',
    path: '/',
    summary: 'The projects the caller may see, oldest first',
    description:
      'Public projects for everybody; a private one only for its members, admins and auditors (to anyone else it does not exist).',
    tags: ['projects'],
    responses: { 200: { description: 'The projects', schema: z.object({ projects: z.array(projectDtoSchema) }) } },
  },
  {
    method: 'get',
    path: '/{idOrKey}',
    summary: 'One project, by its id or any key it has had',
    tags: ['projects'],
    params: z.object({ idOrKey: z.string().describe('The project’s `_id`, its key, or an earlier key') }),
    responses: {
      200: { description: 'The project', schema: projectDtoSchema },
      404: { ...notFoundAnswer, description: 'No such project, or a private one the caller is not a member of' },
    },
  },
  {
    method: 'get',
    path: '/{idOrKey}/board',
    summary: 'The project’s board: a column per status, its count and its first cards in rank order',
    description:
      'The bugs the caller may open, as `GET /api/bugs`, with the same filters. Each column holds its first `limit` cards (default 50, at most 100) ordered by `rank`; `count` is the whole column under the filters.',
    tags: ['projects', 'board'],
    params: z.object({ idOrKey: z.string().describe('The project’s `_id`, its key, or an earlier key') }),
    query: listQuery.omit({ sort: true, cursor: true, project: true, status: true }),
    responses: {
      200: {
        description: 'The board',
        schema: z.object({
          project: z.object({ _id: z.string(), key: z.string(), name: z.string() }),
          columns: z.array(
            z.object({
              status: z.enum(['Open', 'In Progress', 'Closed']).describe('The column’s state’s category'),
              state: stateDtoSchema,
              count: z.number().int(),
              bugs: z.array(bugDtoSchema),
            }),
          ),
        }),
      },
      400: invalidAnswer,
      404: { ...notFoundAnswer, description: 'No such project, or a private one the caller is not a member of' },
    },
  },
  projectMilestoneReadOperation,
  {
    method: 'get',
    path: '/{idOrKey}/fields',
    summary: 'The project’s custom fields, in the order they were added',
    description:
      'Each field’s `key` names its values on bugs (`fields.<key>`), in list filters (`field.<key>=value`) and sorts (`sort=field.<key>`).',
    tags: ['projects', 'fields'],
    params: z.object({ idOrKey: z.string().describe('The project’s `_id`, its key, or an earlier key') }),
    responses: {
      200: { description: 'The fields', schema: z.object({ fields: z.array(fieldDtoSchema) }) },
      404: { ...notFoundAnswer, description: 'No such project, or a private one the caller is not a member of' },
    },
  },
  {
    method: 'get',
    path: '/{idOrKey}/states',
    summary: 'The project’s workflow states, in board order',
    description:
      'One per category (Open, In Progress, Closed) until the project sets its own with `PUT /api/projects/{id}/states`.',
    tags: ['projects', 'states'],
    params: z.object({ idOrKey: z.string().describe('The project’s `_id`, its key, or an earlier key') }),
    responses: {
      200: { description: 'The states', schema: z.object({ states: z.array(stateDtoSchema) }) },
      404: { ...notFoundAnswer, description: 'No such project, or a private one the caller is not a member of' },
    },
  },
];
