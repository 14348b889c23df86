import pg from 'pg';
import {
  type ChangeFeed,
  type ChangeNotice,
  PositionWaiters,
  readModelPosition,
  ZERO_POSITION,
} from './change-feed.js';
import { isDatabaseUnavailable } from './db.js';
import type { Logger } from './logger.js';

/**
 * Read models from a hot standby (READ_DATABASE_URL, ADR 022). read-api reads there; the
 * primary keeps everything else (migrations, LISTEN, tokens). Two pieces:
 * - `ReplicaPool`: connections to the standby, or to the primary while the standby is
 *   unreachable (rechecked every few seconds): reads keep working when it stops.
 * - `ReplicaFeed`: the change feed as the standby sees it. The primary's notices are held
 *   until the standby has replayed them, so a live client's refetch finds the change, and
 *   `sync` answers only once the standby has everything committed before it was asked.
 */

/** How long the standby is left alone after it could not be reached. */
const STANDBY_RETRY_MS = 3000;

export class ReplicaPool extends pg.Pool {
  private downUntil = 0;

  constructor(
    connectionString: string,
    private readonly primary: pg.Pool,
    private readonly logger: Logger,
    max = 20,
  ) {
    super({
      connectionString,
      max,
      application_name: 'bugtrail-read',
      connectionTimeoutMillis: 2000,
      idleTimeoutMillis: 30_000,
    });
    this.on('error', (error) => logger.warn('idle standby client failed', { error: error.message }));
    this.on('connect', (client) => {
      client.on('error', (error) => logger.debug('standby client lost', { error: error.message }));
    });
  }

  /** Whether reads go to the primary for now (the standby was unreachable). */
  get isFallingBack(): boolean {
    return performance.now() < this.downUntil;
  }

  override connect(): Promise<pg.PoolClient>;
  override connect(
    callback: (err: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void,
  ): void;
  override connect(
    callback?: (err: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void,
  ): Promise<pg.PoolClient> | undefined {
    const attempt = this.isFallingBack ? this.primary.connect() : this.standbyOrPrimary();
    if (!callback) return attempt;
    attempt.then(
      (client) => callback(undefined, client, (release) => client.release(release as Error | boolean | undefined)),
      (error: Error) => callback(error, undefined, () => {}),
    );
    return undefined;
  }

  private async standbyOrPrimary(): Promise<pg.PoolClient> {
    try {
      return await super.connect();
    } catch (error) {
      if (!isDatabaseUnavailable(error) && !/timeout/i.test((error as Error).message)) throw error;
      this.downUntil = performance.now() + STANDBY_RETRY_MS;
      this.logger.warn('standby unreachable: reading from the primary', { error: (error as Error).message });
      return this.primary.connect();
    }
  }
}

/** What read-api needs of a change feed: the primary's own, or the standby's view of it. */
export type ReadModelFeed = Pick<ChangeFeed, 'position' | 'waitFor' | 'onChange' | 'onSignal'> & {
  /**
   * Resolves true once these read models hold every change committed before the call
   * (false after the timeout). On the primary they always do.
   */
  sync(timeoutMs: number): Promise<boolean>;
};

export class ReplicaFeed implements ReadModelFeed {
  private current = ZERO_POSITION;
  private readonly held: ChangeNotice[] = [];
  private readonly waiters = new PositionWaiters(() => this.current);
  private readonly listeners = new Set<(notice: ChangeNotice) => void>();
  private isPolling = false;
  private closed = false;
  private stopListening: () => void = () => {};
  private running: Promise<string> | null = null;
  private next: Promise<string> | null = null;

  constructor(
    private readonly primaryFeed: ChangeFeed,
    private readonly primary: pg.Pool,
    private readonly replica: pg.Pool,
  ) {}

  async start(): Promise<void> {
    this.stopListening = this.primaryFeed.onChange((notice) => {
      this.held.push(notice);
      this.poll();
    });
    this.advance(await readModelPosition(this.replica).catch(() => ZERO_POSITION));
  }

  get position(): string {
    return this.current;
  }

  waitFor(target: string, timeoutMs: number): Promise<boolean> {
    const waiting = this.waiters.add(target, timeoutMs);
    if (this.waiters.size > 0) this.poll();
    return waiting;
  }

  onChange(listener: (notice: ChangeNotice) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  onSignal(channel: string, handler: (payload: string) => void): () => void {
    return this.primaryFeed.onSignal(channel, handler);
  }

  async sync(timeoutMs: number): Promise<boolean> {
    const target = await this.primaryPosition();
    return this.waitFor(target, timeoutMs);
  }

  close(): void {
    this.closed = true;
    this.stopListening();
    this.waiters.releaseAll();
  }

  /**
   * The primary's read-model position, read after the caller asked: callers that arrive
   * while a read is under way share the next one, so a burst costs two round trips.
   */
  private primaryPosition(): Promise<string> {
    const read = () => {
      const started = readModelPosition(this.primary).finally(() => {
        if (this.running === started) this.running = null;
      });
      this.running = started;
      return started;
    };
    if (!this.running) return read();
    this.next ??= this.running
      .catch(() => ZERO_POSITION)
      .then(() => {
        this.next = null;
        return read();
      });
    return this.next;
  }

  /** While anything waits on the standby, reads its position every millisecond or so. */
  private poll(): void {
    if (this.isPolling || this.closed) return;
    this.isPolling = true;
    void (async () => {
      try {
        while (!this.closed && (this.held.length > 0 || this.waiters.size > 0)) {
          const position = await readModelPosition(this.replica).catch(() => null);
          if (position) this.advance(position);
          if (this.held.length > 0 || this.waiters.size > 0)
            await new Promise((resolve) => setTimeout(resolve, position ? 1 : 100));
        }
      } finally {
        this.isPolling = false;
      }
    })();
  }

  private advance(position: string): void {
    if (position > this.current) this.current = position;
    while (this.held[0] && this.held[0].position <= this.current) {
      const notice = this.held.shift()!;
      for (const listener of this.listeners) listener(notice);
    }
    this.waiters.reached(this.current);
  }
}
