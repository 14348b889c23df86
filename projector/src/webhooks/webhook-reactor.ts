import { randomUUID } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import {
  streams,
  subscribesTo,
  WEBHOOK_WAKE_CHANNEL,
  webhookDecider,
  webhookLimits,
  webhookTypeOf,
} from '@bugtrail/domain';
import type { CommandHandler, EventStore, RecordedEvent } from '@bugtrail/eventstore';
import {
  AddressPolicy,
  type ChangeFeed,
  type DnsLookup,
  hostOf,
  type Logger,
  systemLookup,
  type WebhookConfig,
} from '@bugtrail/platform';
import type pg from 'pg';
import { Webhook } from 'standardwebhooks';
import { LeaderLoop } from '../runtime/leader-loop.js';
import {
  reactorPosition,
  savePositionSql,
  saveReactorPosition,
  startAtHeadOnFirstRun,
} from '../runtime/reactor-checkpoint.js';
import { webhookMessages } from './webhook-payloads.js';

const LEADER_LOCK = 7310080;
const REACTOR = 'webhooks';
/** Messages sent at once, to different webhooks or bugs (one bug's go one after another). */
const PARALLEL = 32;
/** Free places before the next fetch of due messages. */
const REFETCH_AT = PARALLEL / 4;
/** The longest the delivery loop sleeps when nothing is due (a wake-up cuts it short). */
const IDLE_MS = 1000;
/** Delivered and failed messages are kept this long (their bodies serve redeliveries), then swept. */
const KEEP_DAYS = 7;
/** At most this long between checkpoints while batches queue nothing (a replay of them queues nothing). */
const CHECKPOINT_EVERY_MS = 5000;

export type WebhookReactorOptions = {
  logger: Logger;
  config: WebhookConfig;
  /** Hears the wake-up NOTIFY (ping, redeliver, a webhook switched on). */
  changeFeed?: ChangeFeed;
  /** The product's DNS lookup; tests put a stub in (never /etc/hosts). */
  lookup?: DnsLookup;
  batchSize?: number;
};

type Due = {
  id: string;
  webhook_id: string;
  message_id: string;
  kind: 'event' | 'ping' | 'redelivery';
  type: string;
  payload: string;
  attempt: number;
  url: string;
  secret: string;
};

type Outcome = { status: number | null; error: string | null; response: string; durationMs: number };

/** A delivery ends with a 2xx (api.md); anything else, or no answer, is a failed attempt. */
const isSuccess = (status: number | null) => status !== null && status >= 200 && status < 300;

/**
 * Outgoing webhooks (api.md "Integrations"): a reactor on the event log with its own
 * checkpoint, like the projector, run by one leader at a time beside it.
 *
 * - Queueing: each batch of events becomes one outbox row per (subscribed active webhook,
 *   event), its body built then, in the same transaction that moves the checkpoint; a row
 *   for an event is unique per webhook. So a restart, a crash or a second process neither
 *   loses an event nor queues it twice. Webhooks hear only events recorded after they exist,
 *   so a batch that queues nothing would queue nothing when read again: its position is kept
 *   at most every 5 s.
 * - Sending: per webhook and bug, only the oldest waiting message goes (in order per bug);
 *   a row stays pending until a 2xx is recorded, so a crash mid-delivery sends it again after
 *   the restart with the same `webhook-id` (at least once). Anything but a 2xx within 10 s is
 *   retried after WEBHOOK_RETRY_BASE_MS × 2^(attempt-1), 8 attempts in all; then the event
 *   counts as failed, and WEBHOOK_DISABLE_AFTER failed events in a row switch the webhook
 *   off with a `WebhookDisabled` event (admins are notified). Pings and redeliveries go once.
 * - Safety: only public addresses (AddressPolicy), checked on the very addresses the socket
 *   connects to after DNS; no redirect is followed; at most 1 kB of an answer is kept.
 */
