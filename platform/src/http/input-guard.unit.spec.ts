import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { silentLogger } from '../logger.js';
import { JSON_BODY_LIMIT, readJson } from './body.js';
import { createErrorHandler } from './errors.js';
import { jsonHasInvalidCharacters, rejectInvalidCharacters, urlHasInvalidCharacters } from './input-guard.js';

function app() {
  const a = new Hono();
  a.onError(createErrorHandler(silentLogger));
  a.use('*', rejectInvalidCharacters());
  a.get('*', (c) => c.json({ ok: true }));
  a.post('/json', async (c) => c.json(await readJson(c, z.record(z.string(), z.unknown()))));
  return a;
}

/** A body that streams `total` bytes lazily, counting how many the server pulled. */
function lazyBody(total: number, chunk = 64 * 1024) {
  const state = { pulled: 0 };
  const piece = new Uint8Array(chunk).fill(0x20);
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (state.pulled >= total) return controller.close();
      state.pulled += chunk;
      controller.enqueue(piece);
    },
  });
  return { stream, state };
}

describe('bad characters in the path and query', () => {
  it.each([
    '/api/bugs/%00',
    '/api/bugs?q=a%00b',
    '/api/bugs?q%00=1',
    '/api/bugs/%ED%A0%80',
    '/api/bugs?q=%ED%B0%80',
    '/api/bugs/%uD800',
    '/api/bugs?q=%',
    '/api/bugs?q=%zz',
    '/api/bugs?cursor=%E0%A4',
  ])('answers 400 for %s', async (path) => {
    const answer = await app().request(path);
    expect(answer.status).toBe(400);
    expect(await answer.json()).toEqual({ message: 'Invalid characters in request' });
  });

  it.each(['/api/bugs', '/api/bugs?q=caf%C3%A9+bar&status=', '/x/%F0%9F%90%9B?q=%F0%9F%90%9B', '/a?b'])(
    'lets %s through',
    async (path) => {
      expect((await app().request(path)).status).toBe(200);
    },
  );

  it('checks raw characters too', () => {
    expect(urlHasInvalidCharacters('http://h/a\u0000b')).toBe(true);
    expect(urlHasInvalidCharacters('http://h/a?q=\uD800')).toBe(true);
    expect(urlHasInvalidCharacters('http://h/a?q=\uD83D\uDC1B')).toBe(false);
  });
});

describe('bad characters in JSON', () => {
  it('finds them in nested strings and keys', () => {
    expect(jsonHasInvalidCharacters({ a: [{ b: 'ok' }, 'x\u0000'] })).toBe(true);
    expect(jsonHasInvalidCharacters({ a: { 'k\uDC00': 1 } })).toBe(true);
    expect(jsonHasInvalidCharacters({ a: ['\uD83D\uDC1B', 1, null, true] })).toBe(false);
  });

  it.each(['{"title":"a\\u0000b"}', '{"t":["\\ud800"]}', '{"\\udc00":1}', '{"a":{"b":"x\\udbffy"}}'])(
    'answers 400 for %s',
    async (raw) => {
      const answer = await app().request('/json', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: raw,
      });
      expect(answer.status).toBe(400);
      expect(await answer.json()).toEqual({ message: 'Invalid characters in request' });
    },
  );

  it('keeps proper pairs and ordinary text', async () => {
    const answer = await app().request('/json', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"title":"bug \\ud83d\\udc1b"}',
    });
    expect(answer.status).toBe(200);
  });
});

describe('JSON body limit while streaming', () => {
  it('stops reading a chunked body without Content-Length just past 1 MB', async () => {
    const { stream, state } = lazyBody(50 * 1024 * 1024);
    const answer = await app().request('/json', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(answer.status).toBe(413);
    expect(answer.headers.get('connection')).toBe('close');
    // Nothing much beyond the limit was pulled from the client (a chunk or two of read-ahead).
    expect(state.pulled).toBeLessThan(JSON_BODY_LIMIT + 4 * 64 * 1024);
  });

  it('still reads a body just under the limit', async () => {
    const body = JSON.stringify({ text: 'x'.repeat(JSON_BODY_LIMIT - 20) });
    const answer = await app().request('/json', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    expect(answer.status).toBe(200);
  });

  it('counts bytes, not characters', async () => {
    const body = JSON.stringify({ text: 'é'.repeat(JSON_BODY_LIMIT / 2 + 10) });
    const answer = await app().request('/json', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    expect(answer.status).toBe(413);
  });
});
