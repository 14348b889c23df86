import { type NotificationDto, type NotificationKind, notificationLimits } from '@bugtrail/domain';
import { type AuthEnv, requireAuth } from '@bugtrail/platform';
import { listNotifications } from '@bugtrail/projector';
import { Hono } from 'hono';
import type { ReadApiDeps } from '../deps.js';
import { registerTopicFilter } from '../live/topic-filters.js';
import { isInVisibleProject } from '../live/topics.js';
import { withProjectRights } from '../projects/project-rights.js';

/**
 * GET /api/notifications (api.md "People"): the caller's newest notifications and how many
 * are unread. The live topic `notifications:{userId}` is heard by that person alone.
 */
export function createNotificationsRoutes(deps: ReadApiDeps) {
  // Only that person, and not when every notification it announces is about a bug they cannot see.
  registerTopicFilter(
    'notifications',
    (actor, topic) => topic.id === actor.id && isInVisibleProject(actor.hiddenProjects, topic),
  );
  const app = new Hono<AuthEnv>();
  app.use('*', requireAuth(deps.tokens), withProjectRights(deps));
  app.get('/', async (c) => {
    const { actor } = c.var;
    const { rows, unread } = await listNotifications(
      deps.db,
      actor.id,
      notificationLimits.listed,
      actor.hiddenProjects ?? [],
    );
    const notifications: NotificationDto[] = rows.map((row) => ({
      _id: row.id,
      kind: row.kind as NotificationKind,
      text: row.text,
      bugId: row.bug_id,
      chatId: row.chat_id,
      actor: row.actor_id ? { _id: row.actor_id, name: row.actor_name ?? 'Unknown user' } : null,
      createdAt: row.created_at.toISOString(),
      readAt: row.read_at ? row.read_at.toISOString() : null,
    }));
    c.header('Cache-Control', 'no-store');
    return c.json({ notifications, unread });
  });
  return app;
}
