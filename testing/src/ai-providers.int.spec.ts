import Anthropic, * as AnthropicErrors from '@anthropic-ai/sdk';
import OpenAI, * as OpenAiErrors from 'openai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeProvider, startFakeAnthropic, startFakeOpenAi } from './ai-providers.js';

/**
 * The fake LLM providers of ./ai-providers.ts, driven by the official SDKs as clients: if
 * these pass, the fakes speak the wire protocol well enough for the SDKs' own streaming
 * helpers, retries and timeouts. None of this talks to a real provider.
 */

/** Runs `iterate`, answering what it threw (undefined when it did not throw). */
async function thrownBy(iterate: () => Promise<unknown>): Promise<unknown> {
  try {
    await iterate();
    return undefined;
  } catch (error) {
    return error;
  }
}

describe('fake OpenAI-compatible server on 127.0.0.1 (not the real provider)', () => {
  let fake: FakeProvider;
  const model = 'gpt-fake-mini';
  const client = (options: { maxRetries?: number; timeout?: number; apiKey?: string } = {}) =>
    new OpenAI({ apiKey: options.apiKey ?? fake.apiKey, baseURL: fake.url, maxRetries: 0, ...options });

  beforeEach(async () => {
    fake = await startFakeOpenAi();
  });
  afterEach(async () => {
    await fake.close();
  });

  it('streams text chunk by chunk, in order, as chat.completion.chunk events', async () => {
    fake.script({ kind: 'text', chunks: ['Bug ', '#42 ', 'is ', 'a crash.'], delayMs: 5 });
    const stream = await client().chat.completions.create({
      model,
      messages: [{ role: 'user', content: 'What is bug 42?' }],
      stream: true,
    });
    const deltas: string[] = [];
    const finishReasons: unknown[] = [];
    for await (const chunk of stream) {
      expect(chunk.object).toBe('chat.completion.chunk');
      expect(chunk.model).toBe(model);
      const choice = chunk.choices[0]!;
      if (choice.delta.content) deltas.push(choice.delta.content);
      if (choice.finish_reason) finishReasons.push(choice.finish_reason);
    }
    expect(deltas).toEqual(['Bug ', '#42 ', 'is ', 'a crash.']);
    expect(finishReasons).toEqual(['stop']);
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]).toMatchObject({
      method: 'POST',
      path: '/v1/chat/completions',
      headers: { authorization: `Bearer ${fake.apiKey}` },
      body: { model, stream: true, messages: [{ role: 'user', content: 'What is bug 42?' }] },
    });
  });

  it("feeds the SDK's stream helper, which assembles the final completion", async () => {
    fake.script({ kind: 'text', chunks: ['Hello', ', ', 'world'] });
    const stream = client().chat.completions.stream({ model, messages: [{ role: 'user', content: 'hi' }] });
    const seen: string[] = [];
    stream.on('content', (delta) => seen.push(delta));
    const completion = await stream.finalChatCompletion();
    expect(seen).toEqual(['Hello', ', ', 'world']);
    expect(completion.choices[0]!.message).toMatchObject({ role: 'assistant', content: 'Hello, world' });
    expect(completion.choices[0]!.finish_reason).toBe('stop');
  });

  it('answers a non-stream request with a chat.completion, usage included', async () => {
    fake.script({ kind: 'text', chunks: ['All ', 'good'], usage: { input: 7, output: 2 } });
    const completion = await client().chat.completions.create({ model, messages: [{ role: 'user', content: 'ok?' }] });
    expect(completion.object).toBe('chat.completion');
    expect(completion.choices[0]!.message.content).toBe('All good');
    expect(completion.choices[0]!.finish_reason).toBe('stop');
    expect(completion.usage).toMatchObject({ prompt_tokens: 7, completion_tokens: 2, total_tokens: 9 });
  });

  it('reports usage in a last chunk when stream_options.include_usage is asked for', async () => {
    fake.script({ kind: 'text', chunks: ['a', 'b', 'c'], usage: { input: 12, output: 3 } });
    const stream = await client().chat.completions.create({
      model,
      messages: [{ role: 'user', content: 'abc' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    const last = chunks.at(-1)!;
    expect(last.choices).toEqual([]);
    expect(last.usage).toMatchObject({ prompt_tokens: 12, completion_tokens: 3, total_tokens: 15 });
    expect(chunks.slice(0, -1).every((chunk) => chunk.usage === null)).toBe(true);
  });

  it('makes a tool call round trip: streamed arguments parsed by the SDK, the tool result carried next', async () => {
    const tools: OpenAI.Chat.Completions.ChatCompletionFunctionTool[] = [
      {
        type: 'function',
        function: {
          name: 'search_bugs',
          strict: true,
          parameters: {
            type: 'object',
            properties: { query: { type: 'string' }, limit: { type: 'number' } },
            required: ['query', 'limit'],
            additionalProperties: false,
          },
        },
      },
    ];
    fake.script(
      { kind: 'tool_call', name: 'search_bugs', arguments: { query: 'login crash', limit: 3 }, id: 'call_search1' },
      { kind: 'text', chunks: ['Found ', 'two bugs.'] },
    );
    const messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = [
      { role: 'user', content: 'Any login crashes?' },
    ];
    const stream = client().chat.completions.stream({ model, messages, tools });
    const argumentDeltas: string[] = [];
    stream.on('tool_calls.function.arguments.delta', (event) => argumentDeltas.push(event.arguments_delta));
    const first = await stream.finalChatCompletion();
    const choice = first.choices[0]!;
    expect(choice.finish_reason).toBe('tool_calls');
    const call = choice.message.tool_calls![0]!;
    expect(call).toMatchObject({ id: 'call_search1', type: 'function' });
    if (call.type !== 'function') throw new Error('expected a function tool call');
    expect(call.function.name).toBe('search_bugs');
    expect(call.function.parsed_arguments).toEqual({ query: 'login crash', limit: 3 });
    expect(argumentDeltas.length).toBeGreaterThan(1);
    expect(argumentDeltas.join('')).toBe(call.function.arguments);

    messages.push(
      { role: 'assistant', content: null, tool_calls: [{ id: call.id, type: 'function', function: call.function }] },
      { role: 'tool', tool_call_id: call.id, content: '[{"id":7},{"id":9}]' },
    );
    const second = await client().chat.completions.create({ model, messages, tools });
    expect(second.choices[0]!.message.content).toBe('Found two bugs.');
    expect(fake.requests).toHaveLength(2);
    expect(fake.requests[1]!.body.messages.at(-1)).toEqual({
      role: 'tool',
      tool_call_id: 'call_search1',
      content: '[{"id":7},{"id":9}]',
    });
  });

  it('refuses (400) a request whose tool call has no tool result, as the provider does', async () => {
    const error = await thrownBy(() =>
      client().chat.completions.create({
        model,
        messages: [
          { role: 'user', content: 'Any login crashes?' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 'call_x', type: 'function', function: { name: 'search_bugs', arguments: '{}' } }],
          },
        ],
      }),
    );
    expect(error).toBeInstanceOf(OpenAiErrors.BadRequestError);
    expect((error as OpenAiErrors.BadRequestError).message).toContain('call_x');
  });

  it('answers 429 with Retry-After, which the SDK honours by retrying, then succeeds', async () => {
    fake.script({ kind: 'status', status: 429, retryAfterSeconds: 1 }, { kind: 'text', chunks: ['after the wait'] });
    const completion = await client({ maxRetries: 2 }).chat.completions.create({
      model,
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(completion.choices[0]!.message.content).toBe('after the wait');
    expect(fake.requests).toHaveLength(2);
  });

  it('surfaces 429 as RateLimitError with the Retry-After header once retries are spent', async () => {
    fake.script({ kind: 'status', status: 429, retryAfterSeconds: 1 });
    const error = await thrownBy(() =>
      client().chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] }),
    );
    expect(error).toBeInstanceOf(OpenAiErrors.RateLimitError);
    expect((error as OpenAiErrors.RateLimitError).headers.get('retry-after')).toBe('1');
    expect((error as OpenAiErrors.RateLimitError).code).toBe('rate_limit_exceeded');
  });

  it('surfaces a 500 that outlasts the retries as the SDK APIError with status 500', async () => {
    fake.script(
      { kind: 'status', status: 500 },
      { kind: 'status', status: 500 },
      { kind: 'status', status: 500 },
      { kind: 'text', chunks: ['never reached'] },
    );
    const error = await thrownBy(() =>
      client({ maxRetries: 2 }).chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] }),
    );
    expect(error).toBeInstanceOf(OpenAiErrors.InternalServerError);
    expect(error).toBeInstanceOf(OpenAiErrors.APIError);
    expect((error as OpenAiErrors.APIError).status).toBe(500);
    expect((error as OpenAiErrors.APIError).type).toBe('server_error');
    expect(fake.requests).toHaveLength(3);
  });

  it('cuts the connection mid-stream: the first chunks arrive, then iteration throws', async () => {
    fake.script({ kind: 'disconnect', afterChunks: ['The answer ', 'is'] });
    const stream = await client().chat.completions.create({
      model,
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
    });
    const deltas: string[] = [];
    const error = await thrownBy(async () => {
      for await (const chunk of stream)
        if (chunk.choices[0]?.delta.content) deltas.push(chunk.choices[0].delta.content);
    });
    expect(deltas).toEqual(['The answer ', 'is']);
    // The raw stream lets undici's own error through (not an OpenAIError, not retried).
    expect(error).toBeInstanceOf(TypeError);
    expect((error as TypeError).message).toBe('terminated');
  });

  it("cuts the connection mid-stream under the SDK's stream helper: an OpenAIError caused by undici's", async () => {
    fake.script({ kind: 'disconnect', afterChunks: ['The answer ', 'is'] });
    const stream = client().chat.completions.stream({ model, messages: [{ role: 'user', content: 'hi' }] });
    const seen: string[] = [];
    stream.on('content', (delta) => seen.push(delta));
    const error = await thrownBy(() => stream.finalChatCompletion());
    expect(seen).toEqual(['The answer ', 'is']);
    expect(error).toBeInstanceOf(OpenAiErrors.OpenAIError);
    expect(error).not.toBeInstanceOf(OpenAiErrors.APIError);
    expect((error as Error).cause).toBeInstanceOf(TypeError);
  });

  it('hangs until the SDK timeout ends the request as APIConnectionTimeoutError (timeouts are retried)', async () => {
    fake.script({ kind: 'hang' }, { kind: 'hang' });
    const error = await thrownBy(() =>
      client({ timeout: 300, maxRetries: 1 }).chat.completions.create({
        model,
        messages: [{ role: 'user', content: 'hi' }],
        stream: true,
      }),
    );
    expect(error).toBeInstanceOf(OpenAiErrors.APIConnectionTimeoutError);
    expect(fake.requests).toHaveLength(2);
  });

  it('refuses a wrong key with 401, the SDK AuthenticationError', async () => {
    const error = await thrownBy(() =>
      client({ apiKey: 'sk-wrong-key-0000' }).chat.completions.create({
        model,
        messages: [{ role: 'user', content: 'hi' }],
      }),
    );
    expect(error).toBeInstanceOf(OpenAiErrors.AuthenticationError);
    expect((error as OpenAiErrors.AuthenticationError).status).toBe(401);
    expect((error as OpenAiErrors.AuthenticationError).code).toBe('invalid_api_key');
  });

  it('lists its models, which a test can set', async () => {
    fake.models = ['gpt-fake-a', 'gpt-fake-b'];
    const ids: string[] = [];
    for await (const listed of client().models.list()) ids.push(listed.id);
    expect(ids).toEqual(['gpt-fake-a', 'gpt-fake-b']);
    expect(fake.requests.at(-1)).toMatchObject({ method: 'GET', path: '/v1/models' });
  });
});

