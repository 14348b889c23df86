import { NotFoundError, slaMessages } from '@bugtrail/domain';
import { type AuthEnv, requireAuth } from '@bugtrail/platform';
import { findSlaPolicy, listSlaPolicies, slaTopic } from '@bugtrail/projector';
import { Hono } from 'hono';
import type { ReadApiDeps } from '../deps.js';
import { registerTopicFilter } from '../live/topic-filters.js';
import { withProjectRights } from '../projects/project-rights.js';

/**
 * SLA policies (issue 38): whoever is signed in reads the policies that may hold for bugs they
 * see (every project's, and those of projects they see); a policy of a private project they are
 * no member of does not exist for them. Writes are write-api's (`/api/sla`).
 */
export function createSlaRoutes(deps: ReadApiDeps) {
  // A policy changed: the list refetches (it carries no policy, only the word).
  registerTopicFilter(slaTopic, () => true);
  const app = new Hono<AuthEnv>();
  app.use('*', requireAuth(deps.tokens), withProjectRights(deps));
  app.get('/', async (c) => c.json({ policies: await listSlaPolicies(deps.db, c.var.actor.hiddenProjects ?? []) }));
  app.get('/:id', async (c) => {
    const id = c.req.param('id');
    const policy = id.length <= 100 ? await findSlaPolicy(deps.db, id) : null;
    const hidden = c.var.actor.hiddenProjects ?? [];
    if (!policy || (policy.projectId !== null && hidden.includes(policy.projectId))) {
      throw new NotFoundError(slaMessages.notFound);
    }
    return c.json(policy);
  });
  return app;
}
