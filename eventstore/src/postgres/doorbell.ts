import type pg from 'pg';

/**
 * One LISTEN connection per store that wakes waiting readers. It is a doorbell,
 * never the data: readers re-read the store, and poll as a fallback, so a lost
 * notification (or a dropped connection) only delays them.
 */
export class Doorbell {
  private waiters = new Set<() => void>();
  private client: pg.PoolClient | null = null;
  private closed = false;
  private connecting: Promise<void> | null = null;

  constructor(
    private readonly pool: pg.Pool,
    private readonly channel: string,
  ) {}

  /** Resolves on the next ring or after `timeoutMs`, whichever comes first. */
  wait(timeoutMs: number): Promise<void> {
    this.ensureListening();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      this.waiters.add(done);
    });
  }

  ring(): void {
    for (const waiter of [...this.waiters]) waiter();
  }

  private ensureListening(): void {
    if (this.client || this.connecting || this.closed) return;
    this.connecting = this.listen()
      .catch(() => {
        // The database is away; readers keep polling, and the next wait() tries again.
      })
      .finally(() => {
        this.connecting = null;
      });
  }

  private async listen(): Promise<void> {
    const client = await this.pool.connect();
    if (this.closed) {
      client.release();
      return;
    }
    const drop = (error?: Error) => {
      if (this.client !== client) return;
      this.client = null;
      client.removeAllListeners('notification');
      client.release(error ?? true);
      this.ring();
    };
    client.on('notification', (msg) => {
      if (msg.channel === this.channel) this.ring();
    });
    client.on('error', (error) => drop(error));
    await client.query(`listen ${this.channel}`);
    this.client = client;
    // Anything rung while we were connecting is caught by the readers' next re-read.
    this.ring();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.ring();
    await this.connecting;
    const client = this.client;
    this.client = null;
    if (client) {
      await client.query(`unlisten ${this.channel}`).catch(() => {});
      client.release();
    }
  }
}
