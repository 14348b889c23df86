import { createErrorHandler, notFoundJson } from '@bugtrail/platform';
import { Hono } from 'hono';
import { createAuthRoutes } from './auth/auth.routes.js';
import type { WriteApiDeps } from './deps.js';

/** write-api: every command (POST/PUT/PATCH/DELETE). Reads go to read-api. */
export function createWriteApi(deps: WriteApiDeps): Hono {
  const app = new Hono();
  app.onError(createErrorHandler(deps.logger));
  app.notFound(notFoundJson);
  app.route('/api/auth', createAuthRoutes(deps));
  return app;
}
