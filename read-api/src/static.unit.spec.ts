import { mkdtemp, rm, unlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendFile } from './static.js';

describe('sendFile', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'bugtrail-static-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  /** Serves `file`, deleting it right after it was opened (a message deleted mid-download). */
  const app = (file: string, deleteAfterOpen: boolean) =>
    new Hono().get('/f', async (c) => {
      const sent = await sendFile(c, file);
      if (deleteAfterOpen) await unlink(file).catch(() => {});
      return sent ?? c.json({ message: 'File not found' }, 404);
    });

  it('serves a file deleted after it was opened whole, with its length', async () => {
    const file = path.join(dir, 'a.txt');
    const content = 'x'.repeat(300_000);
    await writeFile(file, content);
    const answer = await app(file, true).request('/f');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-length')).toBe(String(content.length));
    expect(await answer.text()).toBe(content);
  });

  it('answers null (here a 404) for a file that is gone, never throws', async () => {
    const answer = await app(path.join(dir, 'missing.txt'), false).request('/f');
    expect(answer.status).toBe(404);
  });
});
