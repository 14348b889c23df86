import { randomInt } from 'node:crypto';
import type { Logger } from '@bugtrail/platform';
import type pg from 'pg';

/** The advisory lock space of claim owners: `pg_advisory_lock(CLAIM_OWNER_SPACE, owner)`. */
export const CLAIM_OWNER_SPACE = 0x49444b59; // "IDKY"
const RECONNECT_MS = 1000;

/**
 * This process's sign of life for the Idempotency-Key claims it holds (idempotency.ts): a
 * session advisory lock on a connection of its own. When the process dies, its socket closes
 * and PostgreSQL drops the lock at once, so a client's retry on another write-api takes the
 * dead request's claim over right away instead of waiting out the claim's lease.
 *
 * `current` is null until the lock is held and while its connection is lost; claims made then
 * carry no owner and fall back to the lease.
 */
export class ClaimOwner {
  /** Positive, so `pg_locks.objid` (an oid) reads it back as the same number. */
  readonly id = randomInt(1, 2 ** 31 - 1);
  private client: pg.PoolClient | null = null;
  private held = false;
  private closed = false;
  private retry: NodeJS.Timeout | null = null;

  constructor(
    private readonly pool: pg.Pool,
    private readonly logger: Logger,
  ) {}

  get current(): number | null {
    return this.held ? this.id : null;
  }

  async start(): Promise<void> {
    try {
      const client = await this.pool.connect();
      this.client = client;
      client.on('error', (error) => this.lost(client, error));
      await client.query('select pg_advisory_lock($1, $2)', [CLAIM_OWNER_SPACE, this.id]);
      this.held = !this.closed;
    } catch (error) {
      if (this.client) this.lost(this.client, error);
      else this.reconnectLater(error);
    }
  }

  private lost(client: pg.PoolClient, error: unknown): void {
    if (this.client !== client) return;
    this.held = false;
    this.client = null;
    client.release(true);
    this.reconnectLater(error);
  }

  private reconnectLater(error: unknown): void {
    if (this.closed || this.retry) return;
    this.logger.warn('idempotency claim owner lost its connection; claims fall back to their lease', { error });
    this.retry = setTimeout(() => {
      this.retry = null;
      void this.start();
    }, RECONNECT_MS);
    this.retry.unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.held = false;
    if (this.retry) clearTimeout(this.retry);
    const client = this.client;
    this.client = null;
    // Closing the connection releases the lock.
    client?.release(true);
  }
}