export class WebhookReactor {
  private readonly leader: LeaderLoop;
  private readonly store: EventStore;
  private readonly policy: AddressPolicy;
  private readonly lookup: DnsLookup;
  private subscription: { close(): Promise<void> } | null = null;
  private wakeDelivery: (() => void) | null = null;
  private readonly unlisten: () => void;
  private lastSweep = 0;
  /** When the checkpoint was last moved (see `queue`). */
  private savedAt = 0;

  constructor(
    private readonly commands: CommandHandler,
    private readonly pool: pg.Pool,
    private readonly options: WebhookReactorOptions,
  ) {
    this.store = commands.store;
    this.policy = new AddressPolicy(options.config.allowHosts);
    this.lookup = options.lookup ?? systemLookup;
    this.unlisten = options.changeFeed?.onSignal(WEBHOOK_WAKE_CHANNEL, () => this.wake()) ?? (() => {});
    this.leader = new LeaderLoop(
      pool,
      LEADER_LOCK,
      'webhook reactor',
      options.logger,
      () => this.lead(),
      () => this.interrupt(),
    );
  }

  /** On the very first start, begin at the store's head: webhooks hear only what happens after. */
  async prepare(): Promise<void> {
    await startAtHeadOnFirstRun(this.store, this.pool, REACTOR);
  }

  start(): void {
    this.leader.start();
  }

  async stop(): Promise<void> {
    this.unlisten();
    await this.leader.stop(() => this.interrupt());
    for (const agent of this.agents.values()) agent.destroy();
    this.agents.clear();
  }

  /** Set by every wake-up, so one that comes while the sender is busy is not lost. */
  private woken = false;

  private wake(): void {
    this.woken = true;
    this.wakeDelivery?.();
  }

  /** Ends the queueing half's wait for events and the sending half's wait for work. */
  private interrupt(): void {
    void this.subscription?.close();
    this.wake();
  }

  /**
   * One term of leadership: queueing and sending run side by side and end together. If
   * either fails, the other is told to stop and awaited, so no sender of an older term is
   * still at work when the next term starts (it would send the same messages again).
   */
  private async lead(): Promise<void> {
    const term = { ended: false };
    const endTerm = () => {
      term.ended = true;
      this.interrupt();
    };
    const results = await Promise.allSettled([
      this.follow(term).finally(endTerm),
      this.deliverWhileLeading(term).finally(endTerm),
    ]);
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
  }

  private async follow(term: { ended: boolean }): Promise<void> {
    const from = await reactorPosition(this.pool, REACTOR);
    if (!this.leader.isLeading || term.ended || !from) return;
    const subscription = this.store.subscribe(from, {
      batchSize: this.options.batchSize ?? 500,
    });
    this.subscription = subscription;
    try {
      for await (const batch of subscription) {
        if (!this.leader.isLeading || term.ended) break;
        await this.queue(batch);
      }
    } finally {
      await subscription.close();
      this.subscription = null;
    }
  }

