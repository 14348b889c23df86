import { commentLimits, commentMessages } from '@bugtrail/domain';
import { errorAnswer, forbiddenAnswer, invalidAnswer, notFoundAnswer, type RouteSpec } from '@bugtrail/platform';
import { z } from 'zod';
import { idempotencyHeader, positionHeaders } from '../commands.openapi.js';
import { commentBody } from './comments.routes.js';

/** The comment commands (comments.routes.ts), relative to their mount at /api/bugs. */

const comment = z.object({
  _id: z.string(),
  author: z.object({ _id: z.string(), name: z.string() }),
  body: z.string(),
  mentions: z.array(z.string()),
  createdAt: z.string(),
  editedAt: z.string().nullable(),
  isDeleted: z.boolean(),
});
const tags = ['bugs'];
const roles = ['admin', 'tester (own)', 'developer (assigned)'];
const bugParam = z.object({ id: z.string().describe('The bug id (`_id`)') });
const commentParams = bugParam.extend({ commentId: z.string().describe('The comment id') });
const fields = {
  body: `Markdown; required, at most ${commentLimits.bodyMax} characters once trimmed`,
  mentions: `The ids of the people mentioned (at most ${commentLimits.mentionsMax}); each must be able to view the bug`,
};

export const bugCommentOperations: RouteSpec[] = [
  {
    method: 'post',
    path: '/{id}/comments',
    summary: 'Comment on a bug (whoever may view it; auditors excepted)',
    tags,
    roles,
    params: bugParam,
    headers: idempotencyHeader,
    body: { schema: commentBody, fields },
    responses: {
      201: { description: 'The comment', schema: z.object({ comment }), headers: positionHeaders },
      400: {
        ...invalidAnswer,
        description: `"${commentMessages.bodyRequired}", or a mention of someone who cannot see the bug`,
      },
      403: forbiddenAnswer,
      404: notFoundAnswer,
    },
  },
  {
    method: 'put',
    path: '/{id}/comments/{commentId}',
    summary: 'Edit one’s own comment',
    tags,
    roles,
    params: commentParams,
    headers: idempotencyHeader,
    body: { schema: commentBody, fields },
    responses: {
      200: { description: 'The comment', schema: z.object({ comment }), headers: positionHeaders },
      400: invalidAnswer,
      403: errorAnswer(`"${commentMessages.notAuthor}"`),
      404: notFoundAnswer,
    },
  },
  {
    method: 'delete',
    path: '/{id}/comments/{commentId}',
    summary: 'Delete a comment (its author, or an admin): it stays listed, emptied',
    tags,
    roles,
    params: commentParams,
    headers: idempotencyHeader,
    responses: {
      204: { description: 'Deleted (again: still 204)' },
      403: errorAnswer(`"${commentMessages.cannotDelete}"`),
      404: notFoundAnswer,
    },
  },
];
