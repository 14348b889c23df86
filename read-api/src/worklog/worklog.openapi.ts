import { invalidAnswer, type RouteSpec } from '@bugtrail/platform';
import { z } from 'zod';
import { worklogQuery } from './worklog.routes.js';

/** Timesheets (worklog.routes.ts): `GET /api/worklog` and its export under /api/reports. */

const person = z.object({ _id: z.string(), name: z.string() });
const project = z.object({ _id: z.string(), key: z.string(), name: z.string() });
const entry = z.object({
  _id: z.string(),
  on: z.string().describe('YYYY-MM-DD'),
  minutes: z.number().int(),
  note: z.string(),
  loggedAt: z.string().describe('ISO 8601'),
  user: person,
  bug: z.object({ _id: z.string(), key: z.string().nullable(), title: z.string(), projectId: z.string() }),
  project,
});

export const worklogOperations: RouteSpec[] = [
  {
    method: 'get',
    path: '/',
    summary: 'A timesheet: the worklog entries of a date range, with totals per person and per project',
    description:
      'The entries of the bugs the caller may open, day by day (at most 1,000; `truncated` says when there are more — the totals count every one). `project` and `user` narrow it; `bug` gives one bug’s entries, of every day unless a range is asked for.',
    tags: ['time'],
    query: worklogQuery.omit({ format: true }),
    responses: {
      200: {
        description: 'The timesheet',
        schema: z.object({
          from: z.string(),
          to: z.string(),
          entries: z.array(entry),
          truncated: z.boolean(),
          totals: z.object({
            minutes: z.number().int(),
            byUser: z.array(z.object({ user: person, minutes: z.number().int() })),
            byProject: z.array(z.object({ project, minutes: z.number().int() })),
          }),
        }),
      },
      400: invalidAnswer,
    },
  },
];

export const worklogExportOperations: RouteSpec[] = [
  {
    method: 'get',
    path: '/export/worklog',
    summary: 'Export a timesheet as a spreadsheet (xlsx) or CSV (`format=csv`)',
    description:
      'Every entry `GET /api/worklog` would count, streamed page by page. Columns: Day, Person, Project, Bug, Title, Minutes, Hours, Note.',
    tags: ['time', 'reports'],
    query: worklogQuery,
    responses: {
      200: {
        description: 'xlsx or CSV, streamed (Content-Disposition: attachment)',
        contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        alsoContentTypes: ['text/csv'],
      },
      400: invalidAnswer,
    },
  },
];
