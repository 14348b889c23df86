import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Stand-ins for the two LLM providers Bugtrail's chat assistant talks to, replaced AT THEIR
 * NETWORK BOUNDARY: a node:http server on 127.0.0.1 that speaks the provider's real wire
 * protocol (paths, auth headers, JSON and SSE shapes, error bodies, Retry-After), so the
 * official SDKs (`openai`, `@anthropic-ai/sdk`) run unmodified against it, their retries,
 * timeouts and streaming helpers included. This machine cannot reach the real services.
 *
 * What the "model" answers is scripted turn by turn; every request is recorded.
 */

/** Token counts a turn reports (prompt/input and completion/output tokens). */
export type TokenUsage = { input: number; output: number };

/**
 * One answer of the fake model; each chat request (`POST /v1/chat/completions` or
 * `POST /v1/messages`) that passes the key and body checks consumes the next one.
 * A request with `stream: true` gets it as SSE, otherwise as one JSON body.
 */
export type ScriptedTurn =
  /** Text, streamed as one delta per chunk (`delayMs` before each); usage defaults to 10 in, one per chunk out. */
  | { kind: 'text'; chunks: string[]; delayMs?: number; usage?: TokenUsage }
  /**
   * The model asks for a tool (arguments streamed as a JSON string split across events);
   * the provider then expects the next request to carry the tool result, and refuses it (400) otherwise.
   */
  | { kind: 'tool_call'; name: string; arguments: Record<string, unknown>; id?: string; usage?: TokenUsage }
  /** An error status (429, 500, 529, 401...) with the provider's error body unless `body` is given. */
  | { kind: 'status'; status: number; retryAfterSeconds?: number; body?: unknown }
  /** Sends these text chunks, then destroys the socket mid-stream (mid-body for a non-stream request). */
  | { kind: 'disconnect'; afterChunks: string[] }
  /** Accepts the request and never answers, until the client gives up or `close()`. */
  | { kind: 'hang' };

export type RecordedRequest = {
  method: string;
  /** Path and query as received, e.g. `/v1/chat/completions`. */
  path: string;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  /** The parsed JSON body; the raw text when it is not JSON; undefined when empty. */
  body: any;
};

export type FakeProvider = {
  /**
   * The base URL to give the SDK. OpenAI: `http://127.0.0.1:PORT/v1` (the SDK appends
   * `/chat/completions`, `/models`). Anthropic: `http://127.0.0.1:PORT` (it appends `/v1/messages`, `/v1/models`).
   */
  url: string;
  /** The only key it accepts (the `apiKey` option, or a fixed default). */
  apiKey: string;
  /** Every request received, in order, refused ones included. */
  requests: RecordedRequest[];
  /** Queues answers; with an empty queue a chat request gets the text turn "ok". */
  script(...turns: ScriptedTurn[]): void;
  /** What `GET /v1/models` lists; settable. */
  models: string[];
  /** Stops listening and destroys every connection, hanging ones included. */
  close(): Promise<void>;
};

export type FakeProviderOptions = { apiKey?: string; models?: string[] };

/** A fake-model answer with content: what a dialect renders, as SSE frames and as one JSON body. */
type Reply =
  | { kind: 'text'; chunks: string[]; usage: TokenUsage }
  | { kind: 'tool_call'; name: string; arguments: Record<string, unknown>; id: string; usage: TokenUsage };

/**
 * One SSE event, complete with its blank line. `open` and `close` frame the answer; each
 * `content` frame carries one piece of it (a text chunk or a piece of the tool arguments).
 */
type Frame = { data: string; part: 'open' | 'content' | 'close' };

type Refusal = { status: number; body: unknown };

