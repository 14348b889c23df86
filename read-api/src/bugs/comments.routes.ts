import {
  bugMessages,
  bugPermissions,
  type CommentDto,
  ForbiddenError,
  isHiddenFrom,
  NotFoundError,
} from '@bugtrail/domain';
import type { AuthEnv } from '@bugtrail/platform';
import { findBug, listBugComments } from '@bugtrail/projector';
import { Hono } from 'hono';
import type { ReadApiDeps } from '../deps.js';

/**
 * `GET /api/bugs/{id}/comments` (api.md "People"): the discussion under a bug, oldest
 * first, for whoever may view the bug (auditors read it too). A deleted comment keeps its
 * place, with `isDeleted: true` and an empty body. Mounted inside the bug routes, behind
 * their token check.
 */
export function createBugCommentsRoutes(deps: ReadApiDeps) {
  const app = new Hono<AuthEnv>();
  app.get('/:id/comments', async (c) => {
    const bugId = c.req.param('id');
    const bug = await findBug(deps.db, bugId);
    if (!bug || bug.deleted || isHiddenFrom(c.var.actor, bug)) throw new NotFoundError(bugMessages.notFound);
    if (!bugPermissions.canView(c.var.actor, bug)) throw new ForbiddenError(bugMessages.noPermissionToView);
    const rows = await listBugComments(deps.db, bugId);
    const comments: CommentDto[] = rows.map((row) => ({
      _id: row.id,
      author: { _id: row.author_id, name: row.author_name ?? 'Unknown user' },
      body: row.deleted ? '' : row.body,
      mentions: row.deleted ? [] : row.mentions,
      createdAt: row.created_at.toISOString(),
      editedAt: row.edited_at ? row.edited_at.toISOString() : null,
      isDeleted: row.deleted,
    }));
    return c.json({ comments });
  });
  return app;
}
