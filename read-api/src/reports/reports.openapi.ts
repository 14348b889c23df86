import { forbiddenAnswer, invalidAnswer, type RouteSpec } from '@bugtrail/platform';
import { listQuery } from '../bugs/bugs.schemas.js';

/** The exports (reports.routes.ts), relative to their mount at /api/reports. */

const exportOperation = (what: 'bugs' | 'users', file: string, description?: string): RouteSpec => ({
  method: 'get',
  path: `/export/${what}`,
  summary: `Export ${what} as a spreadsheet (${file})`,
  ...(description ? { description, query: listQuery } : {}),
  tags: ['reports'],
  roles: ['admin', 'auditor'],
  responses: {
    200: {
      description: 'xlsx, streamed (Content-Disposition: attachment)',
      contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      headers: { 'Content-Disposition': `attachment; filename="${file}"` },
    },
    403: forbiddenAnswer,
  },
});

const bugExport = (spec: RouteSpec): RouteSpec => ({ ...spec, responses: { ...spec.responses, 400: invalidAnswer } });

export const reportOperations: RouteSpec[] = [
  bugExport(
    exportOperation(
      'bugs',
      'bug_details.xlsx',
      'The bug list as `GET /api/bugs` shows it: the same filters, search and order (its query parameters; `limit` and `cursor` are ignored: every matching bug). Columns: Number, Title, Status (display names: Pending, In Progress, Resolved), Priority, Severity, Module, Reporter, Assignees, Created, Due, Closed, Description, ID.',
    ),
  ),
  exportOperation('users', 'user_details.xlsx'),
];
