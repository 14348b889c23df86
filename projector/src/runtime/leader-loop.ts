import type { Logger } from '@bugtrail/platform';
import type pg from 'pg';

export type LeaderRole = 'leader' | 'standby' | 'stopped';

/**
 * Runs `lead` only while this instance holds a session advisory lock: one leader per
 * database, the others wait as standbys and take over when it goes. The lock lives on
 * one pooled connection; losing that connection loses the lock, and `onLockLost`
 * must make `lead` return (close its subscription) so a standby can lead.
 */
export class LeaderLoop {
  role: LeaderRole = 'stopped';
  private running = false;
  private loop: Promise<void> | null = null;
  private lockClient: pg.PoolClient | null = null;
  private wake: (() => void) | null = null;

  constructor(
    private readonly pool: pg.Pool,
    private readonly lockKey: number,
    private readonly name: string,
    private readonly logger: Logger,
    private readonly lead: () => Promise<void>,
    private readonly onLockLost: () => void,
  ) {}

  /** True while started and not stopping. */
  get isRunning(): boolean {
    return this.running;
  }

  /** True while this instance holds the lock (and so may write). */
  get isLeading(): boolean {
    return this.running && this.lockClient !== null;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  private async run(): Promise<void> {
    while (this.running) {
      try {
        if (!(await this.acquire())) {
          this.role = 'standby';
          await this.sleep(1000);
          continue;
        }
        this.role = 'leader';
        this.logger.info(`${this.name} is the leader`);
        await this.lead();
        if (this.running && !this.lockClient) throw new Error('leadership lost');
      } catch (error) {
        if (!this.running) break;
        this.logger.warn(`${this.name} interrupted; retrying`, { error: (error as Error).message });
        await this.release();
        await this.sleep(1000);
      }
    }
    await this.release();
    this.role = 'stopped';
  }

  private async acquire(): Promise<boolean> {
    const client = await this.pool.connect();
    try {
      const { rows } = await client.query<{ locked: boolean }>('select pg_try_advisory_lock($1) as locked', [
        this.lockKey,
      ]);
      if (!rows[0]?.locked) {
        client.release();
        return false;
      }
    } catch (error) {
      client.release(error as Error);
      throw error;
    }
    const onError = (error: Error) => {
      if (this.lockClient !== client) return;
      this.lockClient = null;
      client.release(error);
      this.onLockLost();
    };
    client.on('error', onError);
    this.lockClient = client;
    this.detach = () => client.off('error', onError);
    return true;
  }

  private detach: () => void = () => {};

  private async release(): Promise<void> {
    const client = this.lockClient;
    this.lockClient = null;
    if (!client) return;
    this.detach();
    try {
      await client.query('select pg_advisory_unlock($1)', [this.lockKey]);
      client.release();
    } catch (error) {
      client.release(error as Error);
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.wake = null;
        resolve();
      }, ms);
      this.wake = () => {
        clearTimeout(timer);
        this.wake = null;
        resolve();
      };
    });
  }

  /**
   * Stops: no new leadership, a standby's wait ends at once. `interrupt` ends the
   * current `lead` (e.g. closes its subscription); then the loop is awaited.
   */
  async stop(interrupt: () => Promise<void> | void): Promise<void> {
    this.running = false;
    this.wake?.();
    await interrupt();
    await this.loop;
    this.loop = null;
  }
}
