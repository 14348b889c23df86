import type { EventStore } from '@bugtrail/eventstore';
import type { BlobStore, ChangeFeed, Config, Logger, TokenService } from '@bugtrail/platform';
import type { Context } from 'hono';
import type pg from 'pg';
import type { InviteCodes } from './auth/invite-codes.js';

/** Everything write-api needs; main.ts (or the launcher) wires the real ones. */
export type WriteApiDeps = Readonly<{
  store: EventStore;
  pool: pg.Pool;
  tokens: TokenService;
  changeFeed: ChangeFeed;
  inviteCodes: InviteCodes;
  config: Config;
  logger: Logger;
  /** Uploaded files (profile images): a folder under DATA_DIR by default. */
  blobs: BlobStore;
  now?: () => Date;
}>;

/**
 * Read-your-writes: answer with the position of the last event and wait (bounded)
 * until every read model has passed it, so a refetch right after sees the write.
 */
export async function settle(c: Context, deps: WriteApiDeps, position: string | null): Promise<void> {
  if (!position) return;
  c.header('X-Event-Position', position);
  const caughtUp = await deps.changeFeed.waitFor(position, deps.config.readYourWritesTimeoutMs);
  if (!caughtUp) c.header('X-Read-Model-Lag', '1');
}

export function commandContext(c: Context, actor: { id: string; role: 'admin' | 'tester' | 'developer' } | null) {
  const key = c.req.header('idempotency-key')?.trim();
  return {
    actor,
    correlationId: c.req.header('x-correlation-id')?.slice(0, 100) || crypto.randomUUID(),
    idempotencyKey: key ? key.slice(0, 200) : null,
  };
}
