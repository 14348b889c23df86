import { forbiddenAnswer, notFoundAnswer, type RouteSpec } from '@bugtrail/platform';
import { z } from 'zod';

/** The bug file read (bug-files.routes.ts), relative to its mount at /api/bugs. */

export const bugFileReadOperations: RouteSpec[] = [
  {
    method: 'get',
    path: '/{id}/attachments/{fileId}',
    summary: 'A file attached to a bug (its `files[].url`), for those who may see the bug',
    description:
      'Checked on every fetch: admins and auditors any bug (deleted ones too, whose history they read), a tester ' +
      "the bugs they reported, a developer the bugs assigned to them. Anyone else gets the bug's refusal and never " +
      'the bytes. Answered with the type its bytes were found to have, `X-Content-Type-Options: nosniff`, ' +
      '`Content-Disposition: inline` for PNG, JPEG, GIF and WebP images and `attachment` for anything else, and ' +
      '`ETag` (a file never changes under its id: `If-None-Match` gives 304 after the same check).',
    tags: ['bugs'],
    roles: ['admin', 'auditor', 'tester (own)', 'developer (assigned)'],
    params: z.object({
      id: z.string().describe('The bug id (`_id`)'),
      fileId: z.string().describe('The file id (`files[]._id`)'),
    }),
    responses: {
      200: {
        description: 'The file',
        contentType: 'application/octet-stream',
        headers: { 'Content-Disposition': 'inline (images) or attachment, with the file name', ETag: 'The file id' },
      },
      304: { description: 'Not modified (If-None-Match)' },
      403: forbiddenAnswer,
      404: {
        ...notFoundAnswer,
        description: 'No such bug (or deleted, for those who may not read its history), or no such file on it',
      },
    },
  },
];
