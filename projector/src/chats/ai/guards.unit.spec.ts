import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CircuitBreaker } from './assistant.js';
import { guardedFetch } from './providers.js';

describe('the circuit breaker', () => {
  it('opens after five failures in a row, for a minute, and a success in between resets the count', () => {
    let now = 0;
    const breaker = new CircuitBreaker(5, 60_000, () => now);
    for (let i = 0; i < 4; i++) breaker.failed();
    breaker.succeeded();
    for (let i = 0; i < 4; i++) breaker.failed();
    expect(breaker.isOpen).toBe(false);
    breaker.failed();
    expect(breaker.isOpen).toBe(true);
    now = 59_999;
    expect(breaker.isOpen).toBe(true);
    now = 60_000;
    expect(breaker.isOpen).toBe(false);
  });
});

describe('outbound calls to a provider', () => {
  let server: http.Server;
  let origin: string;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      if (req.url === '/redirect') {
        res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data' }).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('reach the configured origin', async () => {
    const answer = await guardedFetch(origin)(`${origin}/v1/models`);
    expect(await answer.json()).toEqual({ ok: true });
  });

  it('never follow a redirect', async () => {
    await expect(guardedFetch(origin)(`${origin}/redirect`)).rejects.toThrow();
  });

  it('never go to another host', async () => {
    await expect(guardedFetch(origin)('http://127.0.0.2:9/v1/models')).rejects.toThrow(/only .* is configured/);
    await expect(guardedFetch(origin)(new Request('http://example.com/v1/models'))).rejects.toThrow(
      /only .* is configured/,
    );
  });
});
