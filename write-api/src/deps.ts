import type { Actor } from '@bugtrail/domain';
import type { CommandContext, CommandHandler } from '@bugtrail/eventstore';
import type { BlobStore, ChangeFeed, Config, Logger, Metrics, TokenService, UploadSpool } from '@bugtrail/platform';
import type { Context } from 'hono';
import type pg from 'pg';
import type { Accounts } from './auth/accounts.js';
import type { InviteCodes } from './auth/invite-codes.js';
import type { ClaimOwner } from './claim-owner.js';

/** Everything write-api needs; main.ts (or the launcher) wires the real ones. */
export type WriteApiDeps = Readonly<{
  /** The one write path: every command goes through it. */
  commands: CommandHandler;
  pool: pg.Pool;
  tokens: TokenService;
  changeFeed: ChangeFeed;
  inviteCodes: InviteCodes;
  accounts: Accounts;
  config: Config;
  logger: Logger;
  /** This process's Prometheus metrics (/metrics). */
  metrics: Metrics;
  /** Uploaded files (profile images, chat attachments): a folder under DATA_DIR by default. */
  blobs: BlobStore;
  /** Where large request bodies (imports, multipart uploads) are written while they stream in. */
  spool: UploadSpool;
  /** Marks this process's Idempotency-Key claims so another replica can tell a dead one at once. */
  claimOwner?: ClaimOwner;
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

/** The command context of this request: its one correlation id, its Idempotency-Key, the actor. */
export function commandContext(c: Context, actor: Actor | null): CommandContext {
  const key = c.req.header('idempotency-key')?.trim();
  // Set once at the door by platform's requestContext (see app.ts).
  const correlationId: string = c.get('correlationId');
  return { actor, correlationId, idempotencyKey: key ? key.slice(0, 200) : null };
}
