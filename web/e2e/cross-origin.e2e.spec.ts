import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { adminUrl } from '@bugtrail/testing';
import { type ProductProcess, startProductProcess } from '@bugtrail/testing/process';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2E, http, openPage, registerUser, type Session, startE2E, type TestUser } from './harness.js';

/**
 * A third-party page on another origin, written against the spec's HTTP API only, drives
 * the product from real Chromium: CORS (api.md "Cross-origin clients") decides whether the
 * browser lets it read the answers. Its script logs in, reports a bug, and lists bugs
 * waiting for its own write with the exposed X-Event-Position.
 */
const PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Bug reporter on another origin</title></head>
<body>
<pre id="outcome"></pre>
<script type="module">
  const params = new URLSearchParams(location.search);
  const api = params.get('api');
  let step = 'start';
  async function call(method, path, { token, body, headers = {} } = {}) {
    const sent = { ...headers };
    if (token) sent.Authorization = 'Bearer ' + token;
    if (body !== undefined) sent['Content-Type'] = 'application/json';
    const answer = await fetch(api + path, {
      method,
      headers: sent,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: answer.status, body: await answer.json(), position: answer.headers.get('X-Event-Position') };
  }
  function finish(outcome) {
    window.outcome = outcome;
    document.getElementById('outcome').textContent = JSON.stringify(outcome, null, 2);
    document.body.dataset.done = 'true';
  }
  try {
    step = 'login';
    const login = await call('POST', '/api/auth/login', {
      body: { email: params.get('email'), password: params.get('password') },
    });
    if (login.status !== 200) throw new Error('login answered ' + login.status);
    step = 'report';
    const reported = await call('POST', '/api/bugs', {
      token: login.body.token,
      body: {
        title: params.get('title'),
        description: 'Reported from a page on another origin through the public API.',
        priority: 'High',
        severity: 'Major',
        assignedTo: [params.get('developer')],
      },
    });
    if (reported.status !== 201) throw new Error('report answered ' + reported.status);
    step = 'list';
    const listed = await call('GET', '/api/bugs', {
      token: login.body.token,
      headers: reported.position ? { 'X-Min-Position': reported.position } : {},
    });
    if (listed.status !== 200) throw new Error('list answered ' + listed.status);
    finish({
      ok: true,
      role: login.body.role,
      bugId: reported.body.bug._id,
      position: reported.position,
      titles: listed.body.bugs.map((bug) => bug.title),
    });
  } catch (error) {
    finish({ ok: false, step, error: String(error) });
  }
</script>
</body>
</html>`;

type Outcome =
  | { ok: true; role: string; bugId: string; position: string | null; titles: string[] }
  | { ok: false; step: string; error: string };

/** Serves the page from its own origin: http://127.0.0.1:<another port>. */
async function servePage(): Promise<{ origin: string; close(): Promise<void> }> {
  const server: Server = createServer((_request, response) => {
    response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
    response.end(PAGE);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Runs the page against one product as one tester; collects the console's CORS complaints. */
async function runPage(
  page: Page,
  pageOrigin: string,
  product: { url: string; tester: TestUser; developer: TestUser },
  title: string,
) {
  const complaints: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /CORS|Access-Control/i.test(message.text())) complaints.push(message.text());
  });
  const query = new URLSearchParams({
    api: product.url,
    email: product.tester.email,
    password: 'correct horse battery',
    developer: product.developer.id,
    title,
  });
  await page.goto(`${pageOrigin}/reporter.html?${query}`);
  await page.locator('body[data-done="true"]').waitFor();
  const outcome = (await page.evaluate(() => (window as unknown as { outcome: unknown }).outcome)) as Outcome;
  return { outcome, complaints };
}

describe('a page on another origin uses the API from Chromium', () => {
  let e2e: E2E;
  let restricted: ProductProcess;
  let pageSite: Awaited<ReturnType<typeof servePage>>;
  let listedSite: Awaited<ReturnType<typeof servePage>>;
  const sessions: Session[] = [];
  const open = async () => {
    const session = await openPage(e2e);
    sessions.push(session);
    return session.page;
  };
  const people = async (url: string) => {
    const [tester, developer] = await Promise.all([registerUser(url, 'tester'), registerUser(url, 'developer')]);
    return { url, tester, developer };
  };

  beforeAll(async () => {
    [pageSite, listedSite] = await Promise.all([servePage(), servePage()]);
    // The default product (CORS_ORIGINS=*), and one that lists a single origin, not the page's.
    [e2e, restricted] = await Promise.all([
      startE2E(),
      startProductProcess({ adminDatabaseUrl: adminUrl(), env: { CORS_ORIGINS: listedSite.origin } }),
    ]);
  });
  afterAll(async () => {
    for (const session of sessions) await session.context.close();
    await Promise.all([e2e?.close(), restricted?.stop(), pageSite?.close(), listedSite?.close()]);
  });

  it('logs in, reports a bug and lists it when every origin is allowed', async () => {
    expect(new URL(pageSite.origin).port).not.toBe(new URL(e2e.url).port);
    const product = await people(e2e.url);
    const { outcome, complaints } = await runPage(await open(), pageSite.origin, product, 'Reported cross-origin');
    expect(outcome).toMatchObject({ ok: true, role: 'tester', position: expect.stringMatching(/^[0-9a-f]{32}$/) });
    expect(outcome.ok && outcome.titles).toContain('Reported cross-origin');
    expect(complaints).toEqual([]);
    // The product stored it: the tester sees it through the API too.
    const bugs = await http(e2e.url).get('/api/bugs', product.tester.token);
    expect(bugs.body.bugs.map((bug: { title: string }) => bug.title)).toContain('Reported cross-origin');
  });

  it('fails when CORS_ORIGINS lists another origin: the browser gets no Access-Control-Allow-Origin', async () => {
    const product = await people(restricted.url);
    const { outcome, complaints } = await runPage(await open(), pageSite.origin, product, 'Must not be reported');
    expect(outcome).toMatchObject({ ok: false, step: 'login', error: expect.stringContaining('Failed to fetch') });
    expect(complaints.join('\n')).toMatch(/Access-Control-Allow-Origin/);
    const bugs = await http(restricted.url).get('/api/bugs', product.tester.token);
    expect(bugs.status).toBe(200);
    expect(bugs.body.bugs).toEqual([]);
  });

  it('works from the origin CORS_ORIGINS lists', async () => {
    const product = await people(restricted.url);
    const { outcome, complaints } = await runPage(
      await open(),
      listedSite.origin,
      product,
      'Reported from a listed origin',
    );
    expect(outcome).toMatchObject({ ok: true, role: 'tester' });
    expect(outcome.ok && outcome.titles).toContain('Reported from a listed origin');
    expect(complaints).toEqual([]);
  });
});
