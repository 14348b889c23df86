import {
  notificationLimits,
  notificationsDecider,
  streams,
  type UserState,
  userDecider,
  userMessages,
  ValidationError,
} from '@bugtrail/domain';
import { type AuthEnv, readJson, requireAuth, UnsubscribeTokens } from '@bugtrail/platform';
import { Hono } from 'hono';
import { z } from 'zod';
import { commandContext, settle, type WriteApiDeps } from '../deps.js';

export const unsubscribeBody = z.object({ token: z.unknown().optional() });

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
  let tokens: Promise<UnsubscribeTokens> | null = null;
  app.post('/read', requireAuth(deps.tokens), async (c) => {
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
  /**
   * POST /api/notifications/unsubscribe { token }: the one-click link of every notification
   * mail (no login: the signed token names the person). Mail stops: the preference becomes
   * "off", an event of their stream with no actor.
   */
  app.post('/unsubscribe', async (c) => {
    const body = await readJson(c, unsubscribeBody);
    tokens ??= UnsubscribeTokens.create(deps.pool);
    const userId = (await tokens).userOf(typeof body.token === 'string' ? body.token.trim() : '');
    if (!userId || !(await deps.accounts.exists(userId))) {
      throw ValidationError.field('token', userMessages.unsubscribeInvalid);
    }
    const handled = await deps.commands.handle(
      streams.user(userId),
      userDecider,
      {
        type: 'SetNotificationPreferences',
        data: { userId, email: 'off' },
        metadata: { actor: null, now: (deps.now?.() ?? new Date()).toISOString() },
      },
      commandContext(c, null),
      { retryOnConflict: true },
    );
    await settle(c, deps, handled.position);
    const { email } = handled.state as Extract<UserState, { status: 'registered' }>;
    return c.json({ message: userMessages.unsubscribed, email }, 200);
  });

  return app;
}
