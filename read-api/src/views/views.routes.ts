import type { SavedViewDto } from '@bugtrail/domain';
import { type AuthEnv, requireAuth } from '@bugtrail/platform';
import { listSavedViews, type SavedViewRow } from '@bugtrail/projector';
import { Hono } from 'hono';
import type { ReadApiDeps } from '../deps.js';
import { registerTopicFilter } from '../live/topic-filters.js';

export const savedViewRowToDto = (row: SavedViewRow): SavedViewDto => ({
  _id: row.id,
  name: row.name,
  path: row.path,
  query: row.query,
  createdAt: row.created_at.toISOString(),
});

/**
 * GET /api/views: the caller's saved views, in the order they were saved (newest last).
 * Nobody else's: the read model is keyed by owner. The live topic `views:{userId}` is
 * heard by that user alone, so another tab of theirs refreshes its list.
 */
export function createViewsRoutes(deps: ReadApiDeps) {
  registerTopicFilter('views', (actor, topic) => topic.id === actor.id);
  const app = new Hono<AuthEnv>();
  app.use('*', requireAuth(deps.tokens));
  app.get('/', async (c) => c.json((await listSavedViews(deps.db, c.var.actor.id)).map(savedViewRowToDto)));
  return app;
}
