import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../logger.js';
import { createErrorHandler, HttpError, notFoundJson } from './errors.js';
import {
  allowedOrigin,
  CORS_ALLOW_METHODS,
  CORS_EXPOSE_HEADERS,
  contentSecurityPolicy,
  httpSecurity,
  type SecuritySettings,
} from './security.js';

const anyOrigin: SecuritySettings = { corsOrigins: '*', trustProxy: 0, publicUrl: undefined };
const listed: SecuritySettings = { ...anyOrigin, corsOrigins: ['https://tools.example.com', 'http://localhost:5173'] };

function app(settings: SecuritySettings = anyOrigin) {
  const a = new Hono();
  a.onError(createErrorHandler(silentLogger));
  a.use('*', httpSecurity(settings));
  a.notFound(notFoundJson);
  a.get('/api/bugs', (c) => {
    c.header('X-Event-Position', '0'.repeat(32));
    return c.json({ bugs: [] });
  });
  a.post('/api/bugs', () => {
    throw new HttpError(415, 'Unsupported media type');
  });
  a.get('/api/events', (c) => streamSSE(c, async (stream) => stream.writeSSE({ data: '{}' })));
  a.get(
    '/uploads/:file',
    () => new Response(new Uint8Array([0x89, 0x50]), { headers: { 'Content-Type': 'image/png' } }),
  );
  // Response.redirect() has immutable headers, like an answer from fetch().
  a.get('/api/moved', () => Response.redirect('https://bugtrail.example/api/bugs', 302));
  a.get('/', (c) => c.html('<!doctype html><title>Bugtrail</title>'));
  a.get('/uploads/pages/page.html', (c) =>
    c.html('<p>an uploaded page</p>', 200, { 'Content-Security-Policy': "default-src 'none'; sandbox" }),
  );
  a.get('/assets/app.js', (c) => c.body('export {}', 200, { 'Content-Type': 'text/javascript' }));
  return a;
}

const preflight = (origin: string, method = 'POST') => ({
  method: 'OPTIONS',
  headers: {
    Origin: origin,
    'Access-Control-Request-Method': method,
    'Access-Control-Request-Headers': 'authorization',
  },
});

describe('CORS preflight', () => {
  it.each([
    '/api/bugs',
    '/api/bugs/123/status',
    '/api',
    '/chats/1/messages',
    '/users',
    '/uploads/x.png',
    '/api/events',
  ])('answers OPTIONS %s with 204 and the allowed methods and headers', async (path) => {
    const answer = await app().request(path, preflight('https://elsewhere.example'));
    expect(answer.status).toBe(204);
    expect(answer.headers.get('access-control-allow-origin')).toBe('https://elsewhere.example');
    expect(answer.headers.get('access-control-allow-methods')).toBe(CORS_ALLOW_METHODS);
    const allowHeaders = answer.headers.get('access-control-allow-headers')?.toLowerCase().split(/,\s*/);
    for (const name of [
      'authorization',
      'content-type',
      'idempotency-key',
      'if-match',
      'x-min-position',
      'last-event-id',
    ])
      expect(allowHeaders).toContain(name);
    expect(answer.headers.get('access-control-max-age')).toBe('600');
    expect(answer.headers.get('vary')).toBe('Origin');
    expect(answer.headers.get('access-control-allow-credentials')).toBeNull();
    expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await answer.text()).toBe('');
  });

  it('answers an origin on the list and no other', async () => {
    const yes = await app(listed).request('/api/bugs', preflight('https://tools.example.com'));
    expect(yes.status).toBe(204);
    expect(yes.headers.get('access-control-allow-origin')).toBe('https://tools.example.com');

    const no = await app(listed).request('/api/bugs', preflight('https://evil.example'));
    expect(no.status).toBe(204);
    expect(no.headers.get('access-control-allow-origin')).toBeNull();
    expect(no.headers.get('access-control-allow-methods')).toBeNull();
    expect(no.headers.get('vary')).toBe('Origin');
  });

  it('leaves OPTIONS outside the API paths to the app (here: 404)', async () => {
    for (const path of ['/', '/login', '/apis', '/usersettings']) {
      const answer = await app().request(path, preflight('https://elsewhere.example'));
      expect(answer.status).toBe(404);
      expect(answer.headers.get('access-control-allow-origin')).toBeNull();
    }
  });
});

