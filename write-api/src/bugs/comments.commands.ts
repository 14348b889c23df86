import {
  type BugDiscussion,
  bugMessages,
  commentDecider,
  commentLimits,
  commentMessages,
  NotFoundError,
  streams,
  toCommentDto,
} from '@bugtrail/domain';
import type { Handled } from '@bugtrail/eventstore';
import { commentDtoSchema, errorAnswer, forbiddenAnswer, invalidAnswer, notFoundAnswer } from '@bugtrail/platform';
import { z } from 'zod';
import { type CommandAnswer, type CommandRequest, defineCommand } from '../command.js';
import { positionHeaders } from '../commands.openapi.js';
import type { WriteApiDeps } from '../deps.js';
import { ProjectRights } from '../projects/project-rights.js';
import { objectIdPattern } from './bug-input.js';

/**
 * Comments on a bug (api.md "People"): `POST /api/bugs/{id}/comments`, `PUT` and `DELETE
 * /api/bugs/{id}/comments/{commentId}`. Events of the bug's own stream, decided over the
 * whole stream (commentDecider: who may see the bug, who wrote which comment); the
 * mentioned people's roles come from the write side's accounts. A comment commutes with
 * everything else on the bug: each re-reads and re-decides on a race.
 */

export const commentBody = z.object({
  body: z
    .string()
    .max(commentLimits.bodyMax * 2)
    .nullable()
    .optional(),
  mentions: z
    .array(z.string().max(200))
    .max(commentLimits.mentionsMax * 4)
    .nullable()
    .optional(),
});
type CommentBody = z.infer<typeof commentBody>;

const tags = ['bugs'];
const audience = ['admin', 'tester (own)', 'developer (assigned)'];
const id = objectIdPattern;
const bugParams = {
  schema: z.object({ id: z.string().regex(id) }),
  notFound: bugMessages.notFound,
  openapi: z.object({ id: z.string().describe('The bug id (`_id`)') }),
};
const commentParams = {
  // The bug id is checked first: a bad one is the bug's 404, then the comment's.
  schema: z.object({ id: z.string().regex(id), commentId: z.string().regex(id) }),
  notFound: { id: bugMessages.notFound, commentId: 'Comment not found' },
  openapi: bugParams.openapi.extend({ commentId: z.string().describe('The comment id') }),
};
const comment = commentDtoSchema;
const body = {
  schema: commentBody,
  fields: {
    body: `Markdown; required, at most ${commentLimits.bodyMax} characters once trimmed`,
    mentions: `The ids of the people mentioned (at most ${commentLimits.mentionsMax}); each must be able to view the bug`,
  },
};

/** What AddComment and EditComment carry: the text, and the mentioned people with their roles. */
async function written(deps: WriteApiDeps, bugId: string, commentId: string, input: CommentBody) {
  const mentions = input.mentions ?? [];
  const roles = await deps.accounts.roles(mentions);
  // Whom a private project's bug does not exist for cannot be mentioned there (issue 35).
  const hidden = await new ProjectRights(deps.pool).hiddenFromEach(new Map(Object.entries(roles)));
  return {
    bugId,
    commentId,
    body: input.body ?? '',
    mentions,
    mentionedRoles: Object.fromEntries(
      Object.entries(roles).map(([id, person]) => [id, { ...person, hiddenProjects: hidden[id] ?? [] }]),
    ),
  };
}

/** The comment as the command left it, with its author's name. */
async function answerComment(
  deps: WriteApiDeps,
  handled: Handled<BugDiscussion>,
  commentId: string,
  status: 200 | 201,
): Promise<CommandAnswer> {
  const saved = handled.state.comments.get(commentId);
  if (!saved) throw new NotFoundError('Comment not found');
  const names = await deps.accounts.refs([saved.authorId]);
  return { status, body: { comment: toCommentDto(saved, names.get(saved.authorId)?.name ?? '') } };
}

/** A retried POST (same Idempotency-Key, same caller) names the same comment. */
const newCommentId = ({ newId, params }: CommandRequest<unknown, { id: string }>) => newId(`AddComment:${params.id}`);

export const addComment = defineCommand({
  method: 'post',
  path: '/:id/comments',
  summary: 'Comment on a bug (whoever may view it; auditors excepted)',
  tags,
  audience,
  params: bugParams,
  body,
  stream: ({ params }) => streams.bug(params.id),
  decider: commentDecider,
  command: async (request, deps) => ({
    type: 'AddComment',
    data: await written(deps, request.params.id, newCommentId(request), request.body),
  }),
  policy: { retryOnConflict: true },
  answer: (handled, request, _command, deps) => answerComment(deps, handled, newCommentId(request), 201),
  responses: {
    201: { description: 'The comment', schema: z.object({ comment }), headers: positionHeaders },
    400: {
      ...invalidAnswer,
      description: `"${commentMessages.bodyRequired}", or a mention of someone who cannot see the bug`,
    },
    403: forbiddenAnswer,
    404: notFoundAnswer,
  },
});

export const editComment = defineCommand({
  method: 'put',
  path: '/:id/comments/:commentId',
  summary: 'Edit one’s own comment',
  tags,
  audience,
  params: commentParams,
  body,
  stream: ({ params }) => streams.bug(params.id),
  decider: commentDecider,
  command: async ({ body, params }, deps) => ({
    type: 'EditComment',
    data: await written(deps, params.id, params.commentId, body),
  }),
  policy: { retryOnConflict: true },
  answer: (handled, { params }, _command, deps) => answerComment(deps, handled, params.commentId, 200),
  responses: {
    200: { description: 'The comment', schema: z.object({ comment }), headers: positionHeaders },
    400: invalidAnswer,
    403: errorAnswer(`"${commentMessages.notAuthor}"`),
    404: notFoundAnswer,
  },
});

export const deleteComment = defineCommand({
  method: 'delete',
  path: '/:id/comments/:commentId',
  summary: 'Delete a comment (its author, or an admin): it stays listed, emptied',
  tags,
  audience,
  params: commentParams,
  stream: ({ params }) => streams.bug(params.id),
  decider: commentDecider,
  command: ({ params }) => ({ type: 'DeleteComment', data: { bugId: params.id, commentId: params.commentId } }),
  policy: { retryOnConflict: true },
  answer: () => ({ status: 204 }),
  responses: {
    204: { description: 'Deleted (again: still 204)' },
    403: errorAnswer(`"${commentMessages.cannotDelete}"`),
    404: notFoundAnswer,
  },
});

export const commentCommands = [addComment, editComment, deleteComment];
