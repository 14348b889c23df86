import {
  type ActiveChat,
  aiAssistantTexts,
  type ChatEvent,
  type ChatState,
  chatDecider,
  type MessageSentData,
  streams,
  timelineDecider,
} from '@bugtrail/domain';
import {
  type CommandHandler,
  deriveEventId,
  type EventStore,
  type Position,
  type RecordedEvent,
  START,
} from '@bugtrail/eventstore';
import type { Logger } from '@bugtrail/platform';
import { type Kysely, type Migration, sql } from 'kysely';
import type pg from 'pg';
import { LeaderLoop } from '../runtime/leader-loop.js';

/**
 * Writes the answer to one human message, or null to stay silent. The provider
 * clients (OpenAI-compatible, Anthropic) arrive with their own issue; until then
 * the only responder is the honest "no provider" notice.
 */
export type AiResponder = (input: Readonly<{ chat: ActiveChat; message: MessageSentData }>) => Promise<string | null>;

export const noProviderResponder: AiResponder = async () => aiAssistantTexts.noProvider;

export function isAiProviderConfigured(env: NodeJS.ProcessEnv = process.env): boolean {
  return Boolean((env.AI_BASE_URL && env.AI_API_KEY) || env.ANTHROPIC_API_KEY);
}

const REACTOR = 'chat-ai-assistant';
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
};

export type ChatAiReactorOptions = {
  logger: Logger;
  responder?: AiResponder | null;
  env?: NodeJS.ProcessEnv;
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
  private readonly leader: LeaderLoop;
  private subscription: { close(): Promise<void> } | null = null;
  private readonly store: EventStore;

  constructor(
    private readonly commands: CommandHandler,
    private readonly pool: pg.Pool,
    private readonly options: ChatAiReactorOptions,
  ) {
    this.store = commands.store;
    if (options.responder !== undefined) this.responder = options.responder;
    else if (isAiProviderConfigured(options.env)) {
      options.logger.warn(
        'an AI provider is configured, but this build has no provider client; the assistant stays silent',
      );
      this.responder = null;
    } else this.responder = noProviderResponder;
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
    const head = await this.store.headPosition();
    await this.pool.query(
      'insert into projector.reactors (name, position) values ($1, $2) on conflict (name) do nothing',
      [REACTOR, head],
    );
  }

  start(): void {
    if (!this.responder) return;
    this.leader.start();
  }

  private async follow(): Promise<void> {
    const { rows } = await this.pool.query<{ position: string }>(
      'select position from projector.reactors where name = $1',
      [REACTOR],
    );
    // stop() may have run while we awaited: it found no subscription to close.
    if (!this.leader.isRunning) return;
    const subscription = this.store.subscribe(rows[0]?.position ?? START, { batchSize: this.options.batchSize ?? 500 });
    this.subscription = subscription;
    try {
      for await (const batch of subscription) {
        if (!this.leader.isLeading) break;
        await this.handleBatch(batch);
        const last = batch[batch.length - 1];
        if (last) await this.saveCheckpoint(last.position);
      }
    } finally {
      await subscription.close();
      this.subscription = null;
    }
  }

  /** Answers the human messages of one batch. Safe to run again on the same batch. */
  async handleBatch(batch: readonly RecordedEvent[]): Promise<number> {
    if (!this.responder) return 0;
    const sent = batch.filter((e) => e.type === 'MessageSent');
    if (sent.length === 0) return 0;
    const byChat = new Map<string, RecordedEvent[]>();
    for (const event of sent) {
      const chatId = (event.data as MessageSentData).chatId;
      byChat.set(chatId, [...(byChat.get(chatId) ?? []), event]);
    }
    let posted = 0;
    for (const [chatId, messages] of byChat) {
      const history = await this.store.readStream(streams.chat(chatId));
      if (fold(history).status !== 'active') continue;
      for (const message of messages) {
        // The chat as it was when the message arrived decides whether the assistant answers.
        const then = fold(history.filter((e) => e.position < message.position));
        if (then.status !== 'active' || !then.aiAssistant.enabled) continue;
        const data = message.data as MessageSentData;
        const content = await this.responder({ chat: then, message: data });
        if (!content) continue;
        const handled = await this.commands.handle(
          streams.chatMessages(chatId),
          timelineDecider(then),
          {
            type: 'PostAiReply',
            data: { messageId: deriveEventId(message.id, 'ai-reply', 0), replyTo: data.messageId, content },
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
        if (handled.newEvents.length === 0) continue;
        posted++;
      }
    }
    return posted;
  }

  private async saveCheckpoint(position: Position): Promise<void> {
    await this.pool.query(
      `insert into projector.reactors (name, position) values ($1, $2)
       on conflict (name) do update set position = excluded.position, updated_at = now()
       where projector.reactors.position < excluded.position`,
      [REACTOR, position],
    );
  }

  async stop(): Promise<void> {
    await this.leader.stop(() => this.subscription?.close());
  }
}

function fold(events: readonly RecordedEvent[]): ChatState {
  return events.reduce<ChatState>(
    (state, e) => chatDecider.evolve(state, e as unknown as ChatEvent),
    chatDecider.initialState(),
  );
}
