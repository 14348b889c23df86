import type { EventStore } from '@bugtrail/eventstore';
import type { Config, Logger, Metrics, ReadModelFeed, RouteSpec, TokenService } from '@bugtrail/platform';
import type { ReadModelDb } from '@bugtrail/projector';
import type { Kysely } from 'kysely';
import type pg from 'pg';

export type ReadApiDeps = Readonly<{
  db: Kysely<ReadModelDb>;
  pool: pg.Pool;
  store: EventStore;
  tokens: TokenService;
  /** The read models' progress as this process reads them (on a standby: as replayed there). */
  changeFeed: ReadModelFeed;
  config: Config;
  logger: Logger;
  /** This process's Prometheus metrics (/metrics). */
  metrics: Metrics;
  /** The built web app (index.html and assets); omitted when not served here. */
  webDir?: string;
  /** Where uploaded files live (DATA_DIR/uploads). */
  uploadsDir: string;
  /**
   * Operations other parts serve on the same origin (write-api's commands), published
   * in /api/openapi.json beside read-api's own. read-api may not import write-api, so
   * whoever wires the parts (the launcher) passes them.
   */
  operations?: readonly RouteSpec[];
}>;
