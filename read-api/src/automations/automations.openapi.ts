import { automationMessages } from '@bugtrail/domain';
import { invalidAnswer, notFoundAnswer, type RouteSpec, schemaNames } from '@bugtrail/platform';
import { z } from 'zod';
import { automationDtoSchema, automationRunsAnswer, automationRunsQuery } from './automations.schemas.js';

schemaNames.add(automationDtoSchema, { id: 'Automation' });

const tags = ['automations'];
const params = z.object({ id: z.string().describe('The rule’s `_id`') });
const notFound = {
  ...notFoundAnswer,
  description: `"${automationMessages.notFound}": none such, or a rule the caller may not read`,
};

/** GET /api/automations and under it (automations.routes.ts), relative to their mount. */
export const automationReadOperations: RouteSpec[] = [
  {
    method: 'get',
    path: '/',
    summary: 'The automation rules the caller may read: every one (admins, auditors), or their projects’ (leads)',
    tags,
    responses: {
      200: { description: 'Oldest first', schema: z.object({ automations: z.array(automationDtoSchema) }) },
    },
  },
  {
    method: 'get',
    path: '/{id}',
    summary: 'One automation rule',
    tags,
    params,
    responses: { 200: { description: 'The rule', schema: automationDtoSchema }, 404: notFound },
  },
  {
    method: 'get',
    path: '/{id}/runs',
    summary: 'A rule’s run log, newest first: what it did, when, to which bug',
    tags,
    params,
    query: automationRunsQuery,
    responses: {
      200: { description: 'The runs', schema: automationRunsAnswer },
      400: invalidAnswer,
      404: notFound,
    },
  },
];
