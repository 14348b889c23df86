import type { Logger } from '@bugtrail/platform';
import type pg from 'pg';
import { LeaderLoop } from './leader-loop.js';

/**
 * A pass run every `intervalMs` by one leader per database (LeaderLoop): the clock's
 * reactors (due reminders, mail). A failed pass is logged and tried again at the next
 * tick; stopping wakes the wait so the loop ends at once.
 */
export class PeriodicLeader {
  private readonly leader: LeaderLoop;
  private wake: (() => void) | null = null;

  constructor(
    pool: pg.Pool,
    lockKey: number,
    private readonly name: string,
    private readonly logger: Logger,
    private readonly intervalMs: number,
    private readonly pass: () => Promise<unknown>,
  ) {
    this.leader = new LeaderLoop(
      pool,
      lockKey,
      name,
      logger,
      () => this.lead(),
      () => this.wake?.(),
    );
  }

  /** True while started and not stopping. */
  get isRunning(): boolean {
    return this.leader.isRunning;
  }

  /** True while this instance holds the lock (and so may write). */
  get isLeading(): boolean {
    return this.leader.isLeading;
  }

  start(): void {
    this.leader.start();
  }

  async stop(): Promise<void> {
    await this.leader.stop(() => this.wake?.());
  }

  private async lead(): Promise<void> {
    while (this.leader.isLeading) {
      try {
        await this.pass();
      } catch (error) {
        this.logger.warn(`${this.name}: a pass failed; trying again`, { error: (error as Error).message });
      }
      let timer: NodeJS.Timeout | null = null;
      await new Promise<void>((resolve) => {
        this.wake = resolve;
        timer = setTimeout(resolve, this.intervalMs);
        timer.unref();
      });
      if (timer) clearTimeout(timer);
      this.wake = null;
    }
  }
}
