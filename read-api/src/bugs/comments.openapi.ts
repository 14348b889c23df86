import { commentDtoSchema, forbiddenAnswer, notFoundAnswer, type RouteSpec } from '@bugtrail/platform';
import { z } from 'zod';

/** The comments read (comments.routes.ts), relative to its mount at /api/bugs. */
export const bugCommentReadOperations: RouteSpec[] = [
  {
    method: 'get',
    path: '/{id}/comments',
    summary: 'The discussion under a bug, oldest first, for whoever may view the bug',
    description: 'A deleted comment keeps its place with `isDeleted: true` and an empty body.',
    tags: ['bugs'],
    roles: ['admin', 'auditor', 'tester (own)', 'developer (assigned)'],
    params: z.object({ id: z.string().describe('The bug id (`_id`)') }),
    responses: {
      200: { description: 'The comments', schema: z.object({ comments: z.array(commentDtoSchema) }) },
      403: forbiddenAnswer,
      404: notFoundAnswer,
    },
  },
];
