import Anthropic from '@anthropic-ai/sdk';
import type { AiConfig, ListedAiModel } from '@bugtrail/platform';
import OpenAI from 'openai';

/**
 * The assistant's one port to a language model, and its two adapters: any
 * OpenAI-compatible chat-completions endpoint and Anthropic's Messages API, each through
 * its official SDK, streamed. The SDKs retry a 429 or 5xx at most twice, honouring
 * Retry-After; every call goes only to the configured origin, and a redirect is refused.
 */

export type AiToolCall = { id: string; name: string; arguments: Record<string, unknown> };

/** One turn of the conversation the model reads (sender names are already in `content`). */
export type AiTurn =
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string; toolCalls?: readonly AiToolCall[] }
  | { role: 'tool'; toolCallId: string; name: string; content: string };

export type AiToolSpec = { name: string; description: string; parameters: Record<string, unknown> };

export type AiRequest = Readonly<{
  model: string;
  system: string;
  turns: readonly AiTurn[];
  tools: readonly AiToolSpec[];
  maxTokens: number;
}>;

export type AiStreamEvent =
  | { type: 'text'; delta: string }
  | { type: 'tool_calls'; calls: AiToolCall[] }
  | { type: 'done'; usage: { input: number; output: number } };

export interface AiProvider {
  readonly name: 'openai' | 'anthropic';
  stream(request: AiRequest, signal: AbortSignal): AsyncIterable<AiStreamEvent>;
  listModels(signal: AbortSignal): Promise<string[]>;
}

/** The provider answered in a way we cannot use (not a transport failure: the SDK's own errors are those). */
export class AiProtocolError extends Error {}

/**
 * fetch for one provider: only its configured origin, never a redirect (an SSRF guard and
 * a key that never leaves for another host).
 */
export function guardedFetch(origin: string): typeof fetch {
  return (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.origin !== origin) {
      return Promise.reject(new Error(`refused an outbound call to ${url.origin}: only ${origin} is configured`));
    }
    return fetch(input, { ...init, redirect: 'error' });
  };
}

/**
 * What both SDKs are given: at most two retries (they honour Retry-After), the per-request
 * timeout, the guarded fetch, and their own logging off (our log lines carry a reason,
 * never a key, a prompt or a body).
 */
function sdkOptions(settings: { baseUrl: string; apiKey: string }, timeoutMs: number) {
  return {
    apiKey: settings.apiKey,
    baseURL: settings.baseUrl,
    timeout: timeoutMs,
    maxRetries: 2,
    logLevel: 'off' as const,
    fetch: guardedFetch(new URL(settings.baseUrl).origin),
  };
}

const parseArguments = (text: string): Record<string, unknown> => {
  if (!text.trim()) return {};
  try {
    const value = JSON.parse(text) as unknown;
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    throw new AiProtocolError('the model sent tool arguments that are not JSON');
  }
};

export class OpenAiCompatibleProvider implements AiProvider {
  readonly name = 'openai';
  private readonly client: OpenAI;

  constructor(settings: { baseUrl: string; apiKey: string }, timeoutMs: number) {
    this.client = new OpenAI(sdkOptions(settings, timeoutMs));
  }

  async listModels(signal: AbortSignal): Promise<string[]> {
    const ids: string[] = [];
    for await (const model of this.client.models.list({ signal })) ids.push(model.id);
    return ids;
  }

