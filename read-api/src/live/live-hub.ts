import type { Actor } from '@bugtrail/domain';
import { isPosition } from '@bugtrail/eventstore';
import { AI_DRAFTS_CHANNEL, type Logger, type ReadModelFeed, ZERO_POSITION } from '@bugtrail/platform';
import type pg from 'pg';
import { type TopicFilterRegistry, topicFilters } from './topic-filters.js';
import { parseTopic, type Topic } from './topics.js';

/**
 * Fan-out of the projector's changes to live subscribers, one hub per read-api
 * instance. NOTIFY (and the in-process projector's publish) only ring the bell: the
 * hub then reads `projector.changes` after the last position it delivered. One
 * query per batch serves every subscriber, chunked notices need no reassembly, a
 * notice heard twice (in-process and through LISTEN) is read once, and whatever
 * passed while the listening connection was down is read at the next ring, which
 * the change feed sends when it reconnects.
 */

/** Where a subscriber's bytes go: the body of one HTTP response. */
export interface LiveSink {
  /** Queues bytes for the client; answers how many bytes now wait unsent. */
  write(bytes: Uint8Array): number;
  /** Resolves once the client has taken what was queued (or the stream is gone). */
  drained(): Promise<void>;
  /** Ends the response: gracefully (the client reconnects), or by cutting the connection. */
  end(mode: 'graceful' | 'cut'): void;
}

export type SubscribeOptions = Readonly<{
  /** The client's `Last-Event-ID`, when it resumes. */
  lastEventId: string | null;
  /**
   * Still allowed to listen, with the rights the stream was opened with? Asked at every
   * heartbeat (a revoked token ends the stream), on a revocation notice, and when a change to
   * who sees what passes (a lost project membership: `TopicFilterRegistry.changesRights`).
   * `round` names that change: answers within one round may share their lookups.
   */
  isStillAuthorized?: (round?: string) => Promise<boolean>;
  /** Called once when the subscription ends, however it ends. */
  onClose?: () => void;
}>;

export type LiveHubOptions = Readonly<{
  filters?: TopicFilterRegistry;
  heartbeatMs?: number;
  /** A subscriber whose unsent bytes pass this is cut; it resumes with Last-Event-ID. */
  maxQueuedBytes?: number;
  /** Live rows held for a subscriber while its backlog is replayed. */
  maxRowsBufferedWhileReplaying?: number;
  pageSize?: number;
}>;

type ChangeRow = Readonly<{
  position: string;
  topics: readonly Topic[];
  /** Encoded SSE text by visible subset of topics (indexes), made as subscribers need it. */
  frames: Map<string, Uint8Array>;
}>;

const encoder = new TextEncoder();
const HEARTBEAT = encoder.encode(': heartbeat\n\n');

/** One SSE message per topic kind; only the row's last message carries the id, so a
 * connection cut inside a row resumes before it rather than after it. */
export function formatRow(position: string, names: readonly { kind: string; name: string }[]): string {
  const byKind = new Map<string, string[]>();
  for (const { kind, name } of names) {
    const list = byKind.get(kind);
    if (!list) byKind.set(kind, [name]);
    else if (!list.includes(name)) list.push(name);
  }
  let out = '';
  let left = byKind.size;
  for (const [kind, topics] of byKind) {
    left -= 1;
    out += `event: ${kind}\ndata: ${JSON.stringify({ topics, position })}\n${left === 0 ? `id: ${position}\n` : ''}\n`;
  }
  return out;
}

/** Sent to every stream when the server shuts down: reconnect after a second. */
const RECHECK_FRAME = new TextEncoder().encode(': your access changed; reconnect\nretry: 1000\n\n');
const SHUTDOWN_FRAME = new TextEncoder().encode(': the server is shutting down; reconnect\nretry: 1000\n\n');

export function formatControl(event: 'ready' | 'reset', position: string): string {
  return `event: ${event}\ndata: ${JSON.stringify({ topics: [], position })}\nid: ${position}\n\n`;
}

