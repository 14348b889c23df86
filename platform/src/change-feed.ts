import type pg from 'pg';
import type { Logger } from './logger.js';

/** The projector's NOTIFY channel: after each committed batch, its position and topics. */
export const CHANGES_CHANNEL = 'bugtrail_changes';
export const ZERO_POSITION = '0'.repeat(32);
/** The chat assistant's signals: a draft row changed (payload: its message id), and Stop (payload: JSON). */
export const AI_DRAFTS_CHANNEL = 'bugtrail_ai_drafts';
export const AI_STOP_CHANNEL = 'bugtrail_ai_stop';

export type ChangeNotice = Readonly<{ position: string; topics: readonly string[]; reset?: boolean }>;

export function encodeChangeNotice(notice: ChangeNotice): string {
  return JSON.stringify({ p: notice.position, t: notice.topics, ...(notice.reset ? { r: 1 } : {}) });
}

export function decodeChangeNotice(payload: string): ChangeNotice | null {
  try {
    const raw = JSON.parse(payload) as { p?: unknown; t?: unknown; r?: unknown };
    if (typeof raw.p !== 'string' || !Array.isArray(raw.t)) return null;
    return { position: raw.p, topics: raw.t.filter((t): t is string => typeof t === 'string'), reset: raw.r === 1 };
  } catch {
    return null;
  }
}

/** The slowest projection's checkpoint: what every read model has seen. */
export async function readModelPosition(pool: Pick<pg.Pool, 'query'>): Promise<string> {
  const { rows } = await pool.query<{ position: string | null }>(
    'select min(position) as position from projector.checkpoints',
  );
  return rows[0]?.position ?? ZERO_POSITION;
}

type Waiter = { target: string; resolve: (caughtUp: boolean) => void; timer: NodeJS.Timeout };

/** Callers waiting for a position, each with its own timeout (the primary's feed and the standby's). */
export class PositionWaiters {
  private readonly waiters = new Set<Waiter>();

  constructor(private readonly current: () => string) {}

  get size(): number {
    return this.waiters.size;
  }

  /** Resolves true once `reached` has passed `target`, false after the timeout. */
  add(target: string, timeoutMs: number): Promise<boolean> {
    if (target <= this.current()) return Promise.resolve(true);
    return new Promise((resolve) => {
      const waiter: Waiter = {
        target,
        resolve,
        timer: setTimeout(() => {
          this.waiters.delete(waiter);
          resolve(target <= this.current());
        }, timeoutMs),
      };
      this.waiters.add(waiter);
    });
  }

  reached(position: string): void {
    for (const waiter of this.waiters) {
      if (waiter.target <= position) {
        clearTimeout(waiter.timer);
        this.waiters.delete(waiter);
        waiter.resolve(true);
      }
    }
  }

  /** Answers everyone now, as things stand. */
  releaseAll(): void {
    for (const waiter of this.waiters) {
      clearTimeout(waiter.timer);
      waiter.resolve(waiter.target <= this.current());
    }
    this.waiters.clear();
  }
}

/**
 * Follows the projector from another process (or the same one): knows the read
 * models' position, wakes read-your-writes waiters, and hands topics to live
 * subscribers. NOTIFY is the fast path; a poll of the checkpoint table is the
 * fallback whenever someone waits, so a dropped connection only slows things.
 */
export class ChangeFeed {
  private current = ZERO_POSITION;
  private readonly waiters = new PositionWaiters(() => this.current);
  private readonly listeners = new Set<(notice: ChangeNotice) => void>();
  /** Other channels heard on the same connection (signals, not changes: nothing replays them). */
  private readonly signals = new Map<string, Set<(payload: string) => void>>();
  private client: pg.PoolClient | null = null;
  private pollTimer: NodeJS.Timeout | null = null;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(
    private readonly pool: pg.Pool,
    private readonly logger: Logger,
  ) {}

  get position(): string {
    return this.current;
  }

