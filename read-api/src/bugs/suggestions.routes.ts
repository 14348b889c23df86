import { bugPermissions, ForbiddenError, triageRequestSchema } from '@bugtrail/domain';
import { type AuthEnv, readJson, requireAuth } from '@bugtrail/platform';
import { Hono } from 'hono';
import type { ReadApiDeps } from '../deps.js';
import { withProjectRights } from '../projects/project-rights.js';
import { suggestTriage } from './suggestions.js';

/**
 * POST /api/bugs/suggestions: a question with a body that changes nothing, so read-api's
 * (ADR 019; `readApiPostPaths` in app.ts routes it here, in process and in deploy/nginx.conf).
 */
export function createSuggestionsRoutes(deps: ReadApiDeps) {
  const app = new Hono<AuthEnv>();
  app.use('*', requireAuth(deps.tokens), withProjectRights(deps));
  app.post('/', async (c) => {
    // Suggestions help whoever reports a bug (testers and admins), by the same rule as the report.
    if (!bugPermissions.canReport(c.var.actor)) throw new ForbiddenError('Only testers and admins report bugs');
    const input = await readJson(c, triageRequestSchema);
    return c.json(await suggestTriage(deps.db, c.var.actor, input));
  });
  return app;
}
