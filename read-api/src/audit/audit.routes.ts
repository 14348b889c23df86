import { type Position, START, verifyStore } from '@bugtrail/eventstore';
import { type AuthEnv, readQuery, requireAuth, requireRole } from '@bugtrail/platform';
import { Hono } from 'hono';
import { recentBugActivity } from '../bugs/history.js';
import type { ReadApiDeps } from '../deps.js';
import { auditActivityQuery, auditEventsQuery } from './audit.schemas.js';

const PAGE = 1000;
const encoder = new TextEncoder();

/**
 * The auditors' door to the store itself (api.md "Audit trail"), admins and auditors only:
 * `GET /api/audit/verify` checks every stream's chain; `GET /api/audit/events` streams the
 * events in global order as NDJSON for archiving elsewhere; `GET /api/audit/activity` is
 * the newest changes across all bugs, in the bug history's words (the auditor's dashboard).
 */
export function createAuditRoutes(deps: ReadApiDeps) {
  const app = new Hono<AuthEnv>();
  app.use('*', requireAuth(deps.tokens), requireRole('admin', 'auditor'));

  app.get('/verify', async (c) => c.json(await verifyStore(deps.store)));

  app.get('/activity', async (c) => {
    const query = readQuery(c, auditActivityQuery);
    return c.json(await recentBugActivity(deps, { before: query.before, limit: query.limit ?? 30 }));
  });

  app.get('/events', (c) => {
    const query = readQuery(c, auditEventsQuery);
    let from: Position = query.after ?? START;
    let left = query.limit ?? Number.POSITIVE_INFINITY;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (left <= 0) return controller.close();
        const page = await deps.store.readAll(from, Math.min(PAGE, left));
        if (page.length === 0) return controller.close();
        let text = '';
        for (const e of page) {
          text += `${JSON.stringify({
            position: e.position,
            stream: e.streamId,
            revision: e.revision,
            type: e.type,
            data: e.data,
            metadata: e.metadata,
            hash: e.hash,
          })}\n`;
        }
        controller.enqueue(encoder.encode(text));
        from = page[page.length - 1]!.position;
        left -= page.length;
      },
    });
    return c.body(body, 200, { 'Content-Type': 'application/x-ndjson; charset=utf-8', 'Cache-Control': 'no-store' });
  });

  return app;
}
