import { streams, type UserState, userDecider, userMessages, ValidationError } from '@bugtrail/domain';
import { type AuthEnv, readJson, UnsubscribeTokens } from '@bugtrail/platform';
import { type Context, Hono } from 'hono';
import { z } from 'zod';
import { commandContext, settle, type WriteApiDeps } from '../deps.js';

export const unsubscribeBody = z.object({ token: z.unknown().optional() });

/**
 * The notification route that is not a declared command (notifications.commands.ts has
 * POST /read): unsubscribing, which needs no login (the signed token names the person).
 */
export function createNotificationRoutes(deps: WriteApiDeps) {
  const app = new Hono<AuthEnv>();
  /**
   * POST /api/notifications/unsubscribe { token }: the unsubscribe link of every notification
   * mail, posted by the /unsubscribe page (no login: the signed token names the person).
   */
  app.post('/unsubscribe', async (c) => {
    const body = await readJson(c, unsubscribeBody);
    return c.json(await unsubscribe(c, deps, typeof body.token === 'string' ? body.token : ''), 200);
  });

  return app;
}

/** The signing secret lives in each database: one verifier per pool. */
const unsubscribeTokens = new WeakMap<WriteApiDeps['pool'], Promise<UnsubscribeTokens>>();

/** Mail stops: the person's preference becomes "off", an event of their stream with no actor. */
async function unsubscribe(c: Context, deps: WriteApiDeps, token: string) {
  let tokens = unsubscribeTokens.get(deps.pool);
  if (!tokens) {
    tokens = UnsubscribeTokens.create(deps.pool);
    unsubscribeTokens.set(deps.pool, tokens);
  }
  const userId = (await tokens).userOf(token.trim());
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
  return { message: userMessages.unsubscribed, email };
}

/**
 * POST /unsubscribe?token=… (RFC 8058 one-click): the URI of every notification mail's
 * List-Unsubscribe header, which a mail client posts `List-Unsubscribe=One-Click` to. The
 * same URI opened in a browser (GET) is the web app's /unsubscribe page, which asks first.
 * The body is not read: the token in the URI is the whole request.
 */
export function createOneClickUnsubscribeRoutes(deps: WriteApiDeps) {
  const app = new Hono();
  app.post('/unsubscribe', async (c) => c.json(await unsubscribe(c, deps, c.req.query('token') ?? ''), 200));
  return app;
}
