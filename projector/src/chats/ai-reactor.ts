import {
  type ChatState,
  chatDecider,
  chatEventTypes,
  type EventOf,
  eventsOf,
  streams,
  timelineDecider,
} from '@bugtrail/domain';
import { type CommandHandler, deriveEventId, type EventStore, type RecordedEvent, START } from '@bugtrail/eventstore';
import {
  AI_DRAFTS_CHANNEL,
  AI_STOP_CHANNEL,
  type AiConfig,
  aiModelCatalog,
  type ChangeFeed,
  type Logger,
} from '@bugtrail/platform';
import { type Kysely, type Migration, sql } from 'kysely';
import type pg from 'pg';
import { LeaderLoop } from '../runtime/leader-loop.js';
import { saveReactorPosition, startAtHeadOnFirstRun } from '../runtime/reactor-checkpoint.js';
import { type AiAnswer, AiAssistant, type AnswerInput } from './ai/assistant.js';
import { AiProviders } from './ai/providers.js';

/**
 * Writes the answer to one human message (streaming drafts through `onDraft`), or null to
 * stay silent: the assistant over the configured providers.
 */
export type AiResponder = (input: AnswerInput) => Promise<AiAnswer | null>;

/** How many chats' answers are written at once (one at a time within a chat, in order). */
const PARALLEL_CHATS = 4;

const REACTOR = 'chat-ai-assistant';
/** How often the position is kept while the batches hold nothing for the assistant. */
const CHECKPOINT_EVERY_MS = 5000;
const LEADER_LOCK = 7310020;

/** Reactors keep their own checkpoints: read-your-writes must never wait on an AI reply. */
export const chatAiReactorMigrations: Record<string, Migration> = {
  '0610_projector_reactors': {
    async up(db: Kysely<unknown>) {
      await sql`create schema if not exists projector`.execute(db);
      await sql`create table projector.reactors (
        name text primary key,
        position text not null,
        updated_at timestamptz not null default now()
      )`.execute(db);
    },
  },
  '0611_ai_usage_and_drafts': {
    async up(db: Kysely<unknown>) {
      // Tokens each person's questions used, per UTC day (AI_DAILY_TOKENS_PER_USER).
      await sql`create table projector.ai_usage (
        user_id text not null,
        day date not null,
        tokens bigint not null,
        primary key (user_id, day)
      )`.execute(db);
      // An answer's text while it is written, for the members' live streams (NOTIFY names the row).
      await sql`create table projector.ai_drafts (
        message_id text primary key,
        chat_id text not null,
        audience text[] not null,
        content text not null,
        updated_at timestamptz not null default now()
      )`.execute(db);
    },
  },
};

export type ChatAiReactorOptions = {
  logger: Logger;
  /**
   * Default: the assistant over `ai`'s providers when one is configured, else none: the
   * reactor stays off and no message gets an answer (the chat and its settings say once
   * that no provider is set up, `GET /api/chats/ai-models` → `configured: false`).
   */
  responder?: AiResponder | null;
  /** The providers and limits (platform config); none: no answers. */
  ai?: AiConfig;
  /** Hears Stop (AI_STOP_CHANNEL); without it Stop does nothing. */
  changeFeed?: ChangeFeed;
  batchSize?: number;
  now?: () => Date;
};

/**
 * Follows the store and answers each human message in a chat whose assistant was
 * enabled when the message arrived, through the one command handler. The reply's
 * event id derives from the message's event (the causing event), and the timeline
 * knows which messages are answered, so a replay (a lost checkpoint, two reactors at
 * once) never posts twice. It runs beside the projector, not inside a batch: a
 * model may take seconds to answer.
 */
export class ChatAiReactor {
  private readonly responder: AiResponder | null;
  private readonly providers: AiProviders | null;
  private readonly leader: LeaderLoop;
  private subscription: { close(): Promise<void> } | null = null;
  private readonly store: EventStore;
  /** Answers being written, by the id they will be posted under: Stop aborts them. */
  private readonly writing = new Map<string, AbortController>();
  private readonly unlistenStop: () => void;

