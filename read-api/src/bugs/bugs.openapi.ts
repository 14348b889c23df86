import {
  bugDtoSchema,
  errorAnswer,
  forbiddenAnswer,
  idParam,
  invalidAnswer,
  notFoundAnswer,
  type RouteSpec,
  schemaNames,
} from '@bugtrail/platform';
import { z } from 'zod';
import { bugFileReadOperations } from './bug-files.openapi.js';
import {
  allViewableSchema,
  bugAtSchema,
  bugCompareSchema,
  bugListSchema,
  dashboardQuery,
  dashboardSchema,
  historyQuery,
  historySchema,
  listQuery,
  statusSummarySchema,
} from './bugs.schemas.js';
import { bugCommentReadOperations } from './comments.openapi.js';

/** The bug reads (bugs.routes.ts), relative to their mount at /api/bugs. */

schemaNames.add(statusSummarySchema, { id: 'StatusSummary' });
schemaNames.add(dashboardSchema, { id: 'Dashboard' });

const tags = ['bugs'];
const nextCursorHeader = {
  'X-Next-Cursor': 'The next page cursor, when there is one',
  'X-Total-Count': 'With `limit`: how many bugs the list holds, all pages together',
};

const dashboard = (role: 'admin' | 'tester' | 'developer'): RouteSpec => ({
  method: 'get',
  path: `/${role}-dashboard`,
  summary: `The ${role} dashboard: statistics, charts and the 10 newest bugs of the caller's scope`,
  description:
    'With `asOf`, the counts and newest bugs as they were at that moment. With `project`, only the bugs of those projects (then).',
  tags: ['dashboards'],
  query: dashboardQuery,
  // Auditors read the admin's dashboard.
  roles: role === 'admin' ? ['admin', 'auditor'] : [role],
  responses: { 200: { description: 'Dashboard', schema: dashboardSchema }, 400: invalidAnswer, 403: forbiddenAnswer },
});

export const bugReadOperations: RouteSpec[] = [
  ...bugFileReadOperations,
  ...bugCommentReadOperations,
  {
    method: 'get',
    path: '/',
    summary: "The caller's bugs (admin and auditor all, tester reported, developer assigned), newest first",
    tags,
    query: listQuery,
    responses: {
      200: {
        description: 'bugs and statusSummary (over the unfiltered scope)',
        schema: bugListSchema,
        headers: nextCursorHeader,
      },
      400: invalidAnswer,
    },
  },
  {
    method: 'get',
    path: '/all-viewable',
    summary: 'Every bug the caller may list (tester: all bugs; developer: assigned; admin: all)',
    description:
      'A tester gets the bugs others reported as list rows only (no description, checklist or attachments; `q` matches their titles), their own in full.',
    tags,
    query: listQuery,
    responses: {
      200: { description: 'bugs and statusSummary', schema: allViewableSchema, headers: nextCursorHeader },
      400: invalidAnswer,
    },
  },
  {
    method: 'get',
    path: '/assigned',
    summary: 'Bugs assigned to the caller',
    tags,
    roles: ['developer', 'admin', 'auditor'],
    query: listQuery,
    responses: {
      200: { description: 'Bare array', schema: z.array(bugDtoSchema), headers: nextCursorHeader },
      400: invalidAnswer,
      403: forbiddenAnswer,
    },
  },
  {
    method: 'get',
    path: '/user/{id}',
    summary: 'Bugs a user reported (admin and auditor: anyone; tester: own id only)',
    tags,
    roles: ['admin', 'auditor', 'tester'],
    params: idParam,
    query: listQuery,
    responses: {
      200: { description: 'Bare array', schema: z.array(bugDtoSchema), headers: nextCursorHeader },
      400: invalidAnswer,
      403: forbiddenAnswer,
      404: notFoundAnswer,
    },
  },
  dashboard('admin'),
  dashboard('tester'),
  dashboard('developer'),
  {
    method: 'get',
    path: '/by-number/{n}',
    summary: 'One bug by its number (#42): the same answer and permissions as by id',
    tags,
    params: z.object({ n: z.string().describe('The bug number: 1, 2, 3, …') }),
    responses: {
      200: { description: 'The bug', schema: bugDtoSchema },
      403: errorAnswer("You don't have permission to view this bug"),
      404: errorAnswer('Bug not found (also deleted bugs, and anything that is not a number)'),
    },
  },
  {
    method: 'get',
    path: '/by-key/{key}',
    summary: 'One bug by its key (`WEB-7`): the same answer and permissions as by id',
    description:
      'A key the bug had in another project, or its project had before a new key, still names it. ' +
      'A private project’s keys name nothing for those who cannot see the project (404).',
    tags,
    params: z.object({ key: z.string().describe('The project’s key, a dash and the bug’s number in it: `WEB-7`') }),
    responses: {
      200: { description: 'The bug', schema: bugDtoSchema },
      403: errorAnswer("You don't have permission to view this bug"),
      404: errorAnswer('Bug not found (also deleted bugs, and anything that is not a key)'),
    },
  },
  {
    method: 'get',
    path: '/{id}',
    summary: 'One bug',
    tags,
    params: idParam,
    responses: {
      200: { description: 'The bug', schema: bugDtoSchema },
      403: errorAnswer("You don't have permission to view this bug"),
      404: errorAnswer('Bug not found (also deleted bugs)'),
    },
  },
  {
    method: 'get',
    path: '/{id}/history',
    summary:
      "The bug's audit history (admins also of deleted bugs); with ?at, the bug as it was then; with ?from&to, two moments compared",
    description:
      "With `from` and `to` (both, and without `at`): `{ from, to, changes }`, the bug at each moment (null when it did not exist yet) and the fields that differ, named by the bug form's labels. 404 when the bug existed at neither.",
    tags,
    params: idParam,
    query: historyQuery,
    responses: {
      200: {
        description: 'Every event in order, or (with ?at) the bug, or (with ?from&to) the comparison',
        schema: z.union([historySchema, bugAtSchema, bugCompareSchema]),
      },
      400: invalidAnswer,
      403: forbiddenAnswer,
      404: notFoundAnswer,
    },
  },
];