describe('CORS on actual answers', () => {
  it('names the allowed origin and exposes the headers clients read', async () => {
    const answer = await app().request('/api/bugs', { headers: { Origin: 'https://elsewhere.example' } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('access-control-allow-origin')).toBe('https://elsewhere.example');
    expect(answer.headers.get('access-control-expose-headers')).toBe(CORS_EXPOSE_HEADERS);
    expect(answer.headers.get('vary')).toBe('Origin');
    expect(answer.headers.get('access-control-allow-credentials')).toBeNull();
  });

  it('carries them on errors and 404s too', async () => {
    const refused = await app().request('/api/bugs', { method: 'POST', headers: { Origin: 'https://a.example' } });
    expect(refused.status).toBe(415);
    expect(refused.headers.get('access-control-allow-origin')).toBe('https://a.example');
    const missing = await app().request('/api/nothing-here', { headers: { Origin: 'https://a.example' } });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('access-control-allow-origin')).toBe('https://a.example');
    expect(missing.headers.get('access-control-expose-headers')).toBe(CORS_EXPOSE_HEADERS);
  });

  it('gives a disallowed origin no Access-Control-Allow-Origin', async () => {
    const answer = await app(listed).request('/api/bugs', { headers: { Origin: 'https://evil.example' } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('access-control-allow-origin')).toBeNull();
    expect(answer.headers.get('access-control-expose-headers')).toBeNull();
    expect(answer.headers.get('vary')).toBe('Origin');
  });

  it('answers * to a request without Origin only when every origin is allowed', async () => {
    expect((await app().request('/api/bugs')).headers.get('access-control-allow-origin')).toBe('*');
    expect((await app(listed).request('/api/bugs')).headers.get('access-control-allow-origin')).toBeNull();
  });

  it('keeps CORS off the web app', async () => {
    const answer = await app().request('/', { headers: { Origin: 'https://elsewhere.example' } });
    expect(answer.headers.get('access-control-allow-origin')).toBeNull();
    expect(answer.headers.get('vary')).toBeNull();
  });

  it('adds to an answer whose headers cannot change', async () => {
    const answer = await app().request('/api/moved', { headers: { Origin: 'https://a.example' } });
    expect(answer.status).toBe(302);
    expect(answer.headers.get('location')).toBe('https://bugtrail.example/api/bugs');
    expect(answer.headers.get('access-control-allow-origin')).toBe('https://a.example');
    expect(answer.headers.get('vary')).toBe('Origin');
    expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('matches listed origins without regard to case', () => {
    expect(allowedOrigin('HTTPS://Tools.Example.com', listed.corsOrigins)).toBe('HTTPS://Tools.Example.com');
    expect(allowedOrigin('https://tools.example.com.evil', listed.corsOrigins)).toBeNull();
    expect(allowedOrigin(undefined, listed.corsOrigins)).toBeNull();
  });
});

describe('security headers', () => {
  it.each([
    ['JSON', '/api/bugs'],
    ['a 404', '/api/nothing-here'],
    ['an upload', '/uploads/a.png'],
    ['a script', '/assets/app.js'],
    ['a live stream', '/api/events'],
  ])('puts nosniff and the referrer policy on %s, but no CSP', async (_, path) => {
    const answer = await app().request(path);
    expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
    expect(answer.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(answer.headers.get('content-security-policy')).toBeNull();
    expect(answer.headers.get('x-frame-options')).toBeNull();
    expect(answer.headers.get('strict-transport-security')).toBeNull();
  });

  it('keeps a live stream streaming', async () => {
    const answer = await app().request('/api/events');
    expect(answer.headers.get('content-type')).toContain('text/event-stream');
    expect(await answer.text()).toContain('data: {}');
  });

  it('puts the policy and DENY on HTML', async () => {
    const answer = await app().request('/');
    expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
    expect(answer.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(answer.headers.get('x-frame-options')).toBe('DENY');
    const policy = answer.headers.get('content-security-policy') ?? '';
    for (const directive of [
      "default-src 'self'",
      "script-src 'self'",
      "object-src 'none'",
      "base-uri 'self'",
      "frame-ancestors 'none'",
    ])
      expect(policy.split('; ')).toContain(directive);
    expect(policy).not.toContain('unsafe-inline');
    expect(policy).not.toContain('unsafe-eval');
  });

  it("keeps a route's own policy on HTML", async () => {
    const answer = await app().request('/uploads/pages/page.html');
    expect(answer.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    expect(answer.headers.get('x-frame-options')).toBe('DENY');
  });

  it('lets images come from PUBLIC_URL when it is another origin', () => {
    expect(contentSecurityPolicy()).toContain("img-src 'self' data: blob:;");
    expect(contentSecurityPolicy('https://files.example.com/bugtrail')).toContain(
      "img-src 'self' data: blob: https://files.example.com;",
    );
  });

  it('sends HSTS only over HTTPS, or a trusted proxy saying so', async () => {
    expect((await app().request('https://bugtrail.example/api/bugs')).headers.get('strict-transport-security')).toBe(
      'max-age=31536000',
    );
    expect((await app().request('http://bugtrail.example/')).headers.get('strict-transport-security')).toBeNull();

    const forwarded = { headers: { 'X-Forwarded-Proto': 'https' } };
    expect((await app().request('/api/bugs', forwarded)).headers.get('strict-transport-security')).toBeNull();
    const behindProxy = app({ ...anyOrigin, trustProxy: 1 });
    expect((await behindProxy.request('/api/bugs', forwarded)).headers.get('strict-transport-security')).toBe(
      'max-age=31536000',
    );
    expect((await behindProxy.request('/', forwarded)).headers.get('strict-transport-security')).toBe(
      'max-age=31536000',
    );
    expect(
      (await behindProxy.request('/api/bugs', { headers: { 'X-Forwarded-Proto': 'http' } })).headers.get(
        'strict-transport-security',
      ),
    ).toBeNull();
  });

  it('covers preflights too', async () => {
    const answer = await app({ ...anyOrigin, trustProxy: 1 }).request('/api/bugs', {
      method: 'OPTIONS',
      headers: { Origin: 'https://a.example', 'X-Forwarded-Proto': 'https' },
    });
    expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
    expect(answer.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(answer.headers.get('strict-transport-security')).toBe('max-age=31536000');
  });
});