  constructor(
    private readonly commands: CommandHandler,
    private readonly pool: pg.Pool,
    private readonly options: ChatAiReactorOptions,
  ) {
    this.store = commands.store;
    this.providers = options.ai ? AiProviders.fromConfig(options.ai) : null;
    if (options.responder !== undefined) this.responder = options.responder;
    else if (this.providers && options.ai) {
      const assistant = new AiAssistant(this.providers, pool, options.ai, options.logger);
      this.responder = (input) => assistant.answer(input);
    } else this.responder = null;
    this.unlistenStop = options.changeFeed?.onSignal(AI_STOP_CHANNEL, (payload) => this.onStop(payload)) ?? (() => {});
    this.leader = new LeaderLoop(
      pool,
      LEADER_LOCK,
      'AI reactor',
      options.logger,
      () => this.follow(),
      () => {
        void this.subscription?.close();
      },
    );
  }

  /**
   * On the very first start, begin at the store's head: messages from before the
   * assistant existed get no answer. Call before accepting commands.
   */
  async prepare(): Promise<void> {
    await startAtHeadOnFirstRun(this.store, this.pool, REACTOR);
  }

  start(): void {
    if (!this.responder) return;
    this.leader.start();
  }

  /**
   * What the providers serve: the chat picker's list (kept for write-api and read-api), and
   * how the spec's names map. Asked where the reactor runs, before it starts; a provider
   * that does not answer within 3 s leaves an empty list.
   */
  async loadModels(): Promise<void> {
    try {
      await this.providers?.loadModels();
      await aiModelCatalog.save(this.pool, this.providers?.listed() ?? []);
    } catch (error) {
      this.options.logger.warn('ai: the model list was not kept', { error: (error as Error).message });
    }
  }

  private async follow(): Promise<void> {
    // The lead is ours: drafts left in the table belong to answers a previous leader never finished.
    await this.pool.query('delete from projector.ai_drafts');
    const { rows } = await this.pool.query<{ position: string }>(
      'select position from projector.reactors where name = $1',
      [REACTOR],
    );
    // stop() may have run while we awaited: it found no subscription to close.
    if (!this.leader.isRunning) return;
    const subscription = this.store.subscribe(rows[0]?.position ?? START, { batchSize: this.options.batchSize ?? 500 });
    this.subscription = subscription;
    // Batches without a message are free to read again: their position is kept at most
    // every few seconds, and at once after a batch the assistant acted on.
    let savedAt = 0;
    try {
      for await (const batch of subscription) {
        if (!this.leader.isLeading) break;
        const acted = (await this.handleBatch(batch)) > 0 || batch.some((e) => e.type === 'MessageSent');
        const last = batch[batch.length - 1];
        if (last && (acted || Date.now() - savedAt >= CHECKPOINT_EVERY_MS)) {
          await saveReactorPosition(this.pool, REACTOR, last.position);
          savedAt = Date.now();
        }
      }
    } finally {
      await subscription.close();
      this.subscription = null;
    }
  }

  /** Answers the human messages of one batch. Safe to run again on the same batch. */
  async handleBatch(batch: readonly RecordedEvent[]): Promise<number> {
    if (!this.responder) return 0;
    const sent = eventsOf(batch, 'MessageSent');
    if (sent.length === 0) return 0;
    const byChat = new Map<string, SentMessage[]>();
    for (const event of sent) {
      const { chatId } = event.data;
      byChat.set(chatId, [...(byChat.get(chatId) ?? []), event]);
    }
    // A slow model in one chat does not hold the others back (a few chats at a time).
    const chats = [...byChat];
    let posted = 0;
    const worker = async () => {
      for (let next = chats.shift(); next; next = chats.shift()) posted += await this.answerChat(next[0], next[1]);
    };
    await Promise.all(Array.from({ length: Math.min(PARALLEL_CHATS, chats.length) }, worker));
    return posted;
  }