  async *stream(request: AiRequest, signal: AbortSignal): AsyncIterable<AiStreamEvent> {
    const messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = [
      { role: 'system', content: request.system },
      ...request.turns.map((turn): OpenAI.Chat.Completions.ChatCompletionMessageParam => {
        if (turn.role === 'tool') return { role: 'tool', tool_call_id: turn.toolCallId, content: turn.content };
        if (turn.role === 'assistant' && turn.toolCalls?.length) {
          return {
            role: 'assistant',
            content: turn.content || null,
            tool_calls: turn.toolCalls.map((call) => ({
              id: call.id,
              type: 'function',
              function: { name: call.name, arguments: JSON.stringify(call.arguments) },
            })),
          };
        }
        return { role: turn.role, content: turn.content };
      }),
    ];
    const stream = await this.client.chat.completions.create(
      {
        model: request.model,
        messages,
        max_tokens: request.maxTokens,
        stream: true,
        stream_options: { include_usage: true },
        ...(request.tools.length
          ? {
              tools: request.tools.map((tool) => ({
                type: 'function' as const,
                function: { name: tool.name, description: tool.description, parameters: tool.parameters },
              })),
            }
          : {}),
      },
      { signal },
    );
    const calls = new Map<number, { id: string; name: string; args: string }>();
    const usage = { input: 0, output: 0 };
    for await (const chunk of stream) {
      if (chunk.usage) usage.input = chunk.usage.prompt_tokens ?? 0;
      if (chunk.usage) usage.output = chunk.usage.completion_tokens ?? 0;
      const delta = chunk.choices[0]?.delta;
      if (delta?.content) yield { type: 'text', delta: delta.content };
      for (const part of delta?.tool_calls ?? []) {
        const call = calls.get(part.index) ?? { id: '', name: '', args: '' };
        if (part.id) call.id = part.id;
        if (part.function?.name) call.name += part.function.name;
        if (part.function?.arguments) call.args += part.function.arguments;
        calls.set(part.index, call);
      }
    }
    if (calls.size > 0) {
      yield {
        type: 'tool_calls',
        calls: [...calls.values()].map((call, i) => ({
          id: call.id || `call_${i}`,
          name: call.name,
          arguments: parseArguments(call.args),
        })),
      };
    }
    yield { type: 'done', usage };
  }
}

export class AnthropicProvider implements AiProvider {
  readonly name = 'anthropic';
  private readonly client: Anthropic;

  constructor(settings: { baseUrl: string; apiKey: string }, timeoutMs: number) {
    this.client = new Anthropic(sdkOptions(settings, timeoutMs));
  }

  async listModels(signal: AbortSignal): Promise<string[]> {
    const ids: string[] = [];
    for await (const model of this.client.models.list({}, { signal })) ids.push(model.id);
    return ids;
  }

  async *stream(request: AiRequest, signal: AbortSignal): AsyncIterable<AiStreamEvent> {
    const stream = await this.client.messages.create(
      {
        model: request.model,
        system: request.system,
        max_tokens: request.maxTokens,
        messages: anthropicMessages(request.turns),
        stream: true,
        ...(request.tools.length
          ? {
              tools: request.tools.map((tool) => ({
                name: tool.name,
                description: tool.description,
                input_schema: tool.parameters as Anthropic.Messages.Tool.InputSchema,
              })),
            }
          : {}),
      },
      { signal },
    );
    const usage = { input: 0, output: 0 };
    const blocks = new Map<number, { id: string; name: string; json: string }>();
    const calls: AiToolCall[] = [];
    for await (const event of stream) {
      switch (event.type) {
        case 'message_start':
          usage.input = event.message.usage.input_tokens;
          usage.output = event.message.usage.output_tokens;
          break;
        case 'content_block_start':
          if (event.content_block.type === 'tool_use') {
            blocks.set(event.index, { id: event.content_block.id, name: event.content_block.name, json: '' });
          }
          break;
        case 'content_block_delta':
          if (event.delta.type === 'text_delta') yield { type: 'text', delta: event.delta.text };
          else if (event.delta.type === 'input_json_delta') {
            const block = blocks.get(event.index);
            if (block) block.json += event.delta.partial_json;
          }
          break;
        case 'content_block_stop': {
          const block = blocks.get(event.index);
          if (block) calls.push({ id: block.id, name: block.name, arguments: parseArguments(block.json) });
          break;
        }
        case 'message_delta':
          usage.output = event.usage.output_tokens;
          break;
        default:
          break;
      }
    }
    if (calls.length > 0) yield { type: 'tool_calls', calls };
    yield { type: 'done', usage };
  }
}

/**
 * Anthropic wants user and assistant turns alternating, starting with a user's: turns of
 * the same side are merged, tool results ride in the user turn that follows the call.
 */