/** What differs between the providers; the server around it (recording, script, sockets) is shared. */
type Dialect = {
  defaultApiKey: string;
  defaultModels: string[];
  chatPath: string;
  requestIdHeader: string;
  newToolCallId(): string;
  /** Refuses a request whose credentials (or required headers) are wrong, before anything else. */
  authenticate(headers: Record<string, string>, apiKey: string): Refusal | null;
  /** Why the provider would refuse this chat request body (400), or null. */
  invalidChat(body: unknown): string | null;
  errorBody(status: number, message?: string): unknown;
  modelList(ids: string[]): unknown;
  render(reply: Reply, request: any): { frames: Frame[]; json: unknown };
};

const ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A provider-looking random id: `prefix` then `length` letters and digits. */
function randomId(prefix: string, length = 24): string {
  return prefix + [...randomBytes(length)].map((byte) => ID_ALPHABET[byte % ID_ALPHABET.length]).join('');
}

/** The tool arguments as the JSON string a provider streams, in up to three pieces (two at least when it can). */
function jsonPieces(value: unknown): string[] {
  const text = JSON.stringify(value);
  const size = Math.max(1, Math.ceil(text.length / 3));
  const pieces: string[] = [];
  for (let at = 0; at < text.length; at += size) pieces.push(text.slice(at, at + size));
  return pieces;
}

function isRecord(value: unknown): value is Record<string, any> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

// ---------------------------------------------------------------- OpenAI-compatible

const OPENAI_ERROR_TYPES: Record<number, { type: string; code: string | null; message: string }> = {
  400: { type: 'invalid_request_error', code: null, message: 'Bad request.' },
  401: { type: 'invalid_request_error', code: 'invalid_api_key', message: 'Incorrect API key provided.' },
  403: { type: 'invalid_request_error', code: 'unsupported_country_region_territory', message: 'Forbidden.' },
  404: { type: 'invalid_request_error', code: 'model_not_found', message: 'The model does not exist.' },
  429: {
    type: 'requests',
    code: 'rate_limit_exceeded',
    message: 'Rate limit reached for requests. Please try again later.',
  },
  500: {
    type: 'server_error',
    code: null,
    message: 'The server had an error while processing your request. Sorry about that!',
  },
  503: { type: 'server_error', code: null, message: 'The engine is currently overloaded, please try again later.' },
};

/** `sk-…1234`: how OpenAI quotes a wrong key back. */
const redactKey = (key: string) => (key.length > 8 ? `${key.slice(0, 3)}...${key.slice(-4)}` : '***');

