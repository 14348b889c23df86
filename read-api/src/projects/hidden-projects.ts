import type { AuthEnv } from '@bugtrail/platform';
import { hiddenProjectIds } from '@bugtrail/projector';
import type { MiddlewareHandler } from 'hono';
import type { ReadApiDeps } from '../deps.js';

/**
 * After `requireAuth`: the caller as every bug read sees them, with the private projects they
 * are no member of (`Actor.hiddenProjects`). The domain's `bugPermissions` and the bugs read
 * model's SQL (`visibleBugsSql`, `ListQuery.hiddenProjects`) leave those projects' bugs out,
 * so a route needs nothing of its own: one rule, applied where the actor comes from.
 */
export function withHiddenProjects(deps: Pick<ReadApiDeps, 'db'>): MiddlewareHandler<AuthEnv> {
  return async (c, next) => {
    const actor = c.var.actor;
    if (actor.hiddenProjects === undefined) {
      c.set('actor', { ...actor, hiddenProjects: await hiddenProjectIds(deps.db, actor) });
    }
    await next();
  };
}
