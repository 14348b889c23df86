import { type MilestoneDto, milestoneMessages, NotFoundError, projectMessages } from '@bugtrail/domain';
import { type AuthEnv, readQuery, requireAuth } from '@bugtrail/platform';
import { findMilestone, findVisibleProject, listMilestones, milestoneBurnup } from '@bugtrail/projector';
import { type Context, Hono } from 'hono';
import { asOfQuery, effectiveAsOf } from '../as-of.js';
import type { ReadApiDeps } from '../deps.js';
import { registerTopicFilter } from '../live/topic-filters.js';
import { isInVisibleProject } from '../live/topics.js';

/**
 * Milestones (api.md "Milestones", issue 36): a project's milestones, one milestone, and its
 * burn-up from the event log. A milestone of a project the caller cannot see does not exist.
 */

/** The milestone, when its project is one the caller may see; else 404. */
async function visibleMilestone(c: Context<AuthEnv>, deps: ReadApiDeps): Promise<MilestoneDto> {
  const id = c.req.param('id') ?? '';
  const milestone = id.length <= 100 ? await findMilestone(deps.db, id) : null;
  if (!milestone || !(await findVisibleProject(deps.db, c.var.actor, milestone.projectId))) {
    throw new NotFoundError(milestoneMessages.notFound);
  }
  return milestone;
}

export function createMilestonesRoutes(deps: ReadApiDeps) {
  // A project's milestones changed: heard by those who see the project.
  registerTopicFilter('milestones', (actor, topic) => isInVisibleProject(actor.hiddenProjects, topic));
  const app = new Hono<AuthEnv>();
  app.use('*', requireAuth(deps.tokens));
  app.get('/:id', async (c) => c.json(await visibleMilestone(c, deps)));
  app.get('/:id/burnup', async (c) => {
    const { asOf } = readQuery(c, asOfQuery);
    const milestone = await visibleMilestone(c, deps);
    const lastDay = effectiveAsOf(asOf).toISOString().slice(0, 10);
    return c.json({ days: await milestoneBurnup(deps.db, milestone._id, lastDay) });
  });
  return app;
}

/** `GET /api/projects/{idOrKey}/milestones`. */
export async function projectMilestones(c: Context<AuthEnv>, deps: ReadApiDeps) {
  const idOrKey = c.req.param('idOrKey') ?? '';
  const project = idOrKey.length <= 100 ? await findVisibleProject(deps.db, c.var.actor, idOrKey) : null;
  if (!project) throw new NotFoundError(projectMessages.notFound);
  return c.json({ milestones: await listMilestones(deps.db, project.id) });
}
