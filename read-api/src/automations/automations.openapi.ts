import { automationMessages, simulateAutomationBody, simulateDraftBody } from '@bugtrail/domain';
import { invalidAnswer, notFoundAnswer, type RouteSpec, schemaNames } from '@bugtrail/platform';
import { z } from 'zod';
import {
  automationDtoSchema,
  automationRunsAnswer,
  automationRunsQuery,
  simulationAnswer,
} from './automations.schemas.js';

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
  {
    method: 'post',
    path: '/{id}/simulate',
    summary: 'Replay a rule over a stretch of history: what it would have matched and done, changing nothing',
    description:
      'Read off the event log: each triggering event in [from, to), the bug as that event’s command left it, the same conditions the live rule uses.',
    tags,
    params,
    body: { schema: simulateAutomationBody, fields: { from: 'ISO 8601 date or time', to: 'ISO 8601, after from' } },
    responses: { 200: { description: 'The simulation', schema: simulationAnswer }, 400: invalidAnswer, 404: notFound },
  },
  {
    method: 'post',
    path: '/simulate',
    summary: 'Replay a rule not saved yet (the editor’s) over a stretch of history, changing nothing',
    tags,
    body: {
      schema: simulateDraftBody,
      fields: {
        when: 'As POST /api/automations',
        // biome-ignore lint/suspicious/noThenProperty: api.md's word for a rule's actions (a description here)
        then: 'As POST /api/automations',
        from: 'ISO 8601',
        to: 'ISO 8601',
      },
    },
    responses: {
      200: { description: 'The simulation', schema: simulationAnswer },
      400: invalidAnswer,
      403: { description: `"${automationMessages.cannotManage}"`, schema: z.object({ message: z.string() }) },
      404: notFound,
    },
  },
];
