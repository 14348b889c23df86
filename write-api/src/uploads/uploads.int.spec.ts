import { startTestSystem, type TestSystem } from '@bugtrail/testing/system';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);
const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

/** Every attempt counts against the per-IP limit, accepted or not. */
let attempts = 0;
const UPLOAD_LIMIT = 12;

function upload(url: string, file: Blob | null, field = 'image', filename = 'photo.png') {
  attempts += 1;
  const form = new FormData();
  if (file) form.append(field, file, filename);
  return fetch(`${url}/api/auth/upload-image`, { method: 'POST', body: form });
}

describe('POST /api/auth/upload-image', () => {
  let t: TestSystem;
  beforeAll(async () => {
    t = await startTestSystem({ config: { rateLimits: { anonymousUploadsPerIp: UPLOAD_LIMIT } as never } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('stores a PNG anonymously under a server-made name and serves it back with nosniff', async () => {
    const answer = await upload(t.url, new Blob([PNG], { type: 'image/png' }), 'image', '../../evil name.png');
    expect(answer.status).toBe(201);
    const body = (await answer.json()) as { imageURL: string };
    expect(body.imageURL).toMatch(new RegExp(`^${t.url}/uploads/profile/\\d{4}/\\d{2}/[0-9a-f-]{36}\\.png$`));
    const served = await fetch(body.imageURL);
    expect(served.status).toBe(200);
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await served.arrayBuffer()).equals(PNG)).toBe(true);
  });

  it('names the type from the bytes, not from what the client claims', async () => {
    const answer = await upload(t.url, new Blob([GIF], { type: 'image/png' }), 'image', 'photo.png');
    expect(answer.status).toBe(201);
    expect(((await answer.json()) as { imageURL: string }).imageURL).toMatch(/\.gif$/);
  });

  it('refuses what is not an image, whatever its declared type (415)', async () => {
    const html = new Blob(['<html><script>alert(1)</script></html>'], { type: 'image/png' });
    const answer = await upload(t.url, html);
    expect(answer.status).toBe(415);
    expect(await answer.json()).toEqual({ message: 'Only JPEG, PNG, WebP and GIF images are allowed' });
    const svg = new Blob(['<svg xmlns="http://www.w3.org/2000/svg"></svg>'], { type: 'image/svg+xml' });
    expect((await upload(t.url, svg, 'image', 'x.svg')).status).toBe(415);
  });

  it('refuses a body that is not multipart (415)', async () => {
    attempts += 1;
    const answer = await fetch(`${t.url}/api/auth/upload-image`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ image: 'x' }),
    });
    expect(answer.status).toBe(415);
    expect(((await answer.json()) as { message: string }).message).toBe('Content-Type must be multipart/form-data');
  });

  it('needs the field `image` (400)', async () => {
    const answer = await upload(t.url, new Blob([PNG], { type: 'image/png' }), 'photo');
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({
      details: [{ field: 'image', message: 'Please choose an image file' }],
    });
  });

  it('refuses more than 5 MB (413)', async () => {
    const big = new Uint8Array(5 * 1024 * 1024 + 1);
    big.set(PNG);
    const answer = await upload(t.url, new Blob([big], { type: 'image/png' }));
    expect(answer.status).toBe(413);
    expect(((await answer.json()) as { message: string }).message).toBe('Image is too large (limit 5 MB)');
  });

  it('accepts exactly 5 MB', async () => {
    const max = new Uint8Array(5 * 1024 * 1024);
    max.set(PNG);
    const answer = await upload(t.url, new Blob([max], { type: 'image/png' }));
    expect(answer.status).toBe(201);
  });

  // Last: uses up what is left of this IP's allowance.
  it('answers 429 with Retry-After once the per-IP limit is used up (every attempt counts)', async () => {
    const statuses: number[] = [];
    while (attempts < UPLOAD_LIMIT) statuses.push((await upload(t.url, new Blob([PNG], { type: 'image/png' }))).status);
    expect(statuses.every((s) => s === 201)).toBe(true);
    const over = await upload(t.url, new Blob([PNG], { type: 'image/png' }));
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await over.json()) as { message: string }).message).toBe('Too many uploads. Please try again later.');
  });
});
