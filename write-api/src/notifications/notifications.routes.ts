import { notificationLimits, notificationsDecider, streams } from '@bugtrail/domain';
import { type AuthEnv, readJson, requireAuth } from '@bugtrail/platform';
import { Hono } from 'hono';
import { z } from 'zod';
import { commandContext, settle, type WriteApiDeps } from '../deps.js';

export const markReadBody = z.object({
  ids: z
    .array(z.string().max(300))
    .max(notificationLimits.idsPerRead * 2)
    .nullable()
    .optional(),
  all: z.boolean().nullable().optional(),
});

/**
 * POST /api/notifications/read `{ ids }` or `{ all: true }` (api.md "People"): the caller
 * marks their own notifications read, as an event of `notifications-{userId}`. Answers
 * once the read model has the event.
 */
export function createNotificationRoutes(deps: WriteApiDeps) {
  const app = new Hono<AuthEnv>();
  app.use('*', requireAuth(deps.tokens));
  app.post('/read', async (c) => {
    const actor = c.var.actor;
    const body = await readJson(c, markReadBody);
    const handled = await deps.commands.handle(
      streams.notifications(actor.id),
      notificationsDecider,
      {
        type: 'MarkNotificationsRead',
        data: { userId: actor.id, ids: body.ids ?? [], all: body.all === true },
        metadata: { actor, now: (deps.now?.() ?? new Date()).toISOString() },
      },
      commandContext(c, actor),
      { anyRevision: true },
    );
    // Read-your-writes: once answered, GET /api/notifications already shows them read.
    await settle(c, deps, handled.position);
    return c.json({ message: 'Notifications marked as read' }, 200);
  });
  return app;
}
