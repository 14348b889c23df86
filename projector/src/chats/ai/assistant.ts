import Anthropic from '@anthropic-ai/sdk';
import { type ActiveChat, type Actor, aiAssistantTexts, type MessageSentData, type Role } from '@bugtrail/domain';
import type { AiConfig, Logger } from '@bugtrail/platform';
import OpenAI from 'openai';
import type pg from 'pg';
import { AiProtocolError, type AiProviders, type AiTurn } from './providers.js';
import { bugTools, runBugTool } from './tools.js';

/** What the assistant posts for one human message. */
export type AiAnswer = Readonly<{ content: string; model: string; stopped?: boolean; failed?: boolean }>;

/** Where the text so far goes while it is written (the chat's members' live streams). */
export type DraftSink = (draft: Readonly<{ chatId: string; messageId: string; content: string }>) => void;

export type AnswerInput = Readonly<{
  chat: ActiveChat;
  message: MessageSentData;
  /** The revision of the human message in its chat's timeline (the context is what came before). */
  revision: number;
  /** The id the answer will be posted under (drafts carry it). */
  answerId: string;
  /** Aborted by Stop: `reason` is `{ stoppedBy }`. */
  signal: AbortSignal;
  onDraft: DraftSink;
}>;

const MAX_TOOL_ROUNDS = 4;
const MAX_ANSWER_TOKENS = 1024;
/** The context's budget, in estimated tokens (about 4 characters each): the oldest turns go first. */
const CONTEXT_TOKENS = 12_000;
const DRAFT_EVERY_MS = 100;

/** After this many failures in a row the assistant stops asking for a while (a circuit breaker). */
export class CircuitBreaker {
  private failures = 0;
  private openUntil = 0;

  constructor(
    private readonly threshold = 5,
    private readonly coolDownMs = 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  get isOpen(): boolean {
    return this.now() < this.openUntil;
  }

  succeeded(): void {
    this.failures = 0;
  }

  failed(): void {
    this.failures += 1;
    if (this.failures >= this.threshold) {
      this.openUntil = this.now() + this.coolDownMs;
      this.failures = 0;
    }
  }
}

/**
 * Answers one human message of an AI chat: the chat's system prompt and its latest
 * messages as turns (sender names included), the bug tools answered within the asker's
 * rights, the text streamed to the members as it grows. Failures become an honest
 * sentence ("The assistant could not answer: <reason>") that names no key and no prompt.
 */
export class AiAssistant {
  readonly breaker: CircuitBreaker;

  constructor(
    private readonly providers: AiProviders,
    private readonly pool: pg.Pool,
    private readonly config: AiConfig,
    private readonly logger: Logger,
    breaker?: CircuitBreaker,
  ) {
    this.breaker = breaker ?? new CircuitBreaker();
  }

  async answer(input: AnswerInput): Promise<AiAnswer> {
    const chatModel = input.chat.aiAssistant.model;
    const failure = (reason: string): AiAnswer => ({
      content: `${aiAssistantTexts.failedPrefix}${reason}`,
      model: chatModel,
      failed: true,
    });
    const asker = await this.askerOf(input.message.senderId);
    if (!asker) return failure('the person who asked is no longer active');
    const used = await this.tokensUsedToday(asker.id);
    if (this.config.dailyTokensPerUser > 0 && used >= this.config.dailyTokensPerUser) {
      return failure('your daily AI token budget is used up; it renews tomorrow (UTC)');
    }
    if (this.breaker.isOpen) return failure('the AI provider failed several times in a row; try again in a minute');
    const resolved = this.providers.resolve(chatModel);
    if (!resolved) return failure('no AI provider is set up');

    const timeout = AbortSignal.timeout(this.config.timeoutMs);
    const signal = AbortSignal.any([input.signal, timeout]);
    const turns: AiTurn[] = await this.context(input, asker.name);
    const usage = { input: 0, output: 0 };
    let text = '';
    let lastDraft = 0;
    const draft = (force: boolean) => {
      const now = Date.now();
      if (!force && now - lastDraft < DRAFT_EVERY_MS) return;
      lastDraft = now;
      input.onDraft({ chatId: input.chat.id, messageId: input.answerId, content: text });
    };
    try {
      for (let round = 0; round < MAX_TOOL_ROUNDS; round++) {
        let calls: Parameters<typeof runBugTool>[2][] = [];
        const before = text;
        for await (const event of resolved.provider.stream(
          {
            model: resolved.model,
            system: input.chat.aiAssistant.systemPrompt,
            turns,
            tools: round < MAX_TOOL_ROUNDS - 1 ? bugTools : [],
            maxTokens: MAX_ANSWER_TOKENS,
          },
          signal,
        )) {
          if (event.type === 'text') {
            text += event.delta;
            draft(false);
          } else if (event.type === 'tool_calls') calls = event.calls;
          else {
            usage.input += event.usage.input;
            usage.output += event.usage.output;
          }
        }
        // An SDK may end a stream quietly when its signal aborts: Stop and the time limit are not answers.
        if (signal.aborted) throw signal.reason ?? new Error('aborted');
        if (calls.length === 0) break;
        turns.push({ role: 'assistant', content: text.slice(before.length), toolCalls: calls });
        for (const call of calls) {
          turns.push({
            role: 'tool',
            toolCallId: call.id,
            name: call.name,
            content: await runBugTool(this.pool, asker, call),
          });
        }
      }
      this.breaker.succeeded();
      if (!text.trim()) return failure('the model sent an empty answer');
      return { content: text, model: resolved.model };
    } catch (error) {
      if (input.signal.aborted) {
        // Stop: what was written so far, marked.
        return {
          content: text.trim() ? `${text}\n\n${aiAssistantTexts.stoppedMark}` : aiAssistantTexts.stoppedEmpty,
          model: resolved.model,
          stopped: true,
        };
      }
      this.breaker.failed();
      const reason = timeout.aborted
        ? `no answer within ${Math.round(this.config.timeoutMs / 1000)} s`
        : reasonOf(error);
      this.logger.warn('ai: the provider did not answer', { provider: resolved.provider.name, reason });
      return failure(reason);
    } finally {
      if (text) draft(true);
      await this.addUsage(asker.id, usage.input + usage.output).catch(() => {});
    }
  }

