import { createOpsRoutes, type Readiness, readModelPosition } from '@bugtrail/platform';
import { READ_MODEL_SCHEMA } from '@bugtrail/projector';
import { sql } from 'kysely';
import type { ReadApiDeps } from '../deps.js';

/** The projector counts as caught up within this many events and seconds. */
const READY_MAX_EVENTS_BEHIND = 1000;
const READY_MAX_SECONDS_BEHIND = 30;

/** /health, /ready (the read models reachable and caught up) and /metrics. */
export function createSystemRoutes(deps: ReadApiDeps) {
  return createOpsRoutes({
    metrics: deps.metrics,
    readiness: () => readModelReadiness(deps),
    metricsAllow: deps.config.metricsAllow,
  });
}

async function readModelReadiness(deps: ReadApiDeps): Promise<Readiness> {
  try {
    await sql`select 1`.execute(deps.db.withSchema(READ_MODEL_SCHEMA));
    const position = await readModelPosition(deps.pool);
    const pending = await deps.store.readAll(position, READY_MAX_EVENTS_BEHIND + 1);
    const oldest = pending[0];
    const secondsBehind = oldest ? (Date.now() - oldest.recordedAt.getTime()) / 1000 : 0;
    const eventsBehind = pending.length;
    const ready = eventsBehind <= READY_MAX_EVENTS_BEHIND && secondsBehind <= READY_MAX_SECONDS_BEHIND;
    return {
      ready,
      body: {
        status: ready ? 'ready' : 'lagging',
        database: 'ok',
        projector: {
          position,
          eventsBehind: eventsBehind > READY_MAX_EVENTS_BEHIND ? `${READY_MAX_EVENTS_BEHIND}+` : eventsBehind,
          secondsBehind: Math.round(secondsBehind * 10) / 10,
        },
      },
    };
  } catch (error) {
    return {
      ready: false,
      body: { status: 'unavailable', database: 'unreachable', message: (error as Error).message },
    };
  }
}