describe('fake Anthropic Messages API server on 127.0.0.1 (not the real provider)', () => {
  let fake: FakeProvider;
  const model = 'claude-fake-haiku';
  const client = (options: { maxRetries?: number; timeout?: number; apiKey?: string } = {}) =>
    new Anthropic({
      apiKey: options.apiKey ?? fake.apiKey,
      baseURL: fake.url,
      maxRetries: 0,
      timeout: 10_000,
      ...options,
    });

  beforeEach(async () => {
    fake = await startFakeAnthropic();
  });
  afterEach(async () => {
    await fake.close();
  });

  it('streams text chunk by chunk, in order, as message events', async () => {
    fake.script({ kind: 'text', chunks: ['Bug ', '#42 ', 'is ', 'a crash.'], delayMs: 5 });
    const stream = await client().messages.create({
      model,
      max_tokens: 256,
      messages: [{ role: 'user', content: 'What is bug 42?' }],
      stream: true,
    });
    const deltas: string[] = [];
    const types: string[] = [];
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') deltas.push(event.delta.text);
    }
    expect(deltas).toEqual(['Bug ', '#42 ', 'is ', 'a crash.']);
    expect(types[0]).toBe('message_start');
    expect(types.slice(-3)).toEqual(['content_block_stop', 'message_delta', 'message_stop']);
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]).toMatchObject({
      method: 'POST',
      path: '/v1/messages',
      // @anthropic-ai/sdk 1.x sends the key as a bearer token, not as x-api-key.
      headers: { authorization: `Bearer ${fake.apiKey}` },
      body: { model, stream: true, max_tokens: 256 },
    });
    expect(fake.requests[0]!.headers['anthropic-version']).toBeTruthy();
  });

  it("feeds the SDK's stream helper, which assembles the final message with its usage", async () => {
    fake.script({ kind: 'text', chunks: ['Hello', ', ', 'world'], usage: { input: 11, output: 3 } });
    const stream = client().messages.stream({ model, max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] });
    const seen: string[] = [];
    stream.on('text', (delta) => seen.push(delta));
    const message = await stream.finalMessage();
    expect(seen).toEqual(['Hello', ', ', 'world']);
    expect(message.content).toMatchObject([{ type: 'text', text: 'Hello, world' }]);
    expect(message.stop_reason).toBe('end_turn');
    expect(message.usage).toMatchObject({ input_tokens: 11, output_tokens: 3 });
  });

  it('answers a non-stream request with a Message, usage included', async () => {
    fake.script({ kind: 'text', chunks: ['All ', 'good'], usage: { input: 7, output: 2 } });
    const message = await client().messages.create({
      model,
      max_tokens: 64,
      messages: [{ role: 'user', content: 'ok?' }],
    });
    expect(message).toMatchObject({ type: 'message', role: 'assistant', model, stop_reason: 'end_turn' });
    expect(message.content).toMatchObject([{ type: 'text', text: 'All good' }]);
    expect(message.usage).toMatchObject({ input_tokens: 7, output_tokens: 2 });
  });

  it('makes a tool call round trip: streamed input parsed by the SDK, the tool result carried next', async () => {
    const tools: Anthropic.Messages.Tool[] = [
      {
        name: 'search_bugs',
        input_schema: {
          type: 'object',
          properties: { query: { type: 'string' }, limit: { type: 'number' } },
          required: ['query'],
        },
      },
    ];
    fake.script(
      { kind: 'tool_call', name: 'search_bugs', arguments: { query: 'login crash', limit: 3 }, id: 'toolu_search1' },
      { kind: 'text', chunks: ['Found ', 'two bugs.'] },
    );
    const messages: Anthropic.Messages.MessageParam[] = [{ role: 'user', content: 'Any login crashes?' }];
    const stream = client().messages.stream({ model, max_tokens: 256, messages, tools });
    const jsonDeltas: string[] = [];
    stream.on('inputJson', (partial) => jsonDeltas.push(partial));
    const first = await stream.finalMessage();
    expect(first.stop_reason).toBe('tool_use');
    const use = first.content[0]!;
    expect(use).toMatchObject({ type: 'tool_use', id: 'toolu_search1', name: 'search_bugs' });
    if (use.type !== 'tool_use') throw new Error('expected a tool_use block');
    expect(use.input).toEqual({ query: 'login crash', limit: 3 });
    expect(jsonDeltas.filter(Boolean).length).toBeGreaterThan(1);

    messages.push(
      { role: 'assistant', content: first.content },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: '[{"id":7},{"id":9}]' }] },
    );
    const second = await client().messages.create({ model, max_tokens: 256, messages, tools });
    expect(second.content).toMatchObject([{ type: 'text', text: 'Found two bugs.' }]);
    expect(fake.requests).toHaveLength(2);
    expect(fake.requests[1]!.body.messages.at(-1)).toEqual({
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: 'toolu_search1', content: '[{"id":7},{"id":9}]' }],
    });
  });

  it('refuses (400) a request whose tool_use has no tool_result, as the provider does', async () => {
    const error = await thrownBy(() =>
      client().messages.create({
        model,
        max_tokens: 64,
        messages: [
          { role: 'user', content: 'Any login crashes?' },
          { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_x', name: 'search_bugs', input: {} }] },
          { role: 'user', content: 'well?' },
        ],
      }),
    );
    expect(error).toBeInstanceOf(AnthropicErrors.BadRequestError);
    expect((error as AnthropicErrors.BadRequestError).type).toBe('invalid_request_error');
    expect((error as AnthropicErrors.BadRequestError).message).toContain('toolu_x');
  });

  it('takes the key as x-api-key too, and requires the anthropic-version header', async () => {
    const ask = (headers: Record<string, string>) =>
      fetch(`${fake.url}/v1/messages`, {
        method: 'POST',
        headers: { 'x-api-key': fake.apiKey, 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ model, max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] }),
      });
    const versioned = await ask({ 'anthropic-version': '2023-06-01' });
    expect(versioned.status).toBe(200);
    expect(await versioned.json()).toMatchObject({ type: 'message', content: [{ type: 'text', text: 'ok' }] });
    const unversioned = await ask({});
    expect(unversioned.status).toBe(400);
    expect(await unversioned.json()).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
  });

  it('answers 429 with retry-after, which the SDK honours by retrying, then succeeds', async () => {
    fake.script({ kind: 'status', status: 429, retryAfterSeconds: 1 }, { kind: 'text', chunks: ['after the wait'] });
    const message = await client({ maxRetries: 2 }).messages.create({
      model,
      max_tokens: 64,
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(message.content).toMatchObject([{ type: 'text', text: 'after the wait' }]);
    expect(fake.requests).toHaveLength(2);
  });

  it('surfaces 429 as RateLimitError (rate_limit_error) and 529 as OverloadedError once retries are spent', async () => {
    fake.script({ kind: 'status', status: 429, retryAfterSeconds: 1 }, { kind: 'status', status: 529 });
    const ask = () => client().messages.create({ model, max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] });
    const limited = await thrownBy(ask);
    expect(limited).toBeInstanceOf(AnthropicErrors.RateLimitError);
    expect((limited as AnthropicErrors.RateLimitError).type).toBe('rate_limit_error');
    expect((limited as AnthropicErrors.RateLimitError).headers.get('retry-after')).toBe('1');
    const overloaded = await thrownBy(ask);
    expect(overloaded).toBeInstanceOf(AnthropicErrors.OverloadedError);
    expect((overloaded as AnthropicErrors.OverloadedError).status).toBe(529);
  });

  it('surfaces a 500 that outlasts the retries as the SDK APIError with status 500', async () => {
    fake.script(
      { kind: 'status', status: 500 },
      { kind: 'status', status: 500 },
      { kind: 'status', status: 500 },
      { kind: 'text', chunks: ['never reached'] },
    );
    const error = await thrownBy(() =>
      client({ maxRetries: 2 }).messages.create({ model, max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] }),
    );
    expect(error).toBeInstanceOf(AnthropicErrors.InternalServerError);
    expect(error).toBeInstanceOf(AnthropicErrors.APIError);
    expect((error as AnthropicErrors.APIError).status).toBe(500);
    expect((error as AnthropicErrors.APIError).type).toBe('api_error');
    expect(fake.requests).toHaveLength(3);
  });

  it('cuts the connection mid-stream: the first chunks arrive, then iteration throws', async () => {
    fake.script({ kind: 'disconnect', afterChunks: ['The answer ', 'is'] });
    const stream = await client().messages.create({
      model,
      max_tokens: 64,
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
    });
    const deltas: string[] = [];
    const error = await thrownBy(async () => {
      for await (const event of stream) {
        if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') deltas.push(event.delta.text);
      }
    });
    expect(deltas).toEqual(['The answer ', 'is']);
    // The raw stream lets undici's own error through (not an AnthropicError, not retried).
    expect(error).toBeInstanceOf(TypeError);
    expect((error as TypeError).message).toBe('terminated');
  });

  it("cuts the connection mid-stream under the SDK's stream helper: an AnthropicError caused by undici's", async () => {
    fake.script({ kind: 'disconnect', afterChunks: ['The answer ', 'is'] });
    const stream = client().messages.stream({ model, max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] });
    const seen: string[] = [];
    stream.on('text', (delta) => seen.push(delta));
    const error = await thrownBy(() => stream.finalMessage());
    expect(seen).toEqual(['The answer ', 'is']);
    expect(error).toBeInstanceOf(AnthropicErrors.AnthropicError);
    expect(error).not.toBeInstanceOf(AnthropicErrors.APIError);
    expect((error as Error).cause).toBeInstanceOf(TypeError);
  });

  it('hangs until the SDK timeout ends the request as APIConnectionTimeoutError (timeouts are retried)', async () => {
    fake.script({ kind: 'hang' }, { kind: 'hang' });
    const error = await thrownBy(() =>
      client({ timeout: 300, maxRetries: 1 }).messages.create({
        model,
        max_tokens: 64,
        messages: [{ role: 'user', content: 'hi' }],
        stream: true,
      }),
    );
    expect(error).toBeInstanceOf(AnthropicErrors.APIConnectionTimeoutError);
    expect(fake.requests).toHaveLength(2);
  });

  it('refuses a wrong key with 401, the SDK AuthenticationError', async () => {
    const error = await thrownBy(() =>
      client({ apiKey: 'sk-ant-wrong' }).messages.create({
        model,
        max_tokens: 64,
        messages: [{ role: 'user', content: 'hi' }],
      }),
    );
    expect(error).toBeInstanceOf(AnthropicErrors.AuthenticationError);
    expect((error as AnthropicErrors.AuthenticationError).status).toBe(401);
    expect((error as AnthropicErrors.AuthenticationError).type).toBe('authentication_error');
  });

  it('lists its models, which a test can set', async () => {
    fake.models = ['claude-fake-a', 'claude-fake-b'];
    const ids: string[] = [];
    for await (const listed of client().models.list()) ids.push(listed.id);
    expect(ids).toEqual(['claude-fake-a', 'claude-fake-b']);
    expect(fake.requests.at(-1)).toMatchObject({ method: 'GET', path: '/v1/models' });
  });
});