class Subscriber {
  /** `rechecking`: held like `replaying` while its rights are asked again; nothing is sent meanwhile. */
  state: 'replaying' | 'rechecking' | 'live' | 'closed' = 'replaying';
  /** The last row position this subscriber has been handed (sent or deliberately skipped). */
  cursor = ZERO_POSITION;
  replayBuffer: ChangeRow[] = [];
  /** A change to who sees what passed while this stream was replaying: its rights are asked once it is live. */
  rightsChangedAt: string | null = null;

  constructor(
    readonly actor: Actor,
    private readonly sink: LiveSink,
    private readonly hub: LiveHub,
    readonly options: SubscribeOptions,
    private readonly limits: { maxQueuedBytes: number; maxRowsBufferedWhileReplaying: number },
  ) {}

  offer(row: ChangeRow): void {
    if (this.state === 'closed') return;
    if (this.state === 'replaying' || this.state === 'rechecking') {
      this.replayBuffer.push(row);
      if (this.replayBuffer.length > this.limits.maxRowsBufferedWhileReplaying) this.close('cut');
      return;
    }
    if (row.position <= this.cursor) return;
    this.cursor = row.position;
    const frame = this.hub.frameFor(this.actor, row);
    if (frame) this.enqueue(frame);
  }

  enqueue(bytes: Uint8Array): void {
    if (this.state === 'closed') return;
    // A client that cannot keep up is cut rather than allowed to hold memory or
    // anyone else back; it comes back with Last-Event-ID and replays from the table.
    if (this.sink.write(bytes) > this.limits.maxQueuedBytes) this.close('cut');
  }

  /** Writes the backlog at the client's pace, before the subscriber goes live. */
  async replay(bytes: Uint8Array): Promise<void> {
    if (this.state === 'closed') return;
    if (this.sink.write(bytes) > this.limits.maxQueuedBytes / 2) await this.sink.drained();
  }

  close(mode: 'graceful' | 'cut' | 'by-client'): void {
    if (this.state === 'closed') return;
    this.state = 'closed';
    this.replayBuffer = [];
    this.hub.forget(this);
    if (mode !== 'by-client') this.sink.end(mode);
    this.options.onClose?.();
  }
}

export type Subscription = Readonly<{ close(): void }>;

export class LiveHub {
  private readonly filters: TopicFilterRegistry;
  private readonly heartbeatMs: number;
  private readonly limits: { maxQueuedBytes: number; maxRowsBufferedWhileReplaying: number };
  private readonly pageSize: number;
  private readonly subscribers = new Set<Subscriber>();
  private readonly perUser = new Map<string, number>();
  /** Every row at or before this position has been offered to every subscriber. */
  private last = ZERO_POSITION;
  private starting: Promise<void> | null = null;
  private isStarted = false;
  private isClosed = false;
  private isDirty = false;
  private isDraining = false;
  private retryTimer: NodeJS.Timeout | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  private readonly unlisten: () => void;
  private readonly unlistenDrafts: () => void;
  /** Drafts announced and not yet read (a burst of notices for one answer is read once). */
  private readonly draftsDue = new Set<string>();
  private isReadingDrafts = false;

  constructor(
    private readonly pool: pg.Pool,
    changeFeed: ReadModelFeed,
    private readonly logger: Logger,
    options: LiveHubOptions = {},
  ) {
    this.filters = options.filters ?? topicFilters;
    this.heartbeatMs = options.heartbeatMs ?? 15_000;
    this.pageSize = options.pageSize ?? 1000;
    this.limits = {
      maxQueuedBytes: options.maxQueuedBytes ?? 256 * 1024,
      maxRowsBufferedWhileReplaying: options.maxRowsBufferedWhileReplaying ?? 10_000,
    };
    this.unlisten = changeFeed.onChange(() => this.ring());
    this.unlistenDrafts = changeFeed.onSignal(AI_DRAFTS_CHANNEL, (messageId) => this.draftChanged(messageId));
  }

