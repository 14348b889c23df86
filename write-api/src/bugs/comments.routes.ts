import { randomUUID } from 'node:crypto';
import {
  type BugDiscussion,
  type CommentCommand,
  type CommentState,
  commentDecider,
  commentLimits,
  NotFoundError,
  streams,
  toCommentDto,
} from '@bugtrail/domain';
import { deriveEventId, type Handled } from '@bugtrail/eventstore';
import { type AuthEnv, readJson } from '@bugtrail/platform';
import { type Context, Hono } from 'hono';
import { z } from 'zod';
import { commandContext, settle, type WriteApiDeps } from '../deps.js';
import { bugIdParam } from './bug-input.js';

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

function commentIdParam(c: Context): string {
  const id = c.req.param('commentId') ?? '';
  if (!/^[\w-]{1,100}$/.test(id)) throw new NotFoundError('Comment not found');
  return id;
}

/**
 * Comments on a bug (api.md "People"): `POST /api/bugs/{id}/comments`, `PUT` and `DELETE
 * /api/bugs/{id}/comments/{commentId}`. Events of the bug's own stream, decided over the
 * whole stream (commentDecider: who may see the bug, who wrote which comment); the
 * mentioned people's roles come from the write side's accounts. Mounted inside the bug
 * routes, behind their token check.
 */
export function createCommentRoutes(deps: WriteApiDeps) {
  const app = new Hono<AuthEnv>();
  const now = () => (deps.now?.() ?? new Date()).toISOString();

  async function run(c: Context<AuthEnv>, bugId: string, command: CommentCommand): Promise<Handled<BugDiscussion>> {
    const handled = await deps.commands.handle(
      streams.bug(bugId),
      commentDecider,
      command,
      commandContext(c, c.var.actor),
      // A comment commutes with everything else on the bug: re-read and re-decide on a race.
      { retryOnConflict: true },
    );
    await settle(c, deps, handled.position);
    return handled;
  }

  async function answer(comment: CommentState) {
    const names = await deps.accounts.refs([comment.authorId]);
    return toCommentDto(comment, names.get(comment.authorId)?.name ?? '');
  }

  async function written(c: Context<AuthEnv>, type: 'AddComment' | 'EditComment', bugId: string, commentId: string) {
    const body = await readJson(c, commentBody);
    const mentions = body.mentions ?? [];
    return run(c, bugId, {
      type,
      data: {
        bugId,
        commentId,
        body: body.body ?? '',
        mentions,
        mentionedRoles: await deps.accounts.roles(mentions),
      },
      metadata: { actor: c.var.actor, now: now() },
    });
  }

  app.post('/:id/comments', async (c) => {
    const bugId = bugIdParam(c);
    const context = commandContext(c, c.var.actor);
    // A retried POST (same Idempotency-Key, same caller) names the same comment.
    const commentId = context.idempotencyKey
      ? deriveEventId(context.idempotencyKey, `${c.var.actor.id}:AddComment:${bugId}`, 0)
      : randomUUID();
    const handled = await written(c, 'AddComment', bugId, commentId);
    const comment = handled.state.comments.get(commentId);
    if (!comment) throw new NotFoundError('Comment not found');
    return c.json({ comment: await answer(comment) }, 201);
  });

  app.put('/:id/comments/:commentId', async (c) => {
    const bugId = bugIdParam(c);
    const commentId = commentIdParam(c);
    const handled = await written(c, 'EditComment', bugId, commentId);
    const comment = handled.state.comments.get(commentId);
    if (!comment) throw new NotFoundError('Comment not found');
    return c.json({ comment: await answer(comment) }, 200);
  });

  app.delete('/:id/comments/:commentId', async (c) => {
    const bugId = bugIdParam(c);
    const commentId = commentIdParam(c);
    await run(c, bugId, {
      type: 'DeleteComment',
      data: { bugId, commentId },
      metadata: { actor: c.var.actor, now: now() },
    });
    return c.body(null, 204);
  });

  return app;
}
