import { randomUUID } from 'node:crypto';
import { createMiddleware } from 'hono/factory';
import type { Logger } from '../logger.js';
import { withFields } from '../logger.js';

/**
 * One correlation id per request, made once at the door: every event the request
 * appends and every line it logs carries it. A caller may bring its own
 * (`X-Correlation-Id`, up to 100 plain characters); it is echoed on the answer.
 */
export type RequestEnv = { Variables: { correlationId: string; log: Logger } };

const acceptable = /^[\w.:-]{1,100}$/;

export function requestContext(logger: Logger) {
  return createMiddleware<RequestEnv>(async (c, next) => {
    const offered = c.req.header('x-correlation-id')?.trim();
    const correlationId = offered && acceptable.test(offered) ? offered : randomUUID();
    c.set('correlationId', correlationId);
    c.set('log', withFields(logger, { correlationId }));
    c.header('X-Correlation-Id', correlationId);
    await next();
  });
}