  /**
   * An AI answer's text so far changed (api.md "The AI assistant"): `event: ai-draft` to the
   * chat's members who listen now. Drafts are not changes: no id, no replay; whoever
   * connects later gets the finished message through the chat's topic.
   */
  private draftChanged(messageId: string): void {
    if (!messageId || this.isClosed || this.subscribers.size === 0) return;
    this.draftsDue.add(messageId);
    if (!this.isReadingDrafts) void this.readDrafts();
  }

  private async readDrafts(): Promise<void> {
    this.isReadingDrafts = true;
    try {
      while (this.draftsDue.size > 0 && !this.isClosed) {
        const ids = [...this.draftsDue];
        this.draftsDue.clear();
        const { rows } = await this.pool.query<{
          message_id: string;
          chat_id: string;
          audience: string[];
          content: string;
        }>('select message_id, chat_id, audience, content from projector.ai_drafts where message_id = any($1)', [ids]);
        for (const row of rows) {
          const audience = new Set(row.audience);
          const frame = encoder.encode(
            `event: ai-draft\ndata: ${JSON.stringify({ chatId: row.chat_id, messageId: row.message_id, content: row.content })}\n\n`,
          );
          for (const subscriber of this.subscribers) {
            if (subscriber.state === 'live' && audience.has(subscriber.actor.id)) subscriber.enqueue(frame);
          }
        }
      }
    } catch (error) {
      this.logger.warn('live updates cannot read an AI draft', { error: (error as Error).message });
    } finally {
      this.isReadingDrafts = false;
    }
  }

  get position(): string {
    return this.last;
  }

  get subscriberCount(): number {
    return this.subscribers.size;
  }

  /** Learns where the table ends; idempotent, and retried by the next caller after a failure. */
  start(): Promise<void> {
    this.starting ??= (async () => {
      const { rows } = await this.pool.query<{ position: string | null }>(
        'select max(position) as position from projector.changes',
      );
      if (!this.isStarted) {
        this.last = rows[0]?.position ?? ZERO_POSITION;
        this.isStarted = true;
        this.heartbeat = setInterval(() => this.beat(), this.heartbeatMs);
        this.heartbeat.unref();
      }
      // Rings heard before the start were ignored: read whatever they announced.
      this.ring();
    })().catch((error: unknown) => {
      this.starting = null;
      throw error;
    });
    return this.starting;
  }

  /** Takes one of the user's connection slots; null when they are all taken. */
  reserve(userId: string, limit: number): (() => void) | null {
    const used = this.perUser.get(userId) ?? 0;
    if (used >= limit) return null;
    this.perUser.set(userId, used + 1);
    let isReleased = false;
    return () => {
      if (isReleased) return;
      isReleased = true;
      const now = (this.perUser.get(userId) ?? 1) - 1;
      if (now <= 0) this.perUser.delete(userId);
      else this.perUser.set(userId, now);
    };
  }

  /**
   * Registers a subscriber (after start()), replays what it missed since `lastEventId` (or tells it
   * to reset), then turns it live. Live rows that arrive during the replay are held
   * and afterwards only those past the replay are sent: no gap, no duplicate.
   */
  subscribe(actor: Actor, sink: LiveSink, options: SubscribeOptions): Subscription {
    if (!this.isStarted) throw new Error('LiveHub.subscribe before start()');
    if (this.isDirty) this.ring();
    const subscriber = new Subscriber(actor, sink, this, options, this.limits);
    if (this.isClosed) subscriber.close('graceful');
    else {
      this.subscribers.add(subscriber);
      void this.catchUp(subscriber, options.lastEventId);
    }
    return { close: () => subscriber.close('by-client') };
  }