  private async answerChat(chatId: string, messages: readonly SentMessage[]): Promise<number> {
    const history = await this.store.readStream(streams.chat(chatId));
    if (fold(history).status !== 'active') return 0;
    let posted = 0;
    for (const message of messages) {
      // The chat as it was when the message arrived decides whether the assistant answers.
      const then = fold(history.filter((e) => e.position < message.position));
      if (then.status !== 'active' || !then.aiAssistant.enabled) continue;
      const { data } = message;
      const answerId = deriveEventId(message.id, 'ai-reply', 0);
      if (await this.isAnswered(chatId, data.messageId)) continue;
      const controller = new AbortController();
      this.writing.set(answerId, controller);
      let answer: AiAnswer | null;
      // Drafts are written in order, and all of them before the answer and its clean-up.
      let drafts = Promise.resolve();
      try {
        answer = await this.responder!({
          chat: then,
          message: data,
          revision: message.revision,
          answerId,
          signal: controller.signal,
          onDraft: (draft) => {
            drafts = drafts.then(() => this.publishDraft(draft, then.participants));
          },
        });
      } finally {
        this.writing.delete(answerId);
        await drafts;
      }
      if (!answer) continue;
      const handled = await this.commands.handle(
        streams.chatMessages(chatId),
        timelineDecider(then),
        {
          type: 'PostAiReply',
          data: {
            messageId: answerId,
            replyTo: data.messageId,
            content: answer.content,
            model: answer.model,
            ...(answer.stopped ? { stopped: true } : {}),
            ...(answer.failed ? { failed: true } : {}),
          },
          metadata: { actor: null, now: (this.options.now?.() ?? new Date()).toISOString() },
        },
        {
          actor: null,
          correlationId: message.metadata.correlationId,
          idempotencyKey: null,
          causationEventId: message.id,
        },
        { anyRevision: true },
      );
      await this.pool.query('delete from projector.ai_drafts where message_id = $1', [answerId]).catch(() => {});
      if (handled.newEvents.length === 0) continue;
      posted++;
    }
    return posted;
  }

  /** Whether the timeline already has an answer to this message (a replay, or another reactor). */
  private async isAnswered(chatId: string, messageId: string): Promise<boolean> {
    const { state } = await this.commands.load(
      streams.chatMessages(chatId),
      timelineDecider(chatDecider.initialState()),
    );
    return state.messages.get(messageId)?.isAnswered ?? false;
  }

  /** The text so far, for the members' live streams: a row, and a NOTIFY that names it. */
  private async publishDraft(
    draft: { chatId: string; messageId: string; content: string },
    audience: readonly string[],
  ) {
    try {
      await this.pool.query(
        `with kept as (
           insert into projector.ai_drafts (message_id, chat_id, audience, content) values ($1, $2, $3, $4)
           on conflict (message_id) do update set content = excluded.content, updated_at = now()
         ) select pg_notify($5, $1)`,
        [draft.messageId, draft.chatId, [...audience], draft.content, AI_DRAFTS_CHANNEL],
      );
    } catch (error) {
      this.options.logger.warn('ai: a draft was not published', { error: (error as Error).message });
    }
  }

  /** Stop (write-api's NOTIFY): the answer being written here, if it is, ends with what it has. */
  private onStop(payload: string): void {
    try {
      const { messageId } = JSON.parse(payload) as { messageId?: unknown };
      if (typeof messageId !== 'string') return;
      this.writing.get(messageId)?.abort(new Error('stopped'));
    } catch {
      // not ours
    }
  }

  async stop(): Promise<void> {
    this.unlistenStop();
    for (const controller of this.writing.values()) controller.abort(new Error('shutting down'));
    await this.leader.stop(() => this.subscription?.close());
  }
}

/** A `MessageSent` as the store hands it over, typed. */
type SentMessage = EventOf<RecordedEvent, 'MessageSent'>;

function fold(events: readonly RecordedEvent[]): ChatState {
  return eventsOf(events, ...chatEventTypes).reduce<ChatState>(
    (state, e) => chatDecider.evolve(state, e),
    chatDecider.initialState(),
  );
}
