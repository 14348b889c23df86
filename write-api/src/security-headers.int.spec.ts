import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { http, registerUser, type TestUser } from '@bugtrail/testing';
import { startTestSystem, type TestSystem } from '@bugtrail/testing/system';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * CORS and the security headers (api.md "Cross-origin clients" and "Security headers")
 * on the real system: write-api and read-api split by method as the proxy splits them,
 * so every preflight reaches write-api, read paths' included.
 */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);
const ALLOWED = 'https://tools.example.com';
const STRANGER = 'https://evil.example';
const EXPOSED = ['x-event-position', 'x-read-model-lag', 'etag', 'content-disposition', 'retry-after'];
const REQUESTED_HEADERS = [
  'authorization',
  'content-type',
  'idempotency-key',
  'if-match',
  'x-min-position',
  'last-event-id',
];

/** Paths of both apps: read-api serves GET/HEAD, write-api everything else. */
const READ_PATHS = [
  '/api/bugs',
  '/api/bugs/all-viewable',
  '/api/events',
  '/api/users',
  '/chats',
  '/users',
  '/uploads/x.png',
];
const WRITE_PATHS = ['/api/auth/login', '/api/bugs', '/api/bugs/123/status', '/chats/123/messages', '/api/users/123'];

function preflight(url: string, requestPath: string, origin: string, method = 'POST') {
  return fetch(url + requestPath, {
    method: 'OPTIONS',
    headers: {
      Origin: origin,
      'Access-Control-Request-Method': method,
      'Access-Control-Request-Headers': 'authorization,content-type',
    },
  });
}