const openAiDialect: Dialect = {
  defaultApiKey: 'sk-fake-openai-test-key',
  defaultModels: ['gpt-fake-mini', 'gpt-fake'],
  chatPath: '/v1/chat/completions',
  requestIdHeader: 'x-request-id',
  newToolCallId: () => randomId('call_'),
  authenticate(headers, apiKey) {
    const authorization = headers.authorization ?? '';
    if (authorization === `Bearer ${apiKey}`) return null;
    const given = authorization.startsWith('Bearer ') ? authorization.slice('Bearer '.length) : '';
    const body = given
      ? {
          error: {
            message: `Incorrect API key provided: ${redactKey(given)}. You can find your API key in your account settings.`,
            type: 'invalid_request_error',
            param: null,
            code: 'invalid_api_key',
          },
        }
      : {
          error: {
            message:
              "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).",
            type: 'invalid_request_error',
            param: null,
            code: null,
          },
        };
    return { status: 401, body };
  },
  invalidChat(body) {
    if (!isRecord(body)) return 'We could not parse the JSON body of your request.';
    if (typeof body.model !== 'string' || !body.model) return 'you must provide a model parameter';
    if (!Array.isArray(body.messages) || body.messages.length === 0) return "Missing required parameter: 'messages'.";
    const messages: unknown[] = body.messages;
    for (const [index, message] of messages.entries()) {
      if (!isRecord(message) || message.role !== 'assistant' || !Array.isArray(message.tool_calls)) continue;
      const waiting = new Set<string>(message.tool_calls.map((call: any) => String(call?.id)));
      for (let next = index + 1; next < messages.length; next++) {
        const reply = messages[next];
        if (!isRecord(reply) || reply.role !== 'tool') break;
        waiting.delete(String(reply.tool_call_id));
      }
      if (waiting.size > 0) {
        return `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${[...waiting].join(', ')}`;
      }
    }
    return null;
  },
  errorBody(status, message) {
    const known = OPENAI_ERROR_TYPES[status] ?? {
      type: status >= 500 ? 'server_error' : 'invalid_request_error',
      code: null,
      message: `Error ${status}.`,
    };
    // A custom message is a request problem of its own, not the status's usual cause: no code then.
    const code = message === undefined ? known.code : null;
    return { error: { message: message ?? known.message, type: known.type, param: null, code } };
  },
  modelList(ids) {
    return {
      object: 'list',
      data: ids.map((id) => ({ id, object: 'model', created: 1_700_000_000, owned_by: 'system' })),
    };
  },
  render(reply, request) {
    const id = randomId('chatcmpl-', 29);
    const created = nowSeconds();
    const model: string = request.model;
    const withUsage = request.stream_options?.include_usage === true;
    const usage = {
      prompt_tokens: reply.usage.input,
      completion_tokens: reply.usage.output,
      total_tokens: reply.usage.input + reply.usage.output,
      prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
      completion_tokens_details: {
        reasoning_tokens: 0,
        audio_tokens: 0,
        accepted_prediction_tokens: 0,
        rejected_prediction_tokens: 0,
      },
    };
    const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
      `data: ${JSON.stringify({
        id,
        object: 'chat.completion.chunk',
        created,
        model,
        service_tier: 'default',
        system_fingerprint: 'fp_fake',
        choices,
        ...(withUsage ? { usage: null } : {}),
        ...extra,
      })}\n\n`;
    const delta = (value: Record<string, unknown>, finishReason: string | null = null) =>
      chunk([{ index: 0, delta: value, logprobs: null, finish_reason: finishReason }]);
    const finishReason = reply.kind === 'text' ? 'stop' : 'tool_calls';
    const frames: Frame[] = [];
    if (reply.kind === 'text') {
      frames.push({ part: 'open', data: delta({ role: 'assistant', content: '', refusal: null }) });
      for (const text of reply.chunks) frames.push({ part: 'content', data: delta({ content: text }) });
    } else {
      const call = { index: 0, id: reply.id, type: 'function', function: { name: reply.name, arguments: '' } };
      frames.push({
        part: 'open',
        data: delta({ role: 'assistant', content: null, tool_calls: [call], refusal: null }),
      });
      for (const piece of jsonPieces(reply.arguments)) {
        frames.push({ part: 'content', data: delta({ tool_calls: [{ index: 0, function: { arguments: piece } }] }) });
      }
    }
    frames.push({ part: 'close', data: delta({}, finishReason) });
    if (withUsage) frames.push({ part: 'close', data: chunk([], { usage }) });
    frames.push({ part: 'close', data: 'data: [DONE]\n\n' });
    const message =
      reply.kind === 'text'
        ? { role: 'assistant', content: reply.chunks.join(''), refusal: null, annotations: [] }
        : {
            role: 'assistant',
            content: null,
            refusal: null,
            annotations: [],
            tool_calls: [
              {
                id: reply.id,
                type: 'function',
                function: { name: reply.name, arguments: JSON.stringify(reply.arguments) },
              },
            ],
          };
    const json = {
      id,
      object: 'chat.completion',
      created,
      model,
      choices: [{ index: 0, message, logprobs: null, finish_reason: finishReason }],
      usage,
      service_tier: 'default',
      system_fingerprint: 'fp_fake',
    };
    return { frames, json };
  },
};

// ---------------------------------------------------------------- Anthropic

