import { type AuthEnv, requireAuth } from '@bugtrail/platform';
import { Hono } from 'hono';
import type { WriteApiDeps } from '../deps.js';
import { createBugFileRoutes } from './bug-files.routes.js';

/**
 * The bug routes that are not one command each: the file uploads and downloads (multipart,
 * spooled). The bug and comment commands are declarations (bugs.commands.ts,
 * comments.commands.ts, listed in commands.ts).
 */
export function createBugRoutes(deps: WriteApiDeps) {
  const app = new Hono<AuthEnv>();
  app.use('*', requireAuth(deps.tokens));
  app.route('/', createBugFileRoutes(deps));
  return app;
}