  /** Queues a batch's messages and moves the checkpoint past it, in one transaction. */
  async queue(batch: readonly RecordedEvent[]): Promise<number> {
    const last = batch[batch.length - 1];
    if (!last) return 0;
    const typed = batch.filter((e) => webhookTypeOf(e.type));
    const { rows: subscriptions } =
      typed.length === 0
        ? { rows: [] }
        : await this.pool.query<{ id: string; events: string[]; projects: string[] | null; created_at: Date }>(
            'select id, events, projects, created_at from webhooks.subscriptions where active',
          );
    // A webhook with a `projects` filter hears only those projects' bugs (issue 35).
    const projectsOf = new Map(subscriptions.map((s) => [s.id, s.projects]));
    const hears = (webhookId: string, projectId: string) => {
      const projects = projectsOf.get(webhookId);
      return !projects || projects.includes(projectId);
    };
    // Each event's listeners: the webhooks that want its type and existed when it was recorded.
    const listeners = new Map<string, { event: RecordedEvent; webhookIds: string[] }>();
    for (const event of typed) {
      const webhookIds = subscriptions
        .filter((s) => subscribesTo(s.events, webhookTypeOf(event.type)!) && event.recordedAt >= s.created_at)
        .map((s) => s.id);
      if (webhookIds.length > 0) listeners.set(event.id, { event, webhookIds });
    }
    const wanted = [...listeners.values()].map(({ event }) => event);
    const messages = await webhookMessages(wanted, batch, this.store, this.pool);
    const rows = messages.flatMap((message) => {
      const { event, webhookIds } = listeners.get(message.eventId)!;
      return webhookIds
        .filter((id) => hears(id, message.projectId))
        .map((id) => [id, message.eventId, message.type, message.bugId, event.position, message.body]);
    });
    // The messages and the checkpoint past them in one statement, atomic on its own: a
    // transaction around two took four round trips at every batch, a message or none.
    if (rows.length === 0) {
      // Nothing queued: reading these events again after a crash queues nothing either (a
      // webhook hears only events recorded after it existed), so the checkpoint is kept at
      // most every few seconds, not a round trip at every batch.
      if (Date.now() - this.savedAt >= CHECKPOINT_EVERY_MS) {
        await saveReactorPosition(this.pool, REACTOR, last.position);
        this.savedAt = Date.now();
      }
    } else {
      await this.pool.query(
        // Only for webhooks still there and on (one deleted meanwhile gets nothing).
        `with queued as (
           insert into webhooks.outbox (webhook_id, message_id, kind, type, bug_id, position, payload)
           select w, m, 'event', t, b, p, body
           from unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[]) as x(w, m, t, b, p, body)
           join webhooks.subscriptions s on s.id = x.w and s.active
           on conflict (webhook_id, message_id) where kind = 'event' do nothing
         )
         ${savePositionSql(7, 8)}`,
        [...[0, 1, 2, 3, 4, 5].map((i) => rows.map((row) => row[i])), REACTOR, last.position],
      );
      this.savedAt = Date.now();
      this.wake();
    }
    return rows.length;
  }

