import { type AuthEnv, readQuery, requireAuth, requireRole } from '@bugtrail/platform';
import {
  cumulativeFlow,
  cycleTimePoints,
  findProjectSetups,
  flowMetrics,
  type MetricsWindow,
  type StateTime,
  slaCompliance,
  timeInStates,
} from '@bugtrail/projector';
import { Hono } from 'hono';
import { effectiveAsOf } from '../as-of.js';
import type { ReadApiDeps } from '../deps.js';
import { withProjectRights } from '../projects/project-rights.js';
import { projectFilter } from '../query-values.js';
import { cycleTimesQuery, metricsQuery, slaMetricsQuery } from './metrics.schemas.js';

function windowOf(
  query: { from?: Date | undefined; to?: Date | undefined; asOf?: Date | undefined },
  projects: string[] | undefined,
): MetricsWindow {
  return { asOf: effectiveAsOf(query.asOf), from: query.from ?? null, to: query.to ?? null, projects };
}

const echo = (w: MetricsWindow) => ({
  asOf: w.asOf.toISOString(),
  from: w.from?.toISOString() ?? null,
  to: w.to?.toISOString() ?? null,
});

/** Time in each workflow state (issue 37): for one project, whose states they are; null for several. */
async function stateTimes(deps: ReadApiDeps, w: MetricsWindow): Promise<StateTime[] | null> {
  const [projectId, ...others] = w.projects ?? [];
  if (!projectId || others.length > 0) return null;
  const setup = (await findProjectSetups(deps.db, [projectId])).get(projectId);
  return setup ? timeInStates(deps.db, w, projectId, setup.states) : null;
}

/**
 * Flow metrics (api.md "Analysts"), admins and auditors: computed from the status stays as
 * they were known at `asOf`, so the same `asOf` always gets the same answer.
 */
export function createMetricsRoutes(deps: ReadApiDeps) {
  const app = new Hono<AuthEnv>();
  app.use('*', requireAuth(deps.tokens), requireRole('admin', 'auditor'), withProjectRights(deps));

  app.get('/', async (c) => {
    const query = readQuery(c, metricsQuery);
    const w = windowOf(query, await projectFilter(c, deps));
    const [metrics, timeInState] = await Promise.all([
      flowMetrics(deps.db, w, query.groupBy ?? null),
      stateTimes(deps, w),
    ]);
    return c.json({ ...echo(w), groupBy: query.groupBy ?? null, ...metrics, timeInState });
  });

  app.get('/cycle-times', async (c) => {
    const query = readQuery(c, cycleTimesQuery);
    const w = windowOf(query, await projectFilter(c, deps));
    return c.json({ ...echo(w), ...(await cycleTimePoints(deps.db, w, query.groupBy ?? null, query.limit ?? 2000)) });
  });

  // SLA compliance per policy (issue 38): the bugs reported in the window as they stand now.
  app.get('/sla', async (c) => {
    const query = readQuery(c, slaMetricsQuery);
    const projects = await projectFilter(c, deps);
    const window = { from: query.from ?? null, to: query.to ?? null, projects, now: new Date() };
    return c.json({
      from: window.from?.toISOString() ?? null,
      to: window.to?.toISOString() ?? null,
      policies: await slaCompliance(deps.db, window, c.var.actor.hiddenProjects ?? []),
    });
  });

  app.get('/flow', async (c) => {
    const query = readQuery(c, metricsQuery);
    const w = windowOf(query, await projectFilter(c, deps));
    return c.json({ ...echo(w), ...(await cumulativeFlow(deps.db, w)) });
  });

  return app;
}
