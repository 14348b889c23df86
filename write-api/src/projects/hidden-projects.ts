import type { AuthEnv } from '@bugtrail/platform';
import type { MiddlewareHandler } from 'hono';
import type { WriteApiDeps } from '../deps.js';
import { ProjectRights } from './project-rights.js';

/**
 * After `requireAuth`: the caller with the private projects they are no member of
 * (`Actor.hiddenProjects`), as the write side knows them. The bug deciders treat those
 * projects' bugs as missing (404), so a member who has left changes nothing there; read-api's
 * middleware of the same name does the same for every read.
 */
export function withHiddenProjects(deps: Pick<WriteApiDeps, 'pool'>): MiddlewareHandler<AuthEnv> {
  const rights = new ProjectRights(deps.pool);
  return async (c, next) => {
    const actor = c.var.actor;
    if (actor.hiddenProjects === undefined) {
      c.set('actor', { ...actor, hiddenProjects: await rights.hiddenFrom(actor) });
    }
    await next();
  };
}
