import { getConnInfo } from '@hono/node-server/conninfo';
import { type Context, Hono } from 'hono';
import type { Metrics } from '../metrics.js';
import { LoopbackOrListed } from '../net/address-list.js';

/** What `/ready` answers: 200 when `ready`, else 503, with the details either way. */
export type Readiness = { ready: boolean; body: Record<string, unknown> };

/**
 * The operator's routes every server answers at its root, whatever parts it runs:
 * `/health` (the process is alive), `/ready` (its dependencies are reachable and its
 * read models within the lag bound: the part decides) and `/metrics` (Prometheus), which
 * answers only to loopback and the `metricsAllow` addresses (METRICS_ALLOW), judged by the
 * socket's address, never a forwarded one; to anyone else it does not exist (404).
 */
export function createOpsRoutes(deps: {
  metrics: Metrics;
  readiness: () => Promise<Readiness>;
  metricsAllow: readonly string[];
}): Hono {
  const app = new Hono();
  const metricsReaders = new LoopbackOrListed(deps.metricsAllow);
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
    if (!metricsReaders.allows(socketAddress(c))) return c.json({ message: 'Not found' }, 404);
    const { body, contentType } = await deps.metrics.text();
    return c.body(body, 200, { 'Content-Type': contentType, 'Cache-Control': 'no-store' });
  });
  return app;
}

function socketAddress(c: Context): string | undefined {
  try {
    return getConnInfo(c).remote.address;
  } catch {
    return undefined;
  }
}
