import path from 'node:path';
import { isPosition } from '@bugtrail/eventstore';
import {
  absoluteProfileImages,
  apiTokenScope,
  createErrorHandler,
  HttpError,
  httpMetrics,
  httpSecurity,
  optionalActor,
  rejectInvalidCharacters,
  requestContext,
} from '@bugtrail/platform';
import { Hono } from 'hono';
import { createAuditRoutes } from './audit/audit.routes.js';
import { createAutomationsRoutes } from './automations/automations.routes.js';
import { createBugsRoutes } from './bugs/bugs.routes.js';
import { createSuggestionsRoutes } from './bugs/suggestions.routes.js';
import { createChatsRoutes, createChatUsersRoutes } from './chats/chats.routes.js';
import type { ReadApiDeps } from './deps.js';
import { createLabelsRoutes } from './labels/labels.routes.js';
import { createLiveRoutes } from './live/live.routes.js';
import { createMetricsRoutes } from './metrics/metrics.routes.js';
import { createMilestonesRoutes } from './milestones/milestones.routes.js';
import { createNotificationsRoutes } from './notifications/notifications.routes.js';
import { createOpenApiRoutes } from './openapi/openapi.routes.js';
import { readApiOperations } from './operations.js';
import { createProjectsRoutes } from './projects/projects.routes.js';
import { createReportsRoutes } from './reports/reports.routes.js';
import { createSlaRoutes } from './sla/sla.routes.js';
import { resolveFile, sendFile } from './static.js';
import { createSystemRoutes } from './system/system.routes.js';
import { createUploadsRoutes } from './uploads/uploads.routes.js';
import { createProfileRoutes, createUsersRoutes } from './users/users.routes.js';
import { createViewsRoutes } from './views/views.routes.js';
import { createWorklogExportRoutes, createWorklogRoutes } from './worklog/worklog.routes.js';

const API_PREFIXES = ['/api/', '/chats', '/users', '/uploads/'];
const isApiPath = (p: string) =>
  p === '/api' || API_PREFIXES.some((prefix) => p === prefix.replace(/\/$/, '') || p.startsWith(prefix));

/**
 * The POSTs that are read-api's: questions that need a body but change nothing, answered
 * from the read models (triage suggestions). The in-process split and deploy/nginx.conf agree.
 */
export const readApiPostPaths = ['/api/bugs/suggestions'] as const;

/** A rule's dry run over history (issue 38): a question that changes nothing, by pattern. */
const readApiPostPattern = /^\/api\/automations\/(?:[^/]{1,100}\/)?simulate$/;

export function isReadApiPost(method: string, pathname: string): boolean {
  return (
    method === 'POST' &&
    ((readApiPostPaths as readonly string[]).includes(pathname) || readApiPostPattern.test(pathname))
  );
}

/** read-api: every GET, from the read models; also the web app and uploads. */
/** The read-api app; `close()` ends its live streams so a shutdown need not wait for them. */
export type ReadApi = Hono & { close(): void; liveClients(): number };

export function createReadApi(deps: ReadApiDeps): ReadApi {
  const app = new Hono();
  app.onError(createErrorHandler(deps.logger));
  app.use('*', requestContext(deps.logger));
  app.use('*', httpMetrics(deps.metrics));
  // CORS (preflights answered here, for read paths too) and the security headers on every answer.
  app.use('*', httpSecurity(deps.config));
  app.use('*', rejectInvalidCharacters());
  // Profile images are stored as paths and answered as links from PUBLIC_URL (or this request's origin).
  // A read API token only reads: read-api's POSTs (triage suggestions) refuse it too.
  app.use('*', apiTokenScope(deps.tokens));
  app.use('*', absoluteProfileImages(deps.config));

  // Read-your-writes. A client may carry a position from a command's answer; only a signed-in
  // caller may make a request wait (else anyone could hold connections open). On a standby
  // (READ_DATABASE_URL), clients that carry none still read their writes: the answer waits
  // until the standby has what the primary had, or is read on the primary (ADR 022).
  app.use('*', async (c, next) => {
    const min = c.req.header('x-min-position');
    let target: string | null;
    if (min && (await optionalActor(c, deps.tokens))) {
      if (!isPosition(min)) throw new HttpError(400, 'X-Min-Position must be a position token');
      target = min;
    } else if (isApiPath(c.req.path)) target = null;
    else return next();
    await deps.changeFeed.readYourWrites(target, deps.config.readYourWritesTimeoutMs, async (caughtUp) => {
      if (!caughtUp) c.header('X-Read-Model-Lag', '1');
      await next();
    });
  });

  app.route('/', createSystemRoutes(deps));
  app.route('/api/auth', createProfileRoutes(deps));
  app.route('/api/users', createUsersRoutes(deps));
  // Before /api/bugs: its one POST (readApiPostPaths), a question that changes nothing.
  app.route('/api/bugs/suggestions', createSuggestionsRoutes(deps));
  app.route('/api/bugs', createBugsRoutes(deps));
  // Everyone's own timesheet export, before the reports' admins-only door.
  app.route('/api/reports', createWorklogExportRoutes(deps));
  app.route('/api/reports', createReportsRoutes(deps));
  app.route('/api/worklog', createWorklogRoutes(deps));
  app.route('/api/audit', createAuditRoutes(deps));
  app.route('/api/metrics', createMetricsRoutes(deps));
  app.route('/api/sla', createSlaRoutes(deps));
  app.route('/api/views', createViewsRoutes(deps));
  app.route('/api/projects', createProjectsRoutes(deps));
  app.route('/api/labels', createLabelsRoutes(deps));
  app.route('/api/milestones', createMilestonesRoutes(deps));
  app.route('/api/notifications', createNotificationsRoutes(deps));
  app.route('/api/automations', createAutomationsRoutes(deps));
  app.route('/api', createOpenApiRoutes([...readApiOperations, ...(deps.operations ?? [])]));
  const live = createLiveRoutes(deps);
  app.route('/api/events', live.app);
  // The spec's chat-server paths and /api/chats: the same handlers.
  for (const base of ['/api/chats', '/chats']) app.route(base, createChatsRoutes(deps));
  app.route('/users', createChatUsersRoutes(deps));

  app.route('/uploads', createUploadsRoutes(deps));

  app.get('*', async (c) => {
    if (isApiPath(c.req.path) || !deps.webDir) return c.json({ message: 'Not found' }, 404);
    const asset = c.req.path === '/' ? null : await resolveFile(deps.webDir, c.req.path);
    if (asset) {
      const immutable = c.req.path.startsWith('/assets/');
      const sent = await sendFile(c, asset, {
        'Cache-Control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
      });
      if (sent) return sent;
    }
    if ((c.req.header('accept') ?? '').includes('text/html') || c.req.path === '/') {
      const index = await resolveFile(deps.webDir, 'index.html');
      const sent = index ? await sendFile(c, index, { 'Cache-Control': 'no-cache' }) : null;
      if (sent) return sent;
    }
    return c.json({ message: 'Not found' }, 404);
  });

  app.notFound((c) => c.json({ message: 'Not found' }, 404));
  return Object.assign(app, { close: live.close, liveClients: () => live.hub.subscriberCount });
}

export const defaultWebDir = (root: string) => path.join(root, 'web', 'dist');
