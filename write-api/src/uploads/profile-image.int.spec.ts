import { http, registerUser, type TestUser } from '@bugtrail/testing';
import { startTestSystem, type TestSystem } from '@bugtrail/testing/system';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);
const refusal = { field: 'profileImageURL', message: 'Profile image must be an image uploaded to this server' };

async function uploadImage(url: string, headers: Record<string, string> = {}): Promise<string> {
  const form = new FormData();
  form.append('image', new Blob([PNG], { type: 'image/png' }), 'me.png');
  const answer = await fetch(`${url}/api/auth/upload-image`, { method: 'POST', body: form, headers });
  expect(answer.status).toBe(201);
  return ((await answer.json()) as { imageURL: string }).imageURL;
}

/**
 * api.md `profileImageURL`: empty, or an image this server stored; kept as its path and
 * answered as an absolute link from PUBLIC_URL (else the request's own origin).
 */
describe('profile images are only images this server stored', () => {
  let t: TestSystem;
  let user: TestUser;
  let admin: TestUser;

  beforeAll(async () => {
    t = await startTestSystem();
    user = await registerUser(t.url, 'tester');
    admin = await registerUser(t.url, 'admin');
  });
  afterAll(async () => {
    await t?.close();
  });

  const setImage = (value: unknown, who = user) =>
    http(t.url).put(`/api/users/${user.id}`, { profileImageURL: value }, who.token);

  it.each([
    ['an outside link', 'https://img.example/t.png'],
    ['javascript:', 'javascript:alert(1)'],
    ['plain text', 'not a url'],
    ['a path outside the profile images', '/uploads/chat/2026/11/00000000-0000-0000-0000-000000000000.png'],
    ['a traversal', '/uploads/profile/../../etc/passwd'],
    ['an image that was never stored', '/uploads/profile/2026/11/00000000-0000-0000-0000-000000000000.png'],
  ])('refuses %s with 400 on the field', async (_label, value) => {
    const answer = await setImage(value);
    expect(answer.status).toBe(400);
    expect(answer.body.details).toEqual([refusal]);
  });

  it('refuses the same at signup, and creates no account', async () => {
    const email = `img.${Date.now()}@example.com`;
    const answer = await http(t.url).post('/api/auth/register', {
      name: 'Image Person',
      email,
      password: 'correct horse battery',
      profileImageURL: 'https://img.example/me.png',
    });
    expect(answer.status).toBe(400);
    expect(answer.body.details).toEqual([refusal]);
    expect((await http(t.url).post('/api/auth/login', { email, password: 'correct horse battery' })).status).toBe(401);
  });

  it('accepts an uploaded image, absolute or relative, and answers it as a link from this origin', async () => {
    const link = await uploadImage(t.url);
    const path = new URL(link).pathname;
    const absolute = await setImage(link);
    expect(absolute.status, JSON.stringify(absolute.body)).toBe(200);
    expect(absolute.body.user.profileImageURL).toBe(`${t.url}${path}`);
    expect(absolute.body.profileImageUrl).toBe(`${t.url}${path}`);
    const relative = await setImage(path);
    expect(relative.status).toBe(200);
    const profile = await http(t.url).get('/api/auth/profile', user.token);
    expect(profile.body.user.profileImageURL).toBe(`${t.url}${path}`);
    // The read models keep the path; every answer builds the link.
    const stored = await t.system.pool.query('select profile_image_url from auth.credentials where user_id = $1', [
      user.id,
    ]);
    expect(stored.rows[0].profile_image_url).toBe(path);
    const users = await http(t.url).get('/api/users', admin.token);
    // The middleware's own marker for answers it rendered never leaves the server.
    for (const answer of [absolute, relative, profile, users]) {
      expect([...answer.headers.keys()].filter((name) => name.startsWith('x-bugtrail'))).toEqual([]);
    }
    expect(users.body.find((u: { _id: string }) => u._id === user.id).profileImageURL).toBe(`${t.url}${path}`);
  });

  it('an empty value clears the image', async () => {
    const answer = await setImage('');
    expect(answer.status).toBe(200);
    expect(answer.body.user.profileImageURL).toBeNull();
  });
});

describe('with PUBLIC_URL set', () => {
  let t: TestSystem;
  const publicUrl = 'https://bugs.example.com/tracker';

  beforeAll(async () => {
    t = await startTestSystem({ config: { publicUrl } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('upload links and answered images come from PUBLIC_URL, never from the Host header', async () => {
    const link = await uploadImage(t.url, { 'x-forwarded-host': 'evil.example' });
    expect(link).toMatch(new RegExp(`^${publicUrl}/uploads/profile/`));
    const signup = await http(t.url).post('/api/auth/register', {
      name: 'Public Person',
      email: `pub.${Date.now()}@example.com`,
      password: 'correct horse battery',
      profileImageURL: link,
    });
    expect(signup.status, JSON.stringify(signup.body)).toBe(201);
    expect(signup.body.profileImageURL).toBe(link);
    const profile = await http(t.url).get('/api/auth/profile', signup.body.token, { host: 'evil.example' });
    expect(profile.body.user.profileImageURL).toBe(link);
  });
});