function expectSecurityHeaders(headers: Headers, isHtml = false) {
  expect(headers.get('x-content-type-options')).toBe('nosniff');
  expect(headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
  if (isHtml) {
    expect(headers.get('x-frame-options')).toBe('DENY');
    const policy = (headers.get('content-security-policy') ?? '').split(/;\s*/);
    for (const directive of [
      "default-src 'self'",
      "script-src 'self'",
      "object-src 'none'",
      "base-uri 'self'",
      "frame-ancestors 'none'",
    ])
      expect(policy).toContain(directive);
  } else {
    expect(headers.get('content-security-policy')).toBeNull();
  }
  expect(headers.get('access-control-allow-credentials')).toBeNull();
}

function expectAllowedPreflight(answer: Response, origin: string) {
  expect(answer.status).toBe(204);
  expect(answer.headers.get('access-control-allow-origin')).toBe(origin);
  expect(answer.headers.get('access-control-allow-methods')).toBe('GET, HEAD, POST, PUT, PATCH, DELETE');
  const allowed = (answer.headers.get('access-control-allow-headers') ?? '').toLowerCase().split(/,\s*/);
  for (const name of REQUESTED_HEADERS) expect(allowed).toContain(name);
  expect(answer.headers.get('access-control-max-age')).toBe('600');
  expect(answer.headers.get('vary')).toContain('Origin');
  expectSecurityHeaders(answer.headers);
}

function expectExposed(headers: Headers, origin: string) {
  expect(headers.get('access-control-allow-origin')).toBe(origin);
  const exposed = (headers.get('access-control-expose-headers') ?? '').toLowerCase().split(/,\s*/);
  for (const name of EXPOSED) expect(exposed).toContain(name);
}

describe('CORS and security headers', () => {
  let webDir: string;
  /** Defaults: any origin, no trusted proxy. */
  let open: TestSystem;
  /** CORS_ORIGINS=https://tools.example.com, TRUST_PROXY on. */
  let restricted: TestSystem;
  let tester: TestUser;
  let developer: TestUser;

  beforeAll(async () => {
    // A stand-in web build, so the test needs no `npm run build`.
    webDir = await mkdtemp(path.join(os.tmpdir(), 'bugtrail-web-'));
    await mkdir(path.join(webDir, 'assets'));
    await writeFile(path.join(webDir, 'index.html'), '<!doctype html><title>Bugtrail</title><div id="root"></div>');
    await writeFile(path.join(webDir, 'assets', 'app.js'), 'export {};');
    [open, restricted] = await Promise.all([
      startTestSystem({ webDir }),
      startTestSystem({ webDir, config: { corsOrigins: [ALLOWED], trustProxy: 1 } }),
    ]);
    [tester, developer] = await Promise.all([registerUser(open.url, 'tester'), registerUser(open.url, 'developer')]);
  });
  afterAll(async () => {
    await Promise.all([open?.close(), restricted?.close()]);
    if (webDir) await rm(webDir, { recursive: true, force: true });
  });

  describe('preflight', () => {
    it.each([...READ_PATHS.map((p) => ['GET', p]), ...WRITE_PATHS.map((p) => ['POST', p])])(
      'answers OPTIONS for %s %s with 204 and the CORS headers',
      async (method, requestPath) => {
        expectAllowedPreflight(await preflight(open.url, requestPath!, STRANGER, method), STRANGER);
        expectAllowedPreflight(await preflight(restricted.url, requestPath!, ALLOWED, method), ALLOWED);
      },
    );

    it('is answered by each app on its own as well', async () => {
      const init = { method: 'OPTIONS', headers: { Origin: ALLOWED, 'Access-Control-Request-Method': 'GET' } };
      for (const app of [restricted.system.readApi!, restricted.system.writeApi!]) {
        expectAllowedPreflight(await app.request('/api/bugs', init), ALLOWED);
        expectAllowedPreflight(await app.request('/uploads/profile/x.png', init), ALLOWED);
      }
    });

    it('gives a disallowed origin no Access-Control-Allow-Origin', async () => {
      for (const requestPath of ['/api/bugs', '/api/events', '/chats']) {
        const answer = await preflight(restricted.url, requestPath, STRANGER);
        expect(answer.status).toBe(204);
        expect(answer.headers.get('access-control-allow-origin')).toBeNull();
        expect(answer.headers.get('access-control-allow-methods')).toBeNull();
        expectSecurityHeaders(answer.headers);
      }
    });

    it('leaves OPTIONS off the API paths alone (404)', async () => {
      const answer = await preflight(open.url, '/tester/dashboard', STRANGER);
      expect(answer.status).toBe(404);
      expect(answer.headers.get('access-control-allow-origin')).toBeNull();
      expectSecurityHeaders(answer.headers);
    });
  });

  describe('actual answers', () => {
    it('carry the origin and the exposed headers on reads and writes', async () => {
      const headers = { Origin: STRANGER };
      const created = await http(open.url).post(
        '/api/bugs',
        {
          title: 'Checkout button unresponsive',
          description: 'Clicking the button does nothing on Safari 17.',
          priority: 'High',
          severity: 'Major',
          assignedTo: [developer.id],
        },
        tester.token,
        headers,
      );
      expect(created.status).toBe(201);
      expectExposed(created.headers, STRANGER);
      expect(created.headers.get('x-event-position')).toMatch(/^[0-9a-f]{32}$/);
      expectSecurityHeaders(created.headers);

      const listed = await http(open.url).get('/api/bugs', tester.token, headers);
      expect(listed.status).toBe(200);
      expectExposed(listed.headers, STRANGER);
      expect(listed.headers.get('vary')).toContain('Origin');
      expectSecurityHeaders(listed.headers);
    });

    it('follow CORS_ORIGINS: a listed origin is named, any other is not', async () => {
      const user = await registerUser(restricted.url, 'tester');
      const allowed = await http(restricted.url).get('/api/bugs', user.token, { Origin: ALLOWED });
      expect(allowed.status).toBe(200);
      expectExposed(allowed.headers, ALLOWED);
      const stranger = await http(restricted.url).get('/api/bugs', user.token, { Origin: STRANGER });
      expect(stranger.headers.get('access-control-allow-origin')).toBeNull();
      expect(stranger.headers.get('access-control-expose-headers')).toBeNull();
      expectSecurityHeaders(stranger.headers);
    });

    it('carry them on errors: 401, 400, 404', async () => {
      const api = http(open.url);
      const headers = { Origin: STRANGER };
      const unauthorized = await api.get('/api/bugs', undefined, headers);
      const malformed = await api.call('POST', '/api/bugs', {
        raw: '{"title":',
        token: tester.token,
        headers: { ...headers, 'content-type': 'application/json' },
      });
      const missingRead = await api.get('/api/no-such-thing', tester.token, headers);
      const missingWrite = await api.post('/api/no-such-thing', {}, tester.token, headers);
      for (const [answer, status] of [
        [unauthorized, 401],
        [malformed, 400],
        [missingRead, 404],
        [missingWrite, 404],
      ] as const) {
        expect(answer.status).toBe(status);
        expect(answer.headers.get('content-type')).toContain('application/json');
        expectExposed(answer.headers, STRANGER);
        expectSecurityHeaders(answer.headers);
      }
    });
  });

  describe('security headers', () => {
    it('on the web app: the HTML gets the policy and DENY, assets do not', async () => {
      for (const requestPath of ['/', '/tester/bug/123']) {
        const page = await fetch(open.url + requestPath, { headers: { Accept: 'text/html' } });
        expect(page.status).toBe(200);
        expect(page.headers.get('content-type')).toContain('text/html');
        expectSecurityHeaders(page.headers, true);
        expect(page.headers.get('access-control-allow-origin')).toBeNull();
      }
      const script = await fetch(`${open.url}/assets/app.js`);
      expect(script.status).toBe(200);
      expectSecurityHeaders(script.headers);
      const missing = await fetch(`${open.url}/assets/missing.js`);
      expect(missing.status).toBe(404);
      expectSecurityHeaders(missing.headers);
    });

    it('on uploads, which other origins may read', async () => {
      const form = new FormData();
      form.append('image', new Blob([PNG], { type: 'image/png' }), 'photo.png');
      const stored = await fetch(`${open.url}/api/auth/upload-image`, {
        method: 'POST',
        body: form,
        headers: { Origin: STRANGER },
      });
      expect(stored.status).toBe(201);
      expectExposed(stored.headers, STRANGER);
      expectSecurityHeaders(stored.headers);
      const { imageURL } = (await stored.json()) as { imageURL: string };

      const served = await fetch(imageURL, { headers: { Origin: STRANGER } });
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toBe('image/png');
      expect(served.headers.get('access-control-allow-origin')).toBe(STRANGER);
      expectSecurityHeaders(served.headers);
      const missing = await fetch(`${open.url}/uploads/profile/none.png`);
      expect(missing.status).toBe(404);
      expectSecurityHeaders(missing.headers);
    });

    it('on the live stream', async () => {
      const abort = new AbortController();
      const stream = await fetch(`${open.url}/api/events`, {
        headers: { Authorization: `Bearer ${tester.token}`, Origin: STRANGER },
        signal: abort.signal,
      });
      try {
        expect(stream.status).toBe(200);
        expect(stream.headers.get('content-type')).toContain('text/event-stream');
        expectExposed(stream.headers, STRANGER);
        expectSecurityHeaders(stream.headers);
      } finally {
        abort.abort();
      }
    });

    it('HSTS only over HTTPS: never over plain HTTP, nor on an untrusted X-Forwarded-Proto', async () => {
      const plain = await fetch(`${open.url}/`, { headers: { Accept: 'text/html' } });
      expect(plain.headers.get('strict-transport-security')).toBeNull();
      const untrusted = await http(open.url).get('/api/bugs', tester.token, { 'X-Forwarded-Proto': 'https' });
      expect(untrusted.headers.get('strict-transport-security')).toBeNull();

      const user = await registerUser(restricted.url, 'tester');
      const overHttps = { 'X-Forwarded-Proto': 'https' };
      const json = await http(restricted.url).get('/api/bugs', user.token, overHttps);
      expect(json.headers.get('strict-transport-security')).toBe('max-age=31536000');
      const html = await fetch(`${restricted.url}/`, { headers: { ...overHttps, Accept: 'text/html' } });
      expect(html.headers.get('strict-transport-security')).toBe('max-age=31536000');
      const write = await http(restricted.url).post('/api/no-such-thing', {}, user.token, overHttps);
      expect(write.headers.get('strict-transport-security')).toBe('max-age=31536000');
      const viaHttp = await http(restricted.url).get('/api/bugs', user.token, { 'X-Forwarded-Proto': 'http' });
      expect(viaHttp.headers.get('strict-transport-security')).toBeNull();
    });
  });
});
