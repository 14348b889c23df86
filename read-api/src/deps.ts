import type { EventStore } from '@bugtrail/eventstore';
import type { ChangeFeed, Config, Logger, TokenService } from '@bugtrail/platform';
import type { ReadModelDb } from '@bugtrail/projector';
import type { Kysely } from 'kysely';
import type pg from 'pg';

export type ReadApiDeps = Readonly<{
  db: Kysely<ReadModelDb>;
  pool: pg.Pool;
  store: EventStore;
  tokens: TokenService;
  changeFeed: ChangeFeed;
  config: Config;
  logger: Logger;
  /** The built web app (index.html and assets); omitted when not served here. */
  webDir?: string;
  /** Where uploaded files live (DATA_DIR/uploads). */
  uploadsDir: string;
}>;
