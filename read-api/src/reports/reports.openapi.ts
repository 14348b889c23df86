import { forbiddenAnswer, type RouteSpec } from '@bugtrail/platform';

/** The exports (reports.routes.ts), relative to their mount at /api/reports. */

const exportOperation = (what: 'bugs' | 'users', file: string): RouteSpec => ({
  method: 'get',
  path: `/export/${what}`,
  summary: `Export ${what} as a spreadsheet (${file})`,
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

export const reportOperations: RouteSpec[] = [
  exportOperation('bugs', 'bug_details.xlsx'),
  exportOperation('users', 'user_details.xlsx'),
];