  private async catchUp(subscriber: Subscriber, from: string | null): Promise<void> {
    try {
      if (from === null) return this.goLive(subscriber, this.last, null);
      if (!(await this.canResumeFrom(from))) return this.goLive(subscriber, this.last, 'reset');
      let cursor = from;
      for (;;) {
        const rows = await this.readRows(cursor);
        if (subscriber.state === 'closed') return;
        for (const row of rows) {
          if (this.changesRights(row)) subscriber.rightsChangedAt = row.position;
          const frame = this.frameFor(subscriber.actor, row);
          if (frame) await subscriber.replay(frame);
        }
        cursor = rows.at(-1)?.position ?? cursor;
        if (rows.length < this.pageSize) break;
      }
      this.goLive(subscriber, cursor, null);
    } catch (error) {
      this.logger.warn('live replay failed; the client will resume', { error: (error as Error).message });
      subscriber.close('cut');
    }
  }

  private goLive(subscriber: Subscriber, cursor: string, control: 'reset' | null): void {
    if (subscriber.state === 'closed') return;
    const held = subscriber.replayBuffer;
    subscriber.replayBuffer = [];
    subscriber.cursor = cursor;
    subscriber.state = 'live';
    if (control) subscriber.enqueue(encoder.encode(formatControl(control, cursor)));
    subscriber.enqueue(encoder.encode(formatControl('ready', cursor)));
    for (const row of held) {
      if (this.changesRights(row)) subscriber.rightsChangedAt = row.position;
      subscriber.offer(row);
    }
    // Rights changed while it was replaying (its rights were read before): asked now, as the others were.
    const round = subscriber.rightsChangedAt;
    subscriber.rightsChangedAt = null;
    if (round !== null) this.askRights(subscriber, round);
  }

  private changesRights(row: ChangeRow): boolean {
    return row.topics.some((topic) => this.filters.changesRights(topic));
  }

  /**
   * A resume is exact only when no row after `from` was trimmed away, i.e. the oldest
   * kept row is not after it; and only for a position of this history (a token from
   * ahead of every checkpoint belongs to another database).
   */
  private async canResumeFrom(from: string): Promise<boolean> {
    if (!isPosition(from)) return false;
    const { rows } = await this.pool.query<{ oldest: string | null; head: string | null }>(
      `select (select min(position) from projector.changes) as oldest,
              (select max(position) from projector.checkpoints) as head`,
    );
    const { oldest = null, head = null } = rows[0] ?? {};
    if (head === null || from > head) return false;
    return oldest === null || oldest <= from;
  }

  private async readRows(after: string): Promise<ChangeRow[]> {
    const { rows } = await this.pool.query<{ position: string; topics: string[] }>(
      'select position, topics from projector.changes where position > $1 order by position limit $2',
      [after, this.pageSize],
    );
    return rows.map((row) => ({ position: row.position, topics: row.topics.map(parseTopic), frames: new Map() }));
  }

  /**
   * What this actor may hear of a row, as SSE text; null when nothing. Most
   * subscribers of a row see the same subset, so the text is made once per subset.
   */
  frameFor(actor: Actor, row: ChangeRow): Uint8Array | null {
    let subset = '';
    for (let i = 0; i < row.topics.length; i++) if (this.filters.canSee(actor, row.topics[i]!)) subset += `${i},`;
    if (subset === '') return null;
    let frame = row.frames.get(subset);
    if (frame === undefined) {
      frame = encoder.encode(
        formatRow(
          row.position,
          subset
            .slice(0, -1)
            .split(',')
            .map((i) => row.topics[Number(i)]!),
        ),
      );
      row.frames.set(subset, frame);
    }
    return frame;
  }

  forget(subscriber: Subscriber): void {
    this.subscribers.delete(subscriber);
  }

  /** Something changed (or may have while we were not listening): read past `last`. */
  private ring(): void {
    if (!this.isStarted || this.isClosed) return;
    this.isDirty = true;
    if (!this.isDraining) void this.drain();
  }

