import { randomUUID } from 'node:crypto';
import {
  NotFoundError,
  savedViewsDecider,
  saveViewBody,
  streams,
  toSavedViewDto,
  viewMessages,
} from '@bugtrail/domain';
import { deriveEventId } from '@bugtrail/eventstore';
import { type AuthEnv, readJson, requireAuth } from '@bugtrail/platform';
import { Hono } from 'hono';
import { z } from 'zod';
import { commandContext, settle, type WriteApiDeps } from '../deps.js';

const viewIdParam = z.string().trim().min(1).max(100);

/**
 * Saved views (api.md "Saved views"): `POST /api/views`, `DELETE /api/views/{id}`. Each
 * user's views are one stream (`views-{userId}`), so a caller only ever reaches their
 * own: another user's view id is simply not there (404). Both commands re-decide on a
 * concurrent write to that stream (two saves of one name at once: one 201, one 409).
 * Auditors are refused at the door (ADR 012) and by the decider.
 */
export function createViewRoutes(deps: WriteApiDeps) {
  const app = new Hono<AuthEnv>();
  const now = () => (deps.now?.() ?? new Date()).toISOString();
  app.use('*', requireAuth(deps.tokens));

  app.post('/', async (c) => {
    const body = await readJson(c, saveViewBody);
    const actor = c.var.actor;
    const context = commandContext(c, actor);
    // A retried save (same Idempotency-Key) lands on the same view.
    const viewId = context.idempotencyKey
      ? deriveEventId(context.idempotencyKey, `${actor.id}:SaveView`, 0)
      : randomUUID();
    const handled = await deps.commands.handle(
      streams.savedViews(actor.id),
      savedViewsDecider,
      {
        type: 'SaveView',
        data: { userId: actor.id, viewId, name: body.name, path: body.path, query: body.query ?? '' },
        metadata: { actor, now: now() },
      },
      context,
      { retryOnConflict: true },
    );
    const view = handled.state.views.find((v) => v.id === viewId);
    if (!view) throw new Error(`saved view ${viewId} missing from its stream`);
    await settle(c, deps, handled.position);
    return c.json(toSavedViewDto(view), 201);
  });

  app.delete('/:id', async (c) => {
    const parsed = viewIdParam.safeParse(c.req.param('id'));
    // An id that cannot name a view is one that does not exist.
    if (!parsed.success) throw new NotFoundError(viewMessages.notFound);
    const actor = c.var.actor;
    const handled = await deps.commands.handle(
      streams.savedViews(actor.id),
      savedViewsDecider,
      {
        type: 'DeleteView',
        data: { userId: actor.id, viewId: parsed.data },
        metadata: { actor, now: now() },
      },
      commandContext(c, actor),
      // Deleting one view twice at once appends one ViewDeleted (ADR 009's natural key).
      { retryOnConflict: true, naturalKey: parsed.data },
    );
    await settle(c, deps, handled.position);
    return c.json({ message: viewMessages.deleted, _id: parsed.data }, 200);
  });

  return app;
}