function anthropicMessages(turns: readonly AiTurn[]): Anthropic.Messages.MessageParam[] {
  const out: { role: 'user' | 'assistant'; content: Anthropic.Messages.ContentBlockParam[] }[] = [];
  const push = (role: 'user' | 'assistant', blocks: Anthropic.Messages.ContentBlockParam[]) => {
    const last = out.at(-1);
    if (last && last.role === role) last.content.push(...blocks);
    else out.push({ role, content: blocks });
  };
  for (const turn of turns) {
    if (turn.role === 'tool') {
      push('user', [{ type: 'tool_result', tool_use_id: turn.toolCallId, content: turn.content }]);
    } else if (turn.role === 'assistant') {
      const blocks: Anthropic.Messages.ContentBlockParam[] = turn.content ? [{ type: 'text', text: turn.content }] : [];
      for (const call of turn.toolCalls ?? []) {
        blocks.push({ type: 'tool_use', id: call.id, name: call.name, input: call.arguments });
      }
      if (blocks.length) push('assistant', blocks);
    } else push('user', [{ type: 'text', text: turn.content }]);
  }
  while (out[0]?.role === 'assistant') out.shift();
  return out;
}

/** The spec's four model names, as each provider's families (the chat picker's labels). */
const anthropicFamilies: Record<string, string> = { 'claude-3-sonnet': 'sonnet', 'claude-3-opus': 'opus' };
const ANTHROPIC_FALLBACK: Record<string, string> = {
  sonnet: 'claude-sonnet-4-5',
  opus: 'claude-opus-4-1',
};

export type ResolvedModel = { provider: AiProvider; model: string };

/**
 * The configured providers, and which one answers a chat's model: `claude-*` goes to
 * Anthropic when it is configured, everything else (and `claude-*` without it) to the
 * OpenAI-compatible one (api.md "The AI assistant"). The provider's model lists are
 * fetched once at start; a spec name maps to the newest listed model of its family.
 */
export class AiProviders {
  private models = new Map<AiProvider, string[]>();

  constructor(
    private readonly openai: AiProvider | null,
    private readonly anthropic: AiProvider | null,
    private readonly defaultOpenAiModel: string | undefined,
  ) {}

  static fromConfig(config: AiConfig): AiProviders | null {
    const openai = config.openai ? new OpenAiCompatibleProvider(config.openai, config.timeoutMs) : null;
    const anthropic = config.anthropic ? new AnthropicProvider(config.anthropic, config.timeoutMs) : null;
    if (!openai && !anthropic) return null;
    return new AiProviders(openai, anthropic, config.openai?.model);
  }

  /** Asks each provider what it serves; a provider that does not answer keeps an empty list. */
  async loadModels(timeoutMs = 3_000): Promise<void> {
    for (const provider of [this.openai, this.anthropic]) {
      if (!provider) continue;
      try {
        this.models.set(provider, await provider.listModels(AbortSignal.timeout(timeoutMs)));
      } catch {
        this.models.set(provider, []);
      }
    }
  }

  /** What the providers listed at start, each with its provider. */
  listed(): ListedAiModel[] {
    return [...this.models].flatMap(([provider, ids]) => ids.map((id) => ({ id, provider: provider.name })));
  }

  resolve(chatModel: string): ResolvedModel | null {
    if (chatModel.startsWith('claude-') && this.anthropic) {
      const listed = this.models.get(this.anthropic) ?? [];
      if (listed.includes(chatModel)) return { provider: this.anthropic, model: chatModel };
      const family = anthropicFamilies[chatModel] ?? 'sonnet';
      const newest = listed.filter((id) => id.includes(family)).sort(byNewest)[0];
      return { provider: this.anthropic, model: newest ?? ANTHROPIC_FALLBACK[family]! };
    }
    const provider = this.openai ?? this.anthropic;
    if (!provider) return null;
    if (provider === this.anthropic) return this.resolve('claude-3-sonnet');
    const listed = this.models.get(provider) ?? [];
    if (listed.includes(chatModel)) return { provider, model: chatModel };
    return { provider, model: this.defaultOpenAiModel ?? listed[0] ?? chatModel };
  }
}

/** Newest first: model ids carry their date or version, so a reverse sort by name gets close. */
const byNewest = (a: string, b: string) => (a < b ? 1 : a > b ? -1 : 0);
