import { AsyncLocalStorage } from 'node:async_hooks';
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
 *   unreachable (rechecked every few seconds) and for a request pinned there: reads keep
 *   working when it stops.
 * - `ReplicaFeed`: the change feed as the standby sees it. The primary's notices are held
 *   until the standby has replayed them, so a live client's refetch finds the change, and
 *   `readYourWrites` reads the standby only once it has everything committed before the
 *   request; a standby that is down or stays behind sends the request to the primary.
 * The standby's position is only ever read on the standby: a position read through the
 * fallback is the primary's, and taken for the standby's it would let a standby that comes
 * back behind answer as if it were caught up.
 */

/** How long the standby is left alone after it could not be reached. */
const STANDBY_RETRY_MS = 3000;

export class ReplicaPool extends pg.Pool {
  private downUntil = 0;
  /** Set for a request whose reads must all be the primary's. */
  private readonly pinned = new AsyncLocalStorage<true>();

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

  /** Runs `read` with every connection it takes on the primary. */
  onPrimary<T>(read: () => Promise<T>): Promise<T> {
    return this.pinned.run(true, read);
  }

  /** The standby's read-model position, never the primary's; null while it cannot be reached. */
  async standbyPosition(): Promise<string | null> {
    let client: pg.PoolClient;
    try {
      client = await super.connect();
    } catch (error) {
      if (this.isUnreachable(error)) return null;
      throw error;
    }
    try {
      const position = await readModelPosition(client);
      client.release();
      return position;
    } catch (error) {
      client.release(error as Error);
      if (this.isUnreachable(error)) return null;
      throw error;
    }
  }

  override connect(): Promise<pg.PoolClient>;
  override connect(
    callback: (err: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void,
  ): void;
  override connect(
    callback?: (err: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void,
  ): Promise<pg.PoolClient> | undefined {
    const toPrimary = this.isFallingBack || this.pinned.getStore() === true;
    const attempt = toPrimary ? this.primary.connect() : this.standbyOrPrimary();
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
      if (!this.isUnreachable(error)) throw error;
      return this.primary.connect();
    }
  }

  /** Whether `error` says the standby cannot be reached; if so, reads go to the primary for a while. */
  private isUnreachable(error: unknown): boolean {
    if (!isDatabaseUnavailable(error) && !/timeout/i.test((error as Error).message)) return false;
    if (!this.isFallingBack) {
      this.logger.warn('standby unreachable: reading from the primary', { error: (error as Error).message });
    }
    this.downUntil = performance.now() + STANDBY_RETRY_MS;
    return true;
  }
}

/** What read-api needs of a change feed: the primary's own, or the standby's view of it. */
export type ReadModelFeed = Pick<ChangeFeed, 'position' | 'waitFor' | 'onChange' | 'onSignal' | 'readYourWrites'>;

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
    private readonly replica: ReplicaPool,
  ) {}

  async start(): Promise<void> {
    this.stopListening = this.primaryFeed.onChange((notice) => {
      this.held.push(notice);
      this.poll();
    });
    this.advance((await this.replica.standbyPosition().catch(() => null)) ?? ZERO_POSITION);
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

  /**
   * Runs `read` once the standby holds `target` (a client's position), or, without one,
   * everything the primary's read models held when the request came. A standby that is down
   * or has not got there within the timeout leaves the request to the primary, whose read
   * models hold everything they acknowledged: `read` learns whether its reads are caught up.
   */
  async readYourWrites<T>(
    target: string | null,
    timeoutMs: number,
    read: (caughtUp: boolean) => Promise<T>,
  ): Promise<T> {
    // One timeout in all: what the standby's wait used is not waited again on the primary.
    const started = performance.now();
    const left = () => Math.max(0, timeoutMs - (performance.now() - started));
    const onPrimary = () =>
      this.replica.onPrimary(async () => read(target === null || (await this.primaryFeed.waitFor(target, left()))));
    if (this.replica.isFallingBack) return onPrimary();
    const wanted = target ?? (await this.primaryPosition().catch(() => null));
    if (wanted !== null && (await this.waitFor(wanted, timeoutMs))) return read(true);
    return onPrimary();
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
          const position = await this.replica.standbyPosition().catch(() => null);
          if (position) this.advance(position);
          // Gone: whoever waits is answered now, and reads from the primary.
          else this.waiters.releaseAll();
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
