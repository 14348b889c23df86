import { createMiddleware } from 'hono/factory';
import { routePath } from 'hono/route';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/**
 * One process's Prometheus metrics (served at `/metrics`): request rate and latency per
 * route, rate-limit refusals, event-store append latency, and the gauges its parts
 * register (projector lag, live clients). A registry per process part set, not the global
 * one: tests run several systems in one process.
 */
export class Metrics {
  readonly registry = new Registry();
  readonly httpRequests = new Counter({
    name: 'bugtrail_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });
  readonly httpSeconds = new Histogram({
    name: 'bugtrail_http_request_duration_seconds',
    help: 'Time to answer an HTTP request (to the first byte of a stream), by method and route pattern',
    labelNames: ['method', 'route'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
    registers: [this.registry],
  });
  readonly rateLimitHits = new Counter({
    name: 'bugtrail_rate_limit_hits_total',
    help: 'Requests refused with 429, by route pattern',
    labelNames: ['route'] as const,
    registers: [this.registry],
  });
  readonly appendSeconds = new Histogram({
    name: 'bugtrail_eventstore_append_duration_seconds',
    help: 'Time of one append to the event store',
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
    registers: [this.registry],
  });

  constructor(options: { processMetrics?: boolean } = {}) {
    if (options.processMetrics ?? true) collectDefaultMetrics({ register: this.registry });
  }

  /** A gauge read when scraped (a failing read leaves it out of that scrape). */
  gauge(name: string, help: string, read: () => number | Promise<number>): void {
    new Gauge({
      name,
      help,
      registers: [this.registry],
      async collect() {
        try {
          this.set(await read());
        } catch {
          this.reset();
        }
      },
    });
  }

  /** The text Prometheus scrapes. */
  async text(): Promise<{ body: string; contentType: string }> {
    return { body: await this.registry.metrics(), contentType: this.registry.contentType };
  }
}

/** Counts and times every request by its route pattern (never the raw path: ids would explode the series). */
export function httpMetrics(metrics: Metrics) {
  return createMiddleware(async (c, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      const route = routePath(c) || 'unmatched';
      const method = c.req.method;
      const status = c.res.status;
      metrics.httpRequests.inc({ method, route, status: String(status) });
      metrics.httpSeconds.observe({ method, route }, (performance.now() - started) / 1000);
      if (status === 429) metrics.rateLimitHits.inc({ route });
    }
  });
}
