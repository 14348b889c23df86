import { bugStatusSchema, prioritySchema, severitySchema } from '@bugtrail/domain';
import {
  bugDtoSchema,
  errorAnswer,
  forbiddenAnswer,
  idParam,
  invalidAnswer,
  notFoundAnswer,
  type RouteSpec,
} from '@bugtrail/platform';
import { z } from 'zod';
import { idempotencyHeader, positionHeaders } from '../commands.openapi.js';
import { bugFileOperations } from './bug-files.openapi.js';
import { bugPayload, checklistPayload, reportPayload, statusPayload } from './bug-input.js';
import { bugCommentOperations } from './comments.openapi.js';

/** The bug commands (bugs.routes.ts), relative to their mount at /api/bugs. */

const tags = ['bugs'];
const bugAnswer = z.object({ message: z.string(), bug: bugDtoSchema });
const answerHeaders = { ...positionHeaders, ETag: 'The bug `version`, quoted: send it back as If-Match' };
const ifMatchHeader = idempotencyHeader.extend({
  'If-Match': z.string().optional().describe('The bug `version` the change was based on: 409 when stale'),
});
const stale = errorAnswer('Stale change (If-Match)');
const statusValue = z
  .string()
  .describe('Open, In Progress, Closed, or Pending (= Open), Resolved (= Closed); any case');

/** The rules the domain checks on a bug payload, with the spec's messages. */
const bugFields = {
  title: 'Required; 5 to 100 characters',
  description: 'Required; at least 10 characters',
  priority: prioritySchema.optional().describe('Any case'),
  severity: severitySchema.optional().describe('Any case'),
  status: statusValue
    .optional()
    .describe('Ignored on create (always Open). On edit: applied when the caller may change status (admin)'),
  module: 'At most 50 characters',
  dueDate: 'ISO date-time or YYYY-MM-DD; not before today (UTC); null for none',
  assignedTo: 'Developer ids (or `{_id}` objects); at least one',
  checklist:
    'Items as strings or `{_id, text, completed}`; completion counts only from an assigned developer or an admin',
  attachments: 'Absolute http(s) links of at most 2,048 characters',
} satisfies Record<string, string | z.ZodType>;

export const bugOperations: RouteSpec[] = [
  {
    method: 'post',
    path: '/',
    summary: 'Report a bug (always Open)',
    tags,
    roles: ['tester', 'admin'],
    headers: idempotencyHeader,
    body: {
      schema: reportPayload,
      fields: {
        ...bugFields,
        suggestions:
          "Optional, from the report form: `{ shown, taken }`, the triage suggestion kinds it showed (duplicates, severity, priority, assignees) and those the reporter applied (severity, priority, assignees). Recorded in the BugReported event's metadata. Unknown kinds are dropped; a taken kind counts as shown; anything but lists of words is 400",
      },
    },
    responses: {
      201: { description: 'Reported', schema: bugAnswer, headers: answerHeaders },
      400: invalidAnswer,
      403: forbiddenAnswer,
    },
  },
  {
    method: 'put',
    path: '/{id}',
    summary: 'Edit a bug (details, assignees, checklist, links); absent fields stay',
    tags,
    roles: ['admin', 'tester (own)'],
    params: idParam,
    headers: ifMatchHeader,
    body: { schema: bugPayload, fields: bugFields },
    responses: {
      200: { description: 'Updated', schema: bugAnswer, headers: answerHeaders },
      400: invalidAnswer,
      403: forbiddenAnswer,
      404: notFoundAnswer,
      409: stale,
    },
  },
  {
    method: 'delete',
    path: '/{id}',
    summary: 'Delete a bug',
    tags,
    roles: ['admin', 'tester (own)'],
    params: idParam,
    headers: ifMatchHeader,
    responses: {
      200: { description: 'Deleted', schema: z.object({ message: z.string() }), headers: positionHeaders },
      403: forbiddenAnswer,
      404: notFoundAnswer,
      409: stale,
    },
  },
  {
    method: 'put',
    path: '/{id}/status',
    summary: 'Change the status (any to any)',
    tags,
    roles: ['admin', 'developer (assigned)'],
    params: idParam,
    headers: ifMatchHeader,
    body: {
      schema: statusPayload,
      fields: {
        status: statusValue.describe(`Required: ${bugStatusSchema.options.join(', ')}, or Pending, Resolved; any case`),
      },
    },
    responses: {
      200: { description: 'Changed', schema: bugAnswer, headers: answerHeaders },
      400: invalidAnswer,
      403: forbiddenAnswer,
      404: notFoundAnswer,
      409: stale,
    },
  },
  {
    method: 'put',
    path: '/{id}/checklist',
    summary: 'Replace the checklist (matched by _id, else by position)',
    tags,
    roles: ['admin', 'developer (assigned)', 'tester (own, text only)'],
    params: idParam,
    headers: ifMatchHeader,
    body: { schema: checklistPayload, fields: { checklist: bugFields.checklist } },
    responses: {
      200: { description: 'Updated', schema: bugAnswer, headers: answerHeaders },
      400: invalidAnswer,
      403: forbiddenAnswer,
      404: notFoundAnswer,
      409: stale,
    },
  },
  ...bugFileOperations,
  ...bugCommentOperations,
];
