import type pg from 'pg';

/**
 * One LISTEN connection per store that wakes waiting readers. It is a doorbell,
 * never the data: readers re-read the store, and poll as a fallback, so a lost
 * notification (or a dropped connection) only delays them.
 */
export type Wake = 'positioned' | 'blind';

export class Doorbell {
  private waiters = new Set<(wake: Wake) => void>();
  /** The furthest position any ring announced (in this process, or in a NOTIFY payload). */
  private head = '';
  private client: pg.PoolClient | null = null;
  private closed = false;
  private connecting: Promise<void> | null = null;

  constructor(
    private readonly pool: pg.Pool,
    private readonly channel: string,
  ) {}

  /**
   * Resolves on the next ring or after `timeoutMs`, whichever comes first: 'positioned'
   * when the ring named its position (compare with `rungHead`), else 'blind' (a ring
   * without one, or the timeout): then only a read tells.
   */
  wait(timeoutMs: number): Promise<Wake> {
    this.ensureListening();
    return new Promise((resolve) => {
      const done = (wake: Wake) => {
        clearTimeout(timer);
        this.waiters.delete(done);
        resolve(wake);
      };
      const timer = setTimeout(() => done('blind'), timeoutMs);
      this.waiters.add(done);
    });
  }

  /** Wakes every waiter; `position` is the append that rang, when the ringer knows it. */
  ring(position?: string): void {
    if (position && position > this.head) this.head = position;
    for (const waiter of [...this.waiters]) waiter(position ? 'positioned' : 'blind');
  }

  /** The furthest position rung so far ('' before any): a reader behind it knows more is coming. */
  get rungHead(): string {
    return this.head;
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
      if (msg.channel !== this.channel) return;
      // Only a position token moves the head: anything else is a plain ring.
      this.ring(msg.payload && /^[0-9a-f]{32}$/.test(msg.payload) ? msg.payload : undefined);
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
