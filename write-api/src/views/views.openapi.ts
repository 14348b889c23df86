import { savedViewDtoSchema, saveViewBody, viewLimits, viewMessages } from '@bugtrail/domain';
import { errorAnswer, idParam, invalidAnswer, type RouteSpec } from '@bugtrail/platform';
import { z } from 'zod';
import { idempotencyHeader, positionHeaders } from '../commands.openapi.js';

/** POST and DELETE /api/views (views.routes.ts), relative to their mount at /api/views. */

const tags = ['views'];
/** Every role but the auditor, who changes nothing (ADR 012). */
const roles = ['admin', 'tester', 'developer'];

const saveView: RouteSpec = {
  method: 'post',
  path: '/',
  summary: 'Save a named bug list for the caller',
  description:
    'A saved view is personal: only its owner lists or deletes it. Names are unique per user, ignoring case ' +
    `and surrounding spaces; a user keeps at most ${viewLimits.perUser} views.`,
  tags,
  roles,
  headers: idempotencyHeader,
  body: {
    schema: saveViewBody,
    fields: {
      name: `Required; trimmed, 1 to ${viewLimits.nameMax} characters`,
      path:
        'The app route of the list, e.g. `/admin/bugs`, `/tester/all-bugs`, `/developer/assigned-bugs`: starts with ' +
        `"/", URL path characters only, no "//", no scheme, no query or fragment; at most ${viewLimits.pathMax} characters`,
      query:
        `The list's URL query string, e.g. \`status=Open&q=login\`; with or without its leading "?" (stored without); ` +
        `may be empty, null or left out; at most ${viewLimits.queryMax} characters, no "#" or control characters`,
    },
  },
  responses: {
    201: { description: 'The saved view', schema: savedViewDtoSchema, headers: positionHeaders },
    400: invalidAnswer,
    403: errorAnswer('Auditors change nothing'),
    409: errorAnswer(
      `"${viewMessages.duplicateName}", or "${viewMessages.limitReached}"; or changed meanwhile, or this ` +
        'Idempotency-Key is still in flight',
    ),
  },
};

const deleteView: RouteSpec = {
  method: 'delete',
  path: '/{id}',
  summary: 'Delete one of the caller’s saved views',
  tags,
  roles,
  params: idParam,
  headers: idempotencyHeader,
  responses: {
    200: {
      description: 'Deleted',
      schema: z.object({ message: z.string(), _id: z.string() }),
      headers: positionHeaders,
    },
    403: errorAnswer('Auditors change nothing'),
    404: errorAnswer(`"${viewMessages.notFound}": no such view among the caller's own (another user's view too)`),
  },
};

export const viewOperations: RouteSpec[] = [saveView, deleteView];
