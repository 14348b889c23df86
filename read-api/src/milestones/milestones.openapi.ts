import { milestoneDtoSchema, milestoneMessages } from '@bugtrail/domain';
import { invalidAnswer, notFoundAnswer, type RouteSpec, schemaNames } from '@bugtrail/platform';
import { z } from 'zod';
import { asOfQuery } from '../as-of.js';

schemaNames.add(milestoneDtoSchema, { id: 'Milestone' });

const params = z.object({ id: z.string().describe('The milestone’s `_id`') });
const notFound = {
  ...notFoundAnswer,
  description: `"${milestoneMessages.notFound}": none such, or of a project the caller cannot see`,
};

/** GET /api/milestones/{id} and its burn-up (milestones.routes.ts), relative to their mount. */
export const milestoneReadOperations: RouteSpec[] = [
  {
    method: 'get',
    path: '/{id}',
    summary: 'One milestone, with its progress (its bugs now: how many, how many Closed)',
    tags: ['milestones'],
    params,
    responses: { 200: { description: 'The milestone', schema: milestoneDtoSchema }, 404: notFound },
  },
  {
    method: 'get',
    path: '/{id}/burnup',
    summary: 'The milestone’s burn-up, day by day from the event log',
    description:
      'From its start date (else the day it was made) to today, or to `asOf`: `scope`, the bugs in it at the end of each day (UTC) as they were then, so bugs added late or taken out show as they were; `closed`, those of them Closed then. At most the last 731 days.',
    tags: ['milestones'],
    params,
    query: asOfQuery,
    responses: {
      200: {
        description: 'The days',
        schema: z.object({
          days: z.array(
            z.object({ date: z.string().describe('YYYY-MM-DD'), scope: z.number().int(), closed: z.number().int() }),
          ),
        }),
      },
      400: invalidAnswer,
      404: notFound,
    },
  },
];

/** GET /api/projects/{idOrKey}/milestones, relative to /api/projects. */
export const projectMilestoneReadOperation: RouteSpec = {
  method: 'get',
  path: '/{idOrKey}/milestones',
  summary: 'The project’s milestones: open ones by due date, then closed ones',
  tags: ['milestones'],
  params: z.object({ idOrKey: z.string().describe('The project’s `_id`, its key, or an earlier key') }),
  responses: {
    200: { description: 'The milestones', schema: z.object({ milestones: z.array(milestoneDtoSchema) }) },
    404: { ...notFoundAnswer, description: 'No such project, or a private one the caller is not a member of' },
  },
};