  async start(): Promise<void> {
    await this.connect();
    this.advance(await readModelPosition(this.pool).catch(() => ZERO_POSITION));
  }

  /** Resolves true once the read models have passed `target`, false after the timeout. */
  waitFor(target: string, timeoutMs: number): Promise<boolean> {
    const waiting = this.waiters.add(target, timeoutMs);
    if (this.waiters.size > 0) this.ensurePolling();
    return waiting;
  }

  /**
   * Runs `read` once the read models hold `target` (a client's position; `read` learns
   * whether they got there within the timeout). Without one there is nothing to wait for:
   * read models on the primary hold every change acknowledged (see ReplicaFeed).
   */
  async readYourWrites<T>(
    target: string | null,
    timeoutMs: number,
    read: (caughtUp: boolean) => Promise<T>,
  ): Promise<T> {
    return read(target === null || (await this.waitFor(target, timeoutMs)));
  }

  onChange(listener: (notice: ChangeNotice) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Hears NOTIFY on another channel (a plain identifier) on the feed's connection; a
   * reconnect listens again. What was sent while the connection was down is not heard.
   */
  onSignal(channel: string, handler: (payload: string) => void): () => void {
    if (!/^[a-z_]+$/.test(channel)) throw new Error(`not a channel name: ${channel}`);
    let handlers = this.signals.get(channel);
    if (!handlers) {
      handlers = new Set();
      this.signals.set(channel, handlers);
      void this.client?.query(`listen ${channel}`).catch(() => {});
    }
    handlers.add(handler);
    return () => handlers.delete(handler);
  }

  /** Called by an in-process projector right after commit: no round trip needed. */
  publish(notice: ChangeNotice): void {
    this.advance(notice.position);
    for (const listener of this.listeners) listener(notice);
  }

  private advance(position: string): void {
    if (position <= this.current) return;
    this.current = position;
    this.waiters.reached(position);
  }

  private ensurePolling(): void {
    if (this.pollTimer || this.closed) return;
    // Without a listening connection, poll fast; with one, only as a safety net.
    this.pollTimer = setTimeout(
      async () => {
        this.pollTimer = null;
        try {
          this.advance(await readModelPosition(this.pool));
        } catch {
          // database away: the waiters time out and the command still answers
        }
        if (this.waiters.size > 0) this.ensurePolling();
      },
      this.client ? 100 : 10,
    );
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    try {
      const client = await this.pool.connect();
      client.on('notification', (msg) => {
        const handlers = this.signals.get(msg.channel);
        if (handlers) {
          for (const handler of handlers) handler(msg.payload ?? '');
          return;
        }
        if (msg.channel !== CHANGES_CHANNEL || !msg.payload) return;
        const notice = decodeChangeNotice(msg.payload);
        if (notice) this.publish(notice);
      });
      client.on('error', (error) => {
        if (this.client !== client) return;
        this.client = null;
        client.release(error);
        this.logger.warn('change feed connection lost; reconnecting', { error: error.message });
        this.scheduleReconnect();
      });
      await client.query(`listen ${CHANGES_CHANNEL}`);
      for (const channel of this.signals.keys()) await client.query(`listen ${channel}`);
      this.client = client;
      // NOTIFY is not durable: catch up on what passed while we were away.
      this.advance(await readModelPosition(this.pool).catch(() => ZERO_POSITION));
      for (const listener of this.listeners) listener({ position: this.current, topics: [], reset: true });
    } catch (error) {
      this.logger.warn('change feed cannot listen yet; retrying', { error: (error as Error).message });
      this.scheduleReconnect();
    }
  }

  private scheduleReconnect(): void {
    if (this.closed || this.reconnectTimer) return;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      void this.connect();
    }, 1000);
    this.reconnectTimer.unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.pollTimer) clearTimeout(this.pollTimer);
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.waiters.releaseAll();
    const client = this.client;
    this.client = null;
    if (client) {
      await client.query(`unlisten ${CHANGES_CHANNEL}`).catch(() => {});
      client.release();
    }
  }
}
