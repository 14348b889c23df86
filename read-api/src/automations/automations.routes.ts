import {
  type Actor,
  automationMessages,
  ForbiddenError,
  NotFoundError,
  projectMessages,
  seesEveryProject,
  simulateAutomationBody,
  simulateDraftBody,
} from '@bugtrail/domain';
import { type AuthEnv, readJson, readQuery, requireAuth } from '@bugtrail/platform';
import {
  type AutomationDto,
  automationRuns,
  automationsTopic,
  findAutomation,
  ledProjectIds,
  listAutomations,
  resolveProjectIds,
  simulateRule,
} from '@bugtrail/projector';
import { type Context, Hono } from 'hono';
import type { ReadApiDeps } from '../deps.js';
import { registerTopicFilter } from '../live/topic-filters.js';
import { automationRunsQuery } from './automations.schemas.js';

/**
 * Automation rules (api.md "Automation rules", issue 38): admins and auditors read every rule;
 * a project's leads read that project's rules (the ones they may write). Any other rule does
 * not exist for them.
 */

/** Which rules `actor` reads: every one, or those of the projects they lead. */
async function readableScope(deps: ReadApiDeps, actor: Actor): Promise<{ projects?: string[] }> {
  if (seesEveryProject(actor)) return {};
  return { projects: await ledProjectIds(deps.db, actor.id) };
}

/** The rule, when the caller may read it; else 404. */
async function readableRule(c: Context<AuthEnv>, deps: ReadApiDeps): Promise<AutomationDto> {
  const id = c.req.param('id') ?? '';
  const rule = id.length <= 100 ? await findAutomation(deps.db, id) : null;
  const scope = await readableScope(deps, c.var.actor);
  if (!rule || (scope.projects && (rule.projectId === null || !scope.projects.includes(rule.projectId)))) {
    throw new NotFoundError(automationMessages.notFound);
  }
  return rule;
}

export function createAutomationsRoutes(deps: ReadApiDeps) {
  // Rules and runs changed: heard by those who read every rule (leads refetch on their own page).
  registerTopicFilter(automationsTopic, (actor) => seesEveryProject(actor));
  const app = new Hono<AuthEnv>();
  app.use('*', requireAuth(deps.tokens));
  app.get('/', async (c) => {
    const scope = await readableScope(deps, c.var.actor);
    return c.json({ automations: await listAutomations(deps.db, scope) });
  });
  // A draft's dry run (the editor, before it is saved): admins, and leads for their project's.
  app.post('/simulate', async (c) => {
    const body = await readJson(c, simulateDraftBody);
    const actor = c.var.actor;
    let projectId: string | null = null;
    if (body.projectId) {
      const [id] = await resolveProjectIds(deps.db, [body.projectId]);
      const scope = await readableScope(deps, actor);
      if (!id || (!seesEveryProject(actor) && !scope.projects?.includes(id))) {
        throw new NotFoundError(projectMessages.notFound);
      }
      projectId = id;
    } else if (!seesEveryProject(actor)) {
      throw new ForbiddenError(automationMessages.cannotManage);
    }
    const rule = { id: null, projectId, when: body.when, actions: body.then };
    return c.json(await simulateRule(deps.store, rule, { from: body.from, to: body.to }));
  });
  app.post('/:id/simulate', async (c) => {
    const rule = await readableRule(c, deps);
    const window = await readJson(c, simulateAutomationBody);
    const simulated = { id: rule._id, projectId: rule.projectId, when: rule.when, actions: rule.then };
    return c.json(await simulateRule(deps.store, simulated, window));
  });
  app.get('/:id', async (c) => c.json(await readableRule(c, deps)));
  app.get('/:id/runs', async (c) => {
    const { limit, before } = readQuery(c, automationRunsQuery);
    const rule = await readableRule(c, deps);
    const runs = await automationRuns(deps.db, rule._id, { limit: limit ?? 50, before });
    return c.json({ runs, nextCursor: runs.length === (limit ?? 50) ? (runs.at(-1)?.position ?? null) : null });
  });
  return app;
}