  /**
   * Sends continuously: up to PARALLEL messages at once; whenever one ends (or new messages
   * are queued) the next due heads are fetched, leaving out those still on their way. A bug's
   * next message is not a head until the one before it is recorded, so order per bug holds;
   * the term ends only after every message on its way is recorded.
   */
  private async deliverWhileLeading(term: { ended: boolean }): Promise<void> {
    const onTheirWay = new Map<string, Promise<void>>();
    try {
      while (this.leader.isLeading && !term.ended) {
        this.woken = false;
        let started = 0;
        const room = PARALLEL - onTheirWay.size;
        // Fetched when a quarter of the places is free (or all): one query per few messages, not each.
        if (room >= REFETCH_AT || onTheirWay.size === 0) {
          try {
            for (const row of await this.dueHeads(room, [...onTheirWay.keys()])) {
              started += 1;
              const sending = this.deliverLogged(row).finally(() => {
                onTheirWay.delete(row.id);
                this.wake();
              });
              onTheirWay.set(row.id, sending);
            }
            await this.sweepOccasionally();
          } catch (error) {
            this.options.logger.warn('webhook reactor: could not read what is due; trying again', {
              error: (error as Error).message,
            });
          }
        }
        // More may be due at once (the fetch filled every free place): fetch again without waiting.
        if (started > 0 && started === room) continue;
        if (this.woken) continue;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, IDLE_MS);
          timer.unref();
          this.wakeDelivery = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        this.wakeDelivery = null;
      }
    } finally {
      await Promise.allSettled(onTheirWay.values());
    }
  }

  /** The oldest waiting message per webhook and bug that is due now, but those on their way. */
  private async dueHeads(limit: number, onTheirWay: readonly string[]): Promise<Due[]> {
    const { rows } = await this.pool.query<Due>(
      `with heads as (
         select distinct on (o.webhook_id, coalesce(o.bug_id, o.id::text)) o.*
         from webhooks.outbox o
         where o.state = 'pending'
         order by o.webhook_id, coalesce(o.bug_id, o.id::text), o.position nulls first, o.id
       )
       select h.id, h.webhook_id, h.message_id, h.kind, h.type, h.payload, h.attempt, s.url, s.secret
       from heads h join webhooks.subscriptions s on s.id = h.webhook_id
       where h.next_at <= now() and (s.active or h.kind <> 'event') and h.id <> all($2::bigint[])
       order by h.next_at, h.id
       limit $1`,
      [limit, onTheirWay],
    );
    return rows;
  }

  /** One message, its outcome recorded; a failure to record is logged (the message goes again). */
  private async deliverLogged(row: Due): Promise<void> {
    try {
      await this.deliver(row);
    } catch (error) {
      this.options.logger.warn('webhook reactor: could not record a delivery; it goes again', {
        webhookId: row.webhook_id,
        error: (error as Error).message,
      });
    }
  }

  private async deliver(row: Due): Promise<void> {
    const attempt = row.attempt + 1;
    const outcome = await this.send(row);
    const ok = isSuccess(outcome.status);
    // Pings and redeliveries are tried once: the log tells the admin how it went.
    const gaveUp = !ok && (row.kind !== 'event' || attempt >= webhookLimits.attempts);
    const state = ok ? 'delivered' : gaveUp ? 'failed' : 'pending';
    const retryInMs = this.options.config.retryBaseMs * 2 ** (attempt - 1);
    // The attempt's log line, the message's new state and (after a 2xx) the webhook's count of
    // failures, in one statement.
    await this.pool.query(
      `with logged as (
         insert into webhooks.deliveries (id, webhook_id, outbox_id, event_id, type, attempt, status, error, duration_ms, response)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
       ), moved as (
         update webhooks.outbox set state = $11, attempt = $6,
           next_at = case when $11 = 'pending' then now() + make_interval(secs => $12::double precision / 1000) else next_at end
         where id = $3
       )
       update webhooks.subscriptions set failed_in_a_row = 0
       where $13 and id = $2 and failed_in_a_row > 0`,
      [
        randomUUID(),
        row.webhook_id,
        row.id,
        row.message_id,
        row.type,
        attempt,
        outcome.status,
        outcome.error,
        outcome.durationMs,
        outcome.response,
        state,
        retryInMs,
        ok && row.kind === 'event',
      ],
    );
    if (gaveUp && row.kind === 'event') await this.countFailedEvent(row);
  }

  /**
   * One more event whose attempts all failed; at WEBHOOK_DISABLE_AFTER in a row the webhook is
   * announced as switched off (an idempotent append: a failed one is tried again at the next
   * failed event), and only then switched off, so the admins always hear of it.
   */
  private async countFailedEvent(row: Due): Promise<void> {
    const { rows } = await this.pool.query<{ failed_in_a_row: number; url: string }>(
      `update webhooks.subscriptions set failed_in_a_row = failed_in_a_row + 1
       where id = $1 and active
       returning failed_in_a_row, url`,
      [row.webhook_id],
    );
    const counted = rows[0];
    if (!counted || counted.failed_in_a_row < this.options.config.disableAfter) return;
    this.options.logger.warn('webhook switched off: its receiver kept failing', { webhookId: row.webhook_id });
    await this.commands.handle(
      streams.webhook(row.webhook_id),
      webhookDecider,
      {
        type: 'DisableWebhook',
        data: { webhookId: row.webhook_id, url: counted.url, failedEvents: counted.failed_in_a_row },
        metadata: { actor: null, now: new Date().toISOString() },
      },
      {
        actor: null,
        correlationId: randomUUID(),
        // Per failed message: a webhook switched on again and failing again is announced again.
        idempotencyKey: `webhook-disabled:${row.webhook_id}:${row.id}`,
      },
      { retryOnConflict: true },
    );
    await this.pool.query('update webhooks.subscriptions set active = false where id = $1', [row.webhook_id]);
  }

  /** Kept-alive connections per receiver origin (few: webhooks are at most 100). */
  private readonly agents = new Map<string, http.Agent>();

  private agentFor(url: URL): http.Agent {
    let agent = this.agents.get(url.origin);
    if (!agent) {
      const options = { keepAlive: true, maxSockets: PARALLEL, timeout: webhookLimits.timeoutMs };
      agent = url.protocol === 'https:' ? new https.Agent(options) : new http.Agent(options);
      this.agents.set(url.origin, agent);
    }
    return agent;
  }

  /** One POST, signed as Standard Webhooks says; never throws (the outcome says what went wrong). */
  async send(row: Pick<Due, 'url' | 'secret' | 'message_id' | 'payload'>): Promise<Outcome> {
    const started = performance.now();
    const done = (status: number | null, error: string | null, response = ''): Outcome => ({
      status,
      error,
      response,
      durationMs: Math.round(performance.now() - started),
    });
    let url: URL;
    try {
      url = new URL(row.url);
      // A literal address never reaches a DNS lookup: judge it here; names are judged on connect.
      this.policy.checkLiteral(url);
    } catch (error) {
      return done(null, (error as Error).message);
    }
    const timestamp = new Date();
    const signature = new Webhook(row.secret).sign(row.message_id, timestamp, row.payload);
    const body = Buffer.from(row.payload);
    const client = url.protocol === 'https:' ? https : http;
    return new Promise<Outcome>((resolve) => {
      let settled = false;
      const finish = (outcome: Outcome) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(outcome);
      };
      const request = client.request(
        url,
        {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'content-length': body.byteLength,
            'user-agent': 'Bugtrail-Webhooks/1',
            'webhook-id': row.message_id,
            'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
            'webhook-signature': signature,
          },
          // Each new connection is checked on the address it connects to; a kept-alive one was.
          lookup: this.policy.connectLookup(this.lookup, hostOf(url)) as never,
          agent: this.agentFor(url),
        },
        (response) => {
          const chunks: Buffer[] = [];
          let kept = 0;
          response.on('data', (chunk: Buffer) => {
            if (kept < webhookLimits.responseBytesKept) {
              chunks.push(chunk.subarray(0, webhookLimits.responseBytesKept - kept));
              kept += Math.min(chunk.byteLength, webhookLimits.responseBytesKept - kept);
            }
            if (kept >= webhookLimits.responseBytesKept) response.destroy();
          });
          const end = () => {
            const status = response.statusCode ?? null;
            // Kept as text: PostgreSQL refuses NUL in text, so a receiver's NULs are dropped.
            const text = Buffer.concat(chunks).toString('utf8').replaceAll('\u0000', '');
            finish(
              done(
                status,
                isSuccess(status)
                  ? null
                  : `HTTP ${status}${status && status >= 300 && status < 400 ? ' (redirects are not followed)' : ''}`,
                text,
              ),
            );
          };
          response.on('end', end);
          response.on('close', end);
          response.on('error', end);
        },
      );
      const timer = setTimeout(() => {
        request.destroy(new Error(`no answer within ${webhookLimits.timeoutMs / 1000} s`));
      }, webhookLimits.timeoutMs);
      timer.unref();
      request.on('error', (error) => finish(done(null, error.message)));
      request.end(body);
    });
  }

  private async sweepOccasionally(): Promise<void> {
    if (Date.now() - this.lastSweep < 60 * 60 * 1000) return;
    this.lastSweep = Date.now();
    await this.pool.query(
      `delete from webhooks.outbox o where (state <> 'pending' and created_at < now() - make_interval(days => $1))
         or not exists (select 1 from webhooks.subscriptions s where s.id = o.webhook_id)`,
      [KEEP_DAYS],
    );
    await this.pool.query(`delete from webhooks.deliveries where at < now() - make_interval(days => $1)`, [KEEP_DAYS]);
  }
}
