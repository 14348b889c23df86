import { Hono } from 'hono';
import type { Metrics } from '../metrics.js';

/** What `/ready` answers: 200 when `ready`, else 503, with the details either way. */
export type Readiness = { ready: boolean; body: Record<string, unknown> };

/**
 * The operator's routes every server answers at its root, whatever parts it runs:
 * `/health` (the process is alive), `/ready` (its dependencies are reachable and its
 * read models within the lag bound: the part decides) and `/metrics` (Prometheus).
 */
export function createOpsRoutes(deps: { metrics: Metrics; readiness: () => Promise<Readiness> }): Hono {
  const app = new Hono();
  app.get('/health', (c) => c.json({ status: 'ok' }));
  app.get('/ready', async (c) => {
    const { ready, body } = await deps.readiness().catch(
      (error: Error): Readiness => ({
        ready: false,
        body: { status: 'unavailable', message: error.message },
      }),
    );
    return c.json(body, ready ? 200 : 503);
  });
  app.get('/metrics', async (c) => {
    const { body, contentType } = await deps.metrics.text();
    return c.body(body, 200, { 'Content-Type': contentType, 'Cache-Control': 'no-store' });
  });
  return app;
}
