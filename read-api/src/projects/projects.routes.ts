import {
  byLeadThenName,
  liveFields,
  NotFoundError,
  type ProjectDto,
  projectMessages,
  seesEveryProject,
  statesOr,
  toFieldDto,
  toStateDto,
} from '@bugtrail/domain';
import { type AuthEnv, requireAuth } from '@bugtrail/platform';
import { findVisibleProject, listVisibleProjects, type ProjectRow } from '@bugtrail/projector';
import { Hono } from 'hono';
import type { ReadApiDeps } from '../deps.js';
import { registerRightsChange, registerTopicFilter } from '../live/topic-filters.js';
import { isInAudience } from '../live/topics.js';
import { projectMilestones } from '../milestones/milestones.routes.js';
import { boardOf } from './board.js';
import { withProjectRights } from './project-rights.js';

export const projectRowToDto = (row: ProjectRow): ProjectDto => ({
  _id: row.id,
  key: row.key,
  name: row.name,
  description: row.description,
  private: row.private,
  access: row.access === 'team' ? 'team' : 'reporters',
  archived: row.archived,
  createdAt: row.created_at.toISOString(),
  members: row.members
    .map((m) => ({
      user: { _id: m.user_id, name: m.name, profileImageURL: m.profile_image_url },
      role: m.role === 'lead' ? ('lead' as const) : ('member' as const),
    }))
    .sort(byLeadThenName),
});

/**
 * `GET /api/projects` and `GET /api/projects/{idOrKey}` (api.md "Projects"): the projects the
 * caller may see. A private project a caller is not a member of is absent from the list and
 * 404 when named, by id or by any key it has had. Its live topic is heard by its audience
 * (everybody for a public one; members, admins and auditors for a private one).
 */
export function createProjectsRoutes(deps: ReadApiDeps) {
  registerTopicFilter('project', (actor, topic) => seesEveryProject(actor) || isInAudience(actor.id, topic));
  // A project's change (members, privacy, access) may change who sees and hears its bugs: every
  // live stream's rights are asked again (api.md "Second round of safety"). Projects change rarely.
  registerRightsChange('project', () => true);
  // Which project is the default changed: no project's content in it.
  registerTopicFilter('projects', () => true);
  const app = new Hono<AuthEnv>();
  app.use('*', requireAuth(deps.tokens));
  app.get('/', async (c) => {
    const projects = await listVisibleProjects(deps.db, c.var.actor);
    return c.json({ projects: projects.map(projectRowToDto) });
  });
  app.get('/:idOrKey/board', withProjectRights(deps), async (c) => c.json(await boardOf(c, deps)));
  app.get('/:idOrKey/milestones', (c) => projectMilestones(c, deps));
  // A project's custom fields (api.md "Custom fields"): whoever sees the project reads them.
  app.get('/:idOrKey/fields', async (c) => {
    const idOrKey = c.req.param('idOrKey');
    const row = idOrKey.length <= 100 ? await findVisibleProject(deps.db, c.var.actor, idOrKey) : null;
    if (!row) throw new NotFoundError(projectMessages.notFound);
    return c.json({ fields: liveFields(row.fields).map(toFieldDto) });
  });
  // Its workflow states in board order (the defaults until it sets its own).
  app.get('/:idOrKey/states', async (c) => {
    const idOrKey = c.req.param('idOrKey');
    const row = idOrKey.length <= 100 ? await findVisibleProject(deps.db, c.var.actor, idOrKey) : null;
    if (!row) throw new NotFoundError(projectMessages.notFound);
    return c.json({ states: statesOr(row.states).map(toStateDto) });
  });
  app.get('/:idOrKey', async (c) => {
    const idOrKey = c.req.param('idOrKey');
    const row = idOrKey.length <= 100 ? await findVisibleProject(deps.db, c.var.actor, idOrKey) : null;
    if (!row) throw new NotFoundError(projectMessages.notFound);
    return c.json(projectRowToDto(row));
  });
  return app;
}
