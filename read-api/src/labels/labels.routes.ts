import { type AuthEnv, requireAuth } from '@bugtrail/platform';
import { listLabels } from '@bugtrail/projector';
import { Hono } from 'hono';
import type { ReadApiDeps } from '../deps.js';
import { registerTopicFilter } from '../live/topic-filters.js';

/** `GET /api/labels` (api.md "Labels"): every label, by name, for everyone signed in. */
export function createLabelsRoutes(deps: ReadApiDeps) {
  // A label made, renamed, recoloured or deleted: names and colours only, for everyone.
  registerTopicFilter('labels', () => true);
  const app = new Hono<AuthEnv>();
  app.use('*', requireAuth(deps.tokens));
  app.get('/', async (c) => c.json({ labels: await listLabels(deps.db) }));
  return app;
}
