import type { AuthEnv } from '@bugtrail/platform';
import { withProjectRightsOf } from '@bugtrail/projector';
import type { MiddlewareHandler } from 'hono';
import type { ReadApiDeps } from '../deps.js';

/**
 * After `requireAuth`: the caller as every bug read sees them, with their project rights: the
 * private projects they are no member of (`Actor.hiddenProjects`) and the team projects they are
 * a member of (`Actor.teamProjects`). The domain's `bugPermissions` and the bugs read model's SQL
 * (`visibleBugsSql`, `bugScopeSql`, `ListQuery.hiddenProjects`) take them from there, so a route
 * needs nothing of its own: one rule, applied where the actor comes from.
 */
export function withProjectRights(deps: Pick<ReadApiDeps, 'db'>): MiddlewareHandler<AuthEnv> {
  return async (c, next) => {
    const actor = c.var.actor;
    if (actor.hiddenProjects === undefined) c.set('actor', await withProjectRightsOf(deps.db, actor));
    await next();
  };
}