  /** The asker as the read models know them (an auditor asks with an auditor's rights), and their name. */
  private async askerOf(userId: string): Promise<(Actor & { name: string }) | null> {
    const { rows } = await this.pool.query<{ role: Role; deactivated: boolean; name: string }>(
      'select role, deactivated, name from rm.users where id = $1',
      [userId],
    );
    const row = rows[0];
    return row && !row.deactivated ? { id: userId, role: row.role, name: row.name } : null;
  }

  /** The latest messages up to the question, oldest first, within the context's budget. */
  private async context(input: AnswerInput, askerName: string): Promise<AiTurn[]> {
    const { rows } = await this.pool.query<{ content: string; is_ai: boolean; name: string | null }>(
      `select m.content, m.is_ai, u.name
       from rm.chat_messages m left join rm.users u on u.id = m.sender_id
       where m.chat_id = $1 and m.revision < $2 and not m.is_deleted and m.content <> ''
       order by m.revision desc
       limit $3`,
      [input.chat.id, input.revision, Math.max(0, this.config.contextMessages - 1)],
    );
    const newestFirst: AiTurn[] = [
      { role: 'user', content: `${askerName}: ${input.message.content}` },
      ...rows.map(
        (row): AiTurn =>
          row.is_ai
            ? { role: 'assistant', content: row.content }
            : { role: 'user', content: `${row.name ?? 'Someone'}: ${row.content}` },
      ),
    ];
    const kept: AiTurn[] = [];
    let budget = CONTEXT_TOKENS - Math.ceil(input.chat.aiAssistant.systemPrompt.length / 4);
    for (const turn of newestFirst) {
      const cost = Math.ceil(turn.content.length / 4) + 4;
      if (kept.length > 0 && cost > budget) break;
      kept.push(turn);
      budget -= cost;
    }
    return kept.reverse();
  }

  private async tokensUsedToday(userId: string): Promise<number> {
    const { rows } = await this.pool.query<{ tokens: string }>(
      `select tokens from projector.ai_usage where user_id = $1 and day = (now() at time zone 'utc')::date`,
      [userId],
    );
    return Number(rows[0]?.tokens ?? 0);
  }

  private async addUsage(userId: string, tokens: number): Promise<void> {
    if (tokens <= 0) return;
    await this.pool.query(
      `insert into projector.ai_usage (user_id, day, tokens) values ($1, (now() at time zone 'utc')::date, $2)
       on conflict (user_id, day) do update set tokens = projector.ai_usage.tokens + excluded.tokens`,
      [userId, tokens],
    );
  }
}

/** Why a call failed, in words a chat may show: never the key, the prompt or the provider's body. */
export function reasonOf(error: unknown): string {
  for (const sdk of [OpenAI, Anthropic] as const) {
    if (error instanceof sdk.APIConnectionTimeoutError) return 'the AI provider did not answer in time';
    if (error instanceof sdk.APIConnectionError) return 'the AI provider could not be reached';
    if (error instanceof sdk.APIError) {
      const status = error.status;
      if (status === 401 || status === 403) return `the AI provider refused the credentials (${status})`;
      if (status === 429) return 'the AI provider is rate-limiting requests (429); try again later';
      if (status === 404) return 'the AI provider does not know this model (404)';
      if (typeof status === 'number' && status >= 500) return `the AI provider failed (${status})`;
      if (typeof status === 'number') return `the AI provider refused the request (${status})`;
      return 'the connection to the AI provider broke';
    }
  }
  if (error instanceof AiProtocolError) return error.message;
  if (error instanceof Error && /terminated|aborted|socket|ECONNRESET|premature/i.test(error.message)) {
    return 'the connection to the AI provider broke';
  }
  return 'the AI provider answered in a way the assistant could not read';
}
