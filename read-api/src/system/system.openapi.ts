import { errorAnswer, type RouteSpec } from '@bugtrail/platform';
import { z } from 'zod';

/** /health, /ready and /metrics (system.routes.ts), mounted at the root; every server answers them. */

const readiness = z
  .object({
    status: z.enum(['ready', 'lagging', 'unavailable']),
    database: z.enum(['ok', 'unreachable']),
    projector: z
      .object({
        position: z.string().describe("The read models' checkpoint token"),
        eventsBehind: z.union([z.number().int(), z.string()]).describe('A number, or "1000+"'),
        secondsBehind: z.number(),
      })
      .optional(),
    message: z.string().optional(),
  })
  .loose();

export const systemOperations: RouteSpec[] = [
  {
    method: 'get',
    path: '/health',
    summary: 'Liveness',
    tags: ['system'],
    auth: false,
    responses: { 200: { description: 'Up', schema: z.object({ status: z.literal('ok') }) } },
  },
  {
    method: 'get',
    path: '/ready',
    summary: 'Readiness: database reachable and projector caught up',
    tags: ['system'],
    auth: false,
    responses: {
      200: { description: 'Ready', schema: readiness },
      503: { description: 'Lagging or unavailable', schema: readiness },
    },
  },
  {
    method: 'get',
    path: '/metrics',
    operationId: 'getPrometheusMetrics',
    summary: 'Prometheus metrics of this process: requests per route, latency, projector lag, live clients',
    description:
      'Answers only to loopback addresses and those `METRICS_ALLOW` lists (addresses or CIDRs), judged by the connection’s own address (never `X-Forwarded-For`); anyone else gets 404.',
    tags: ['system'],
    auth: false,
    responses: {
      200: {
        description: 'Prometheus text exposition format',
        contentType: 'text/plain; version=0.0.4',
        schema: z.string(),
      },
      404: errorAnswer('The caller’s address is neither loopback nor in `METRICS_ALLOW`'),
    },
  },
];