const ANTHROPIC_ERROR_TYPES: Record<number, { type: string; message: string }> = {
  400: { type: 'invalid_request_error', message: 'Invalid request.' },
  401: { type: 'authentication_error', message: 'invalid x-api-key' },
  402: { type: 'billing_error', message: 'Your credit balance is too low.' },
  403: { type: 'permission_error', message: 'Your API key does not have permission to use the specified resource.' },
  404: { type: 'not_found_error', message: 'Not found.' },
  413: { type: 'request_too_large', message: 'Request exceeds the maximum allowed number of bytes.' },
  429: {
    type: 'rate_limit_error',
    message: 'Number of requests has exceeded your rate limit. Please try again later.',
  },
  500: { type: 'api_error', message: 'Internal server error' },
  504: { type: 'timeout_error', message: 'Request timed out.' },
  529: { type: 'overloaded_error', message: 'Overloaded' },
};

const anthropicDialect: Dialect = {
  defaultApiKey: 'sk-ant-fake-anthropic-test-key',
  defaultModels: ['claude-fake-haiku', 'claude-fake-sonnet'],
  chatPath: '/v1/messages',
  requestIdHeader: 'request-id',
  newToolCallId: () => randomId('toolu_'),
  // The key comes as `x-api-key` (the classic header, and SDKs before 1.0) or, from
  // @anthropic-ai/sdk 1.0 on (API version 2026-10-21), as `Authorization: Bearer`.
  authenticate(headers, apiKey) {
    const bearer = headers.authorization?.startsWith('Bearer ') ? headers.authorization.slice('Bearer '.length) : '';
    if (headers['x-api-key'] !== apiKey && bearer !== apiKey) {
      const message =
        headers['x-api-key'] || bearer ? 'invalid x-api-key' : 'x-api-key or Authorization header is required';
      return { status: 401, body: anthropicDialect.errorBody(401, message) };
    }
    if (!headers['anthropic-version']) {
      return { status: 400, body: anthropicDialect.errorBody(400, 'anthropic-version: header is required') };
    }
    return null;
  },
  invalidChat(body) {
    if (!isRecord(body)) return 'There was an error parsing the body of your request.';
    if (typeof body.model !== 'string' || !body.model) return 'model: Field required';
    if (typeof body.max_tokens !== 'number') return 'max_tokens: Field required';
    if (!Array.isArray(body.messages)) return 'messages: Field required';
    const messages: unknown[] = body.messages;
    for (const [index, message] of messages.entries()) {
      if (!isRecord(message) || message.role !== 'assistant' || !Array.isArray(message.content)) continue;
      const waiting = new Set<string>(
        message.content.filter((block: any) => block?.type === 'tool_use').map((block: any) => String(block.id)),
      );
      const next = messages[index + 1];
      if (isRecord(next) && next.role === 'user' && Array.isArray(next.content)) {
        for (const block of next.content) if (block?.type === 'tool_result') waiting.delete(String(block.tool_use_id));
      }
      if (waiting.size > 0) {
        return `messages.${index + 1}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${[...waiting].join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`;
      }
    }
    return null;
  },
  errorBody(status, message) {
    const known = ANTHROPIC_ERROR_TYPES[status] ?? {
      type: status >= 500 ? 'api_error' : 'invalid_request_error',
      message: `Error ${status}.`,
    };
    return {
      type: 'error',
      error: { type: known.type, message: message ?? known.message },
      request_id: randomId('req_'),
    };
  },
  modelList(ids) {
    const data = ids.map((id) => ({
      type: 'model',
      id,
      display_name: `Fake ${id}`,
      created_at: '2025-01-01T00:00:00Z',
      capabilities: null,
      deprecated_at: null,
      lifecycle: 'active',
      line: null,
      max_input_tokens: 200_000,
      max_tokens: 64_000,
      retires_at: null,
    }));
    return { data, has_more: false, first_id: ids[0] ?? null, last_id: ids.at(-1) ?? null };
  },
  render(reply, request) {
    const id = randomId('msg_01');
    const model: string = request.model;
    const usage = (output: number) => ({
      input_tokens: reply.usage.input,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
      cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
      output_tokens: output,
      output_tokens_details: null,
      server_tool_use: null,
      service_tier: 'standard',
      inference_geo: null,
      speed: null,
    });
    const message = (content: unknown[], stopReason: string | null, outputTokens: number) => ({
      id,
      type: 'message',
      role: 'assistant',
      model,
      content,
      stop_reason: stopReason,
      stop_sequence: null,
      stop_details: null,
      container: null,
      diagnostics: null,
      usage: usage(outputTokens),
    });
    const event = (type: string, data: Record<string, unknown>) =>
      `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
    const stopReason = reply.kind === 'text' ? 'end_turn' : 'tool_use';
    const frames: Frame[] = [{ part: 'open', data: event('message_start', { message: message([], null, 0) }) }];
    if (reply.kind === 'text') {
      const block = { type: 'text', text: '', citations: null };
      frames.push({ part: 'open', data: event('content_block_start', { index: 0, content_block: block }) });
      frames.push({ part: 'open', data: event('ping', {}) });
      for (const text of reply.chunks) {
        const data = event('content_block_delta', { index: 0, delta: { type: 'text_delta', text } });
        frames.push({ part: 'content', data });
      }
    } else {
      const block = { type: 'tool_use', id: reply.id, name: reply.name, input: {}, caller: { type: 'direct' } };
      frames.push({ part: 'open', data: event('content_block_start', { index: 0, content_block: block }) });
      frames.push({ part: 'open', data: event('ping', {}) });
      for (const partial_json of ['', ...jsonPieces(reply.arguments)]) {
        const data = event('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json } });
        frames.push({ part: 'content', data });
      }
    }
    frames.push({ part: 'close', data: event('content_block_stop', { index: 0 }) });
    const finalUsage = usage(reply.usage.output);
    const delta = { stop_reason: stopReason, stop_sequence: null, stop_details: null, container: null };
    frames.push({
      part: 'close',
      data: event('message_delta', {
        delta,
        usage: {
          input_tokens: finalUsage.input_tokens,
          cache_creation_input_tokens: 0,
          cache_read_input_tokens: 0,
          output_tokens: finalUsage.output_tokens,
          output_tokens_details: null,
          server_tool_use: null,
        },
      }),
    });
    frames.push({ part: 'close', data: event('message_stop', {}) });
    const content =
      reply.kind === 'text'
        ? [{ type: 'text', text: reply.chunks.join(''), citations: null }]
        : [{ type: 'tool_use', id: reply.id, name: reply.name, input: reply.arguments, caller: { type: 'direct' } }];
    return { frames, json: message(content, stopReason, reply.usage.output) };
  },
};

// ---------------------------------------------------------------- the shared server

/** A fake OpenAI-compatible chat-completions server (any provider speaking that protocol). */
export function startFakeOpenAi(options?: FakeProviderOptions): Promise<FakeProvider> {
  return startFakeProvider(openAiDialect, '/v1', options);
}

/** A fake Anthropic Messages API server. */
export function startFakeAnthropic(options?: FakeProviderOptions): Promise<FakeProvider> {
  return startFakeProvider(anthropicDialect, '', options);
}

async function startFakeProvider(
  dialect: Dialect,
  basePath: string,
  options: FakeProviderOptions = {},
): Promise<FakeProvider> {
  const queue: ScriptedTurn[] = [];
  const server = http.createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const fake: FakeProvider = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}${basePath}`,
    apiKey: options.apiKey ?? dialect.defaultApiKey,
    requests: [],
    models: [...(options.models ?? dialect.defaultModels)],
    script: (...turns) => {
      queue.push(...turns);
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };

  const sendJson = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    const text = JSON.stringify(body);
    res.writeHead(status, {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(text)),
      [dialect.requestIdHeader]: randomId('req_'),
      ...headers,
    });
    res.end(text);
  };

  const play = async (turn: ScriptedTurn, request: any, res: ServerResponse) => {
    let closed = false;
    res.on('close', () => {
      closed = true;
    });
    switch (turn.kind) {
      case 'hang':
        return;
      case 'status': {
        const headers: Record<string, string> =
          turn.retryAfterSeconds === undefined ? {} : { 'retry-after': String(turn.retryAfterSeconds) };
        sendJson(res, turn.status, turn.body ?? dialect.errorBody(turn.status), headers);
        return;
      }
      case 'disconnect': {
        const usage = { input: 10, output: turn.afterChunks.length };
        const { frames, json } = dialect.render({ kind: 'text', chunks: turn.afterChunks, usage }, request);
        let sent: string;
        if (request.stream === true) {
          startStream(res);
          sent = frames
            .filter((frame) => frame.part !== 'close')
            .map((frame) => frame.data)
            .join('');
        } else {
          const text = JSON.stringify(json);
          res.writeHead(200, {
            'content-type': 'application/json',
            'content-length': String(Buffer.byteLength(text)),
            [dialect.requestIdHeader]: randomId('req_'),
          });
          sent = text.slice(0, Math.floor(text.length / 2));
        }
        // Let what was sent reach the client, then cut the connection without ending the body.
        await new Promise<void>((resolve) => res.write(sent, () => resolve()));
        res.destroy();
        return;
      }
      case 'text':
      case 'tool_call': {
        const reply: Reply =
          turn.kind === 'text'
            ? { kind: 'text', chunks: turn.chunks, usage: turn.usage ?? { input: 10, output: turn.chunks.length } }
            : {
                kind: 'tool_call',
                name: turn.name,
                arguments: turn.arguments,
                id: turn.id ?? dialect.newToolCallId(),
                usage: turn.usage ?? { input: 10, output: 1 },
              };
        const { frames, json } = dialect.render(reply, request);
        const delayMs = turn.kind === 'text' ? (turn.delayMs ?? 0) : 0;
        if (request.stream !== true) {
          if (delayMs > 0) await sleep(delayMs * reply.usage.output);
          if (!closed) sendJson(res, 200, json);
          return;
        }
        startStream(res);
        for (const frame of frames) {
          if (frame.part === 'content' && delayMs > 0) await sleep(delayMs);
          if (closed) return;
          res.write(frame.data);
        }
        res.end();
        return;
      }
    }
  };

  const startStream = (res: ServerResponse) => {
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      [dialect.requestIdHeader]: randomId('req_'),
    });
    res.flushHeaders();
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    let body: any;
    if (raw) {
      try {
        body = JSON.parse(raw);
      } catch {
        body = raw;
      }
    }
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
    }
    const method = req.method ?? 'GET';
    const path = req.url ?? '/';
    fake.requests.push({ method, path, headers, body });

    const refusal = dialect.authenticate(headers, fake.apiKey);
    if (refusal) return sendJson(res, refusal.status, refusal.body);
    const pathname = new URL(path, 'http://127.0.0.1').pathname;
    if (method === 'GET' && pathname === '/v1/models') return sendJson(res, 200, dialect.modelList(fake.models));
    if (method === 'POST' && pathname === dialect.chatPath) {
      const invalid = dialect.invalidChat(body);
      if (invalid) return sendJson(res, 400, dialect.errorBody(400, invalid));
      return play(queue.shift() ?? { kind: 'text', chunks: ['ok'] }, body, res);
    }
    return sendJson(res, 404, dialect.errorBody(404, `Invalid URL (${method} ${pathname})`));
  };

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    handle(req, res).catch((error: unknown) => {
      if (res.headersSent) res.destroy();
      else sendJson(res, 500, dialect.errorBody(500, String(error)));
    });
  });
  return fake;
}
