import http from 'node:http';
import { loadConfig } from '@bugtrail/platform';
import { startTestSystem, type TestSystem } from '@bugtrail/testing/system';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Issue 11, "Unbounded bodies": 100 parallel chunked (no Content-Length) bodies of 50 MB
 * each against JSON and multipart routes. Every one is refused with 413 (or its connection
 * closed) as soon as it passes its route's limit, the process (the servers run in it)
 * grows by less than 100 MB, and it keeps answering. The chunks are one shared buffer,
 * written lazily with backpressure, so the test itself holds no 50 MB anywhere.
 */
const BODY_BYTES = 50 * 1024 * 1024;
const CHUNK = Buffer.alloc(64 * 1024, 0x61);
const PARALLEL = 100;

let sys: TestSystem;
let token: string;
let chatId: string;

async function json(method: string, path: string, body: unknown, bearer?: string) {
  const answer = await fetch(sys.url + path, {
    method,
    headers: { 'content-type': 'application/json', ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: answer.status, body: (await answer.json()) as any };
}

type Outcome = { status: number | 'closed'; sent: number };

/** Streams `prefix` then 'a's up to BODY_BYTES, chunked; stops at the first answer or close. */
function endlessPost(path: string, headers: Record<string, string>, prefix = ''): Promise<Outcome> {
  const { hostname, port } = new URL(sys.url);
  return new Promise((resolve) => {
    let sent = 0;
    let settled = false;
    const done = (status: Outcome['status']) => {
      if (settled) return;
      settled = true;
      request.destroy();
      resolve({ status, sent });
    };
    const request = http.request({
      hostname,
      port,
      path,
      method: 'POST',
      agent: false,
      headers: { ...headers, 'transfer-encoding': 'chunked' },
    });
    request.on('response', (response) => {
      response.resume();
      done(response.statusCode ?? 0);
    });
    request.on('error', () => done('closed'));
    request.on('close', () => done('closed'));
    const pump = () => {
      while (!settled && sent < BODY_BYTES) {
        sent += CHUNK.length;
        if (!request.write(CHUNK)) return void request.once('drain', pump);
      }
      if (!settled) request.end();
    };
    if (prefix) {
      request.write(prefix);
      sent += Buffer.byteLength(prefix);
    }
    pump();
  });
}

beforeAll(async () => {
  // Anonymous uploads and spooled bytes are limited per address (and user); this test sends
  // many from one on purpose, to see each stopped at its route's own limit.
  const spool = loadConfig({}).spool;
  sys = await startTestSystem({
    config: {
      rateLimits: { anonymousUploadsPerIp: 1000 } as never,
      spool: { ...spool, perUserBytes: 100 * spool.perUserBytes, perAddressBytes: 100 * spool.perAddressBytes },
    },
  });
  const email = `limits.${Date.now()}@example.com`;
  const registered = await json('POST', '/api/auth/register', {
    name: 'Limits Tester',
    email,
    password: 'correct horse battery',
    role: 'tester',
  });
  expect(registered.status).toBe(201);
  token = registered.body.token;
  const chat = await json('POST', '/chats', { name: 'Limits' }, token);
  expect(chat.status).toBe(201);
  chatId = chat.body._id;
});

afterAll(async () => {
  await sys?.close();
});

describe('body limits hold while the body streams in', () => {
  it('refuses 100 parallel 50 MB chunked bodies on several routes without growing', async () => {
    const boundary = 'limitsboundary';
    const routes: Array<() => Promise<Outcome>> = [
      () => endlessPost('/api/auth/login', { 'content-type': 'application/json' }, '{"email":"'),
      () => endlessPost('/api/auth/register', { 'content-type': 'application/json' }, '{"name":"'),
      () =>
        endlessPost(
          '/api/bugs',
          { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          '{"title":"',
        ),
      () =>
        endlessPost(
          `/chats/${chatId}/messages`,
          { 'content-type': `multipart/form-data; boundary=${boundary}`, authorization: `Bearer ${token}` },
          `--${boundary}\r\nContent-Disposition: form-data; name="attachments"; filename="big.txt"\r\n` +
            'Content-Type: text/plain\r\n\r\n',
        ),
      () =>
        endlessPost(
          '/api/auth/upload-image',
          { 'content-type': `multipart/form-data; boundary=${boundary}` },
          `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="a.png"\r\n\r\n`,
        ),
    ];
    // Warm every route once so lazily loaded code is not counted as growth.
    await Promise.all(routes.map((send) => send()));
    (globalThis as { gc?: () => void }).gc?.();
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 20);
    const started = Date.now();
    let outcomes: Outcome[];
    try {
      outcomes = await Promise.all(Array.from({ length: PARALLEL }, (_, i) => routes[i % routes.length]!()));
    } finally {
      clearInterval(sampler);
    }
    peak = Math.max(peak, process.memoryUsage().rss);
    const elapsed = Date.now() - started;

    const unexpected = outcomes.filter((o) => o.status !== 413 && o.status !== 'closed');
    expect(unexpected).toEqual([]);
    // Nobody got to send the whole 50 MB: each was stopped near its route's limit.
    expect(Math.max(...outcomes.map((o) => o.sent))).toBeLessThan(BODY_BYTES);
    const grownMb = (peak - before) / (1024 * 1024);
    const refused = outcomes.filter((o) => o.status === 413).length;
    console.info(
      `body limits: ${PARALLEL} requests in ${elapsed} ms (${refused} answered 413, ${PARALLEL - refused} closed), ` +
        `RSS grew ${grownMb.toFixed(1)} MB`,
    );
    expect(grownMb).toBeLessThan(100);

    const health = await fetch(`${sys.url}/health`);
    expect(health.status).toBe(200);
  }, 60_000);

  it('refuses a chunked upload-image body past its limit without Content-Length', async () => {
    const boundary = 'uploadboundary';
    const outcome = await endlessPost(
      '/api/auth/upload-image',
      { 'content-type': `multipart/form-data; boundary=${boundary}` },
      `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="a.png"\r\n\r\n`,
    );
    expect([413, 'closed']).toContain(outcome.status);
    expect(outcome.sent).toBeLessThan(BODY_BYTES);
  });

  it('does not take in an endless body on a route that reads none', async () => {
    const outcome = await endlessPost(`/chats/${chatId}/read`, { authorization: `Bearer ${token}` });
    expect(outcome.status).not.toBe('closed');
    expect(outcome.sent).toBeLessThan(BODY_BYTES);
    expect((await fetch(`${sys.url}/health`)).status).toBe(200);
  });
});
