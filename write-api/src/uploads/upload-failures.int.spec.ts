import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '@bugtrail/platform';
import {
  abortMidBody,
  adminUrl,
  eventually,
  http,
  registerUser,
  sendEndlessly,
  sendThenWait,
  type TestUser,
} from '@bugtrail/testing';
import { type ProductProcess, startProductProcess } from '@bugtrail/testing/process';
import { startTestSystem, type TestSystem } from '@bugtrail/testing/system';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * api.md "Second round of safety": an upload the client aborts, or one over its limit,
 * fails that request alone (413, or nothing for the client that left); the server stays up
 * and the spool keeps nothing of it. Every route that takes a large body is tried: the
 * import, bug files, chat message attachments (both paths) and the profile image upload.
 */
const BOUNDARY = 'uploadfailuresboundary';
const MB = 1024 * 1024;

type Route = Readonly<{
  name: string;
  path: string;
  headers: Record<string, string>;
  prefix: string;
  /** The most one file (part) may have: an endless body is cut there. */
  limit: number;
  /** The whole body's limit, for a declared Content-Length. */
  bodyLimit: number;
}>;

const filePart = (field: string, filename: string) =>
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\n` +
  'Content-Type: text/plain\r\n\r\n';
const multipart = (token: string | null) => ({
  'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
  ...(token ? { authorization: `Bearer ${token}` } : {}),
});

async function spoolEntries(dir: string): Promise<string[]> {
  return readdir(dir).catch(() => []);
}

describe('uploads that fail part-way', () => {
  let t: TestSystem;
  let spoolDir: string;
  let admin: TestUser;
  let tester: TestUser;
  let routes: Route[];

  beforeAll(async () => {
    spoolDir = await mkdtemp(path.join(os.tmpdir(), 'bugtrail-spool-test-'));
    t = await startTestSystem({
      config: {
        spool: { ...loadConfig({}).spool, dir: spoolDir },
        rateLimits: { anonymousUploadsPerIp: 1000 } as never,
      },
    });
    const api = http(t.url);
    admin = await registerUser(t.url, 'admin', 'Ada Admin');
    tester = await registerUser(t.url, 'tester', 'Tess Tester');
    const developer = await registerUser(t.url, 'developer', 'Dan Dev');
    const bug = await api.post(
      '/api/bugs',
      {
        title: 'Uploads that fail',
        description: 'A bug to attach files to',
        priority: 'Low',
        severity: 'Minor',
        assignedTo: [developer.id],
      },
      tester.token,
    );
    expect(bug.status).toBe(201);
    const chat = await api.post('/api/chats', { name: 'Uploads' }, tester.token);
    expect(chat.status).toBe(201);
    routes = [
      {
        name: 'import',
        path: '/api/import?from=jira',
        headers: { 'content-type': 'text/csv', authorization: `Bearer ${admin.token}` },
        prefix: 'Summary,Issue key,Issue id,Status,Priority,Created,Description\r\n',
        limit: 200 * MB,
        bodyLimit: 200 * MB,
      },
      {
        name: 'bug files',
        path: `/api/bugs/${bug.body.bug._id}/attachments`,
        headers: multipart(tester.token),
        prefix: filePart('file', 'log.txt'),
        limit: 20 * MB,
        bodyLimit: 101 * MB,
      },
      {
        name: 'chat attachments (/api/chats)',
        path: `/api/chats/${chat.body._id}/messages`,
        headers: multipart(tester.token),
        prefix: filePart('attachments', 'log.txt'),
        limit: 20 * MB,
        bodyLimit: 101 * MB,
      },
      {
        name: 'chat attachments (/chats)',
        path: `/chats/${chat.body._id}/messages`,
        headers: multipart(tester.token),
        prefix: filePart('attachments', 'log.txt'),
        limit: 20 * MB,
        bodyLimit: 101 * MB,
      },
      {
        name: 'profile image',
        path: '/api/auth/upload-image',
        headers: multipart(null),
        prefix: filePart('image', 'me.png'),
        limit: 5 * MB,
        bodyLimit: 5 * MB + 64 * 1024,
      },
    ];
  });
  afterAll(async () => {
    await t?.close();
    await rm(spoolDir, { recursive: true, force: true });
  });

  const stillServing = async () => {
    expect((await fetch(`${t.url}/health`)).status).toBe(200);
    // Nothing of the failed bodies stays in the spool.
    await eventually(async () => ((await spoolEntries(spoolDir)).length === 0 ? true : null));
  };

  it('forgets a body whose client vanished half-way, on every upload route', async () => {
    for (const route of routes) {
      await abortMidBody(t.url, {
        path: route.path,
        headers: { ...route.headers, 'content-length': String(Math.min(route.limit, 10 * MB)) },
        prefix: route.prefix,
        bytes: 2 * MB,
      });
      await stillServing();
    }
    // The same routes still take a whole request afterwards.
    const form = new FormData();
    form.append('attachments', new Blob(['after the aborts'], { type: 'text/plain' }), 'after.txt');
    const sent = await fetch(`${t.url}${routes[2]!.path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tester.token}` },
      body: form,
    });
    expect(sent.status).toBe(201);
  });

  it('refuses a body past its limit with 413 (or by closing), on every upload route', async () => {
    for (const route of routes) {
      const answer = await sendEndlessly(t.url, {
        path: route.path,
        headers: route.headers,
        prefix: route.prefix,
        maxBytes: route.limit + 8 * MB,
      });
      expect([413, null], `${route.name}: ${answer.status} ${answer.text}`).toContain(answer.status);
      expect(answer.sent, route.name).toBeLessThan(route.limit + 8 * MB);
      await stillServing();
    }
  }, 120_000);

  it('refuses a declared length past the limit before reading the body', async () => {
    for (const route of routes) {
      const answer = await sendThenWait(t.url, {
        path: route.path,
        headers: { ...route.headers, 'content-length': String(route.bodyLimit + 1) },
        bytes: 0,
      });
      expect(answer.status, route.name).toBe(413);
      expect(JSON.parse(answer.text).message, route.name).toMatch(/too large|at most/i);
      await stillServing();
    }
  });
});

/**
 * A disk that cannot take the bytes (full, or a file-size limit) while a body is spooled: that
 * request gets 507, the process goes on. Before the fix, the import's write stream emitted an
 * 'error' nobody listened to, which ended the whole process.
 */
describe('a disk that refuses the bytes', () => {
  let product: ProductProcess;
  let spoolDir: string;

  beforeAll(async () => {
    spoolDir = await mkdtemp(path.join(os.tmpdir(), 'bugtrail-spool-full-'));
    product = await startProductProcess({
      adminDatabaseUrl: adminUrl(),
      env: { SPOOL_DIR: spoolDir },
      fileSizeLimitBytes: 4 * MB,
    });
  });
  afterAll(async () => {
    await product?.stop();
    await rm(spoolDir, { recursive: true, force: true });
  });

  it('fails that import alone with 507 and keeps serving', async () => {
    const admin = await registerUser(product.url, 'admin', 'Ada Admin');
    for (let attempt = 0; attempt < 3; attempt++) {
      const answer = await sendEndlessly(product.url, {
        path: '/api/import?from=jira',
        headers: { 'content-type': 'text/csv', authorization: `Bearer ${admin.token}` },
        prefix: 'Summary,Issue key,Issue id,Status,Priority,Created,Description\r\n',
        maxBytes: 12 * MB,
      });
      expect([507, null], `${answer.status} ${answer.text}\n${product.output()}`).toContain(answer.status);
      const health = await fetch(`${product.url}/health`).then(
        (response) => response.status,
        (error: Error) => String(error),
      );
      expect(health, product.output()).toBe(200);
      await eventually(async () => ((await spoolEntries(spoolDir)).length === 0 ? true : null));
    }
  });

  it('fails a chat attachment alone with 507', async () => {
    const tester = await registerUser(product.url, 'tester', 'Tess Tester');
    const chat = await http(product.url).post('/api/chats', { name: 'Full disk' }, tester.token);
    const answer = await sendThenWait(product.url, {
      path: `/api/chats/${chat.body._id}/messages`,
      headers: { ...multipart(tester.token), 'content-length': String(6 * MB) },
      prefix: filePart('attachments', 'big.txt'),
      bytes: 6 * MB - Buffer.byteLength(filePart('attachments', 'big.txt')),
    });
    expect(answer.status, answer.text).toBe(507);
    expect(JSON.parse(answer.text).message).toMatch(/disk space/);
    expect((await fetch(`${product.url}/health`)).status).toBe(200);
    await eventually(async () => ((await spoolEntries(spoolDir)).length === 0 ? true : null));
  });
});