  private async drain(): Promise<void> {
    // The flag drops in the same tick as the last isDirty check: a ring is never lost between them.
    this.isDraining = true;
    try {
      while (this.isDirty && !this.isClosed) {
        this.isDirty = false;
        for (;;) {
          const rows = await this.readRows(this.last);
          for (const row of rows) {
            // Set before offering: a subscriber registering now starts after this row.
            this.last = row.position;
            for (const subscriber of this.subscribers) subscriber.offer(row);
            if (this.changesRights(row)) this.recheckAll(row.position);
          }
          if (rows.length < this.pageSize) break;
        }
      }
    } catch (error) {
      this.logger.warn('live updates cannot read changes; retrying', { error: (error as Error).message });
      // Retry only while someone listens (a closed pool must not keep us busy);
      // the next subscriber rings again.
      this.isDirty = true;
      this.retryTimer ??= setTimeout(() => {
        this.retryTimer = null;
        if (this.subscribers.size > 0) this.ring();
      }, 1000);
      this.retryTimer.unref();
    } finally {
      this.isDraining = false;
    }
  }

  private beat(): void {
    if (this.subscribers.size === 0) return;
    // Also a safety net: a ring lost with a dropped notice is found within a beat.
    this.ring();
    for (const subscriber of this.subscribers) {
      if (subscriber.state !== 'live') continue;
      subscriber.enqueue(HEARTBEAT);
      this.checkAuthorized(subscriber);
    }
  }

  /** Asks each of the user's streams whether it may still listen (after a logout or a password change). */
  recheck(userId: string): void {
    for (const subscriber of this.subscribers) {
      if (subscriber.actor.id === userId) this.checkAuthorized(subscriber);
    }
  }

  /**
   * Who sees what changed (a project made private, a member removed): every live stream is
   * held (nothing more is sent to it) until its rights are asked again; then it goes on, or
   * ends for the client to reconnect with what it may hear now.
   */
  private recheckAll(round: string): void {
    for (const subscriber of this.subscribers) {
      if (subscriber.state === 'replaying') subscriber.rightsChangedAt = round;
      else this.askRights(subscriber, round);
    }
  }

  private askRights(subscriber: Subscriber, round: string): void {
    const check = subscriber.options.isStillAuthorized;
    if (subscriber.state !== 'live' || !check) return;
    subscriber.state = 'rechecking';
    void check(round)
      .catch(() => false)
      .then((isAuthorized) => {
        if (subscriber.state !== 'rechecking') return;
        if (!isAuthorized) {
          subscriber.state = 'live';
          subscriber.enqueue(RECHECK_FRAME);
          subscriber.close('graceful');
          return;
        }
        const held = subscriber.replayBuffer;
        subscriber.replayBuffer = [];
        subscriber.state = 'live';
        for (const row of held) subscriber.offer(row);
      });
  }

  private checkAuthorized(subscriber: Subscriber): void {
    const check = subscriber.options.isStillAuthorized;
    if (!check) return;
    void check()
      .catch(() => false)
      .then((isAuthorized) => {
        if (isAuthorized) return;
        // Reconnect soon: with the user's current rights, or to hear the 401 of a revoked credential.
        subscriber.enqueue(RECHECK_FRAME);
        subscriber.close('graceful');
      });
  }

  /** Ends every stream gracefully (clients reconnect elsewhere) and stops listening. */
  close(): void {
    if (this.isClosed) return;
    this.isClosed = true;
    this.unlisten();
    this.unlistenDrafts();
    if (this.heartbeat) clearInterval(this.heartbeat);
    if (this.retryTimer) clearTimeout(this.retryTimer);
    for (const subscriber of [...this.subscribers]) {
      // The reconnect hint: come back soon (EventSource obeys `retry:`), to another replica.
      subscriber.enqueue(SHUTDOWN_FRAME);
      subscriber.close('graceful');
    }
  }
}
