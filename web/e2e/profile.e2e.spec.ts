import { crc32, deflateSync } from 'node:zlib';
import type { Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  capture,
  type E2E,
  http,
  noSideScroll,
  openPage,
  registerUser,
  seriousViolations,
  startE2E,
  type TestUser,
  toast,
} from './harness.js';

/**
 * The profile's Account card (issue 15): name and email (a new email needs the current
 * password), the picture (uploaded as at signup, then saved on the profile; removable),
 * and a password change that asks for the current one. Everything goes through
 * PUT /api/users/{id}; the server's refusals show under their fields.
 */
const PASSWORD = 'correct horse battery';

/** A real 1×1 PNG of one colour: signature, IHDR, IDAT (one filter byte and RGB), IEND. */
function onePixelPng(red: number, green: number, blue: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const check = Buffer.alloc(4);
    check.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, check]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(1, 0); // width
  header.writeUInt32BE(1, 4); // height
  header[8] = 8; // bits per channel
  header[9] = 2; // truecolour (RGB)
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.from([0, red, green, blue]))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const isProfilePut = (url: string, method: string) => method === 'PUT' && /\/api\/users\/[^/?]+$/.test(url);
const isUpload = (url: string, method: string) => method === 'POST' && url.endsWith('/api/auth/upload-image');

/** The text of what a control's aria-describedby points at (its error under it, its hint). */
const description = (control: Locator) =>
  control.evaluate((element) =>
    (element.getAttribute('aria-describedby') ?? '')
      .split(/\s+/)
      .map((id) => (id ? (document.getElementById(id)?.textContent ?? '') : ''))
      .join(' ')
      .trim(),
  );
const hasFocus = (control: Locator) => control.evaluate((element) => element === document.activeElement);

async function openProfile(e2e: E2E, user: TestUser) {
  const session = await openPage(e2e, { user });
  await session.page.goto('/profile');
  await session.page.getByRole('heading', { level: 2, name: 'Account' }).waitFor();
  return session;
}

describe('profile: the account card', () => {
  let e2e: E2E;

  beforeAll(async () => {
    e2e = await startE2E();
  });
  afterAll(async () => {
    await e2e?.close();
  });

  it('offers no mail choices when the server sends no mail (no SMTP_URL)', async () => {
    const user = await registerUser(e2e.url, 'tester', 'Nia No Mail');
    const answer = await http(e2e.url).get('/api/auth/mail', user.token);
    expect(answer.body).toEqual({ configured: false });
    const session = await openProfile(e2e, user);
    try {
      const { page } = session;
      await page.getByText('This server sends no email.', { exact: false }).waitFor();
      expect(await page.getByRole('group', { name: 'Email me about notifications' }).count()).toBe(0);
      expect(await page.getByText('Right away', { exact: true }).count()).toBe(0);
      await capture(page, 'profile-no-mail');
    } finally {
      await session.context.close();
    }
  });

  it('saves a new name: the header shows it at once and the profile answers it', async () => {
    const user = await registerUser(e2e.url, 'tester', 'Robin Before');
    const session = await openProfile(e2e, user);
    const { context, page } = session;
    try {
      const form = page.getByRole('form', { name: 'Name and email' });
      const name = form.getByLabel('Name', { exact: true });
      expect(await name.inputValue()).toBe('Robin Before');
      expect(await form.getByLabel('Email', { exact: true }).inputValue()).toBe(user.email);
      // Nothing changed yet: nothing to save, and no password asked.
      expect(await form.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
      expect(await form.getByLabel('Current password', { exact: true }).count()).toBe(0);

      await name.fill('  Robin Renamed ');
      const saved = page.waitForResponse((response) => isProfilePut(response.url(), response.request().method()));
      await form.getByRole('button', { name: 'Save' }).click();
      const answer = await saved;
      expect(answer.request().url()).toContain(`/api/users/${user.id}`);
      expect(answer.request().postDataJSON()).toEqual({ name: 'Robin Renamed' });
      expect(answer.status()).toBe(200);
      await toast(session, 'Profile updated successfully');

      // The header's avatar and the sidebar read the cached profile: both have the new name.
      const headerAvatar = page.getByRole('link', { name: 'Profile and appearance' }).getByRole('img');
      await expect.poll(() => headerAvatar.getAttribute('aria-label')).toBe('Robin Renamed');
      await page
        .getByRole('complementary', { name: 'Sidebar' })
        .getByText('Robin Renamed', { exact: true })
        .first()
        .waitFor();
      expect(await name.inputValue()).toBe('Robin Renamed');

      const profile = await http(e2e.url).get('/api/auth/profile', user.token);
      expect(profile.status).toBe(200);
      expect(profile.body.user.name).toBe('Robin Renamed');

      await page.reload();
      await page.getByRole('heading', { level: 2, name: 'Account' }).waitFor();
      expect(await form.getByLabel('Name', { exact: true }).inputValue()).toBe('Robin Renamed');

      // An empty name is refused here, in the server's words, and the field gets focus.
      await form.getByLabel('Name', { exact: true }).fill('   ');
      await form.getByRole('button', { name: 'Save' }).click();
      const nameField = form.getByLabel('Name', { exact: true });
      await expect.poll(() => description(nameField)).toBe('Please enter full name');
      expect(await nameField.getAttribute('aria-invalid')).toBe('true');
      await expect.poll(() => hasFocus(nameField)).toBe(true);
    } finally {
      await context.close();
    }
  });

  it('asks for the current password to change the email, shows the server’s refusals under their fields, then saves', async () => {
    const user = await registerUser(e2e.url, 'developer', 'Casey Changes');
    const other = await registerUser(e2e.url, 'tester', 'Owen Other');
    const session = await openProfile(e2e, user);
    const { context, page } = session;
    try {
      const form = page.getByRole('form', { name: 'Name and email' });
      const email = form.getByLabel('Email', { exact: true });
      const current = form.getByLabel('Current password', { exact: true });
      const submit = form.getByRole('button', { name: 'Save' });
      const nextPut = () =>
        page.waitForResponse((response) => isProfilePut(response.url(), response.request().method()));

      // Only the case differs: the same address to the server, so no password is asked.
      await email.fill(user.email.toUpperCase());
      expect(await current.count()).toBe(0);

      // A new address: the current password field appears. Sent without it, the server's 400 sits under it.
      const fresh = `casey.${Date.now().toString(36)}@example.com`;
      await email.fill(fresh);
      await current.waitFor();
      expect(await description(current)).toContain('Needed to change your email');
      let answer = nextPut();
      await submit.click();
      let refused = await answer;
      expect(refused.status()).toBe(400);
      expect(refused.request().postDataJSON()).toEqual({ name: 'Casey Changes', email: fresh });
      const required = (await refused.json()) as { details: { field: string; message: string }[] };
      expect(required.details).toEqual([{ field: 'currentPassword', message: 'Current password is required' }]);
      await expect.poll(() => description(current)).toContain('Current password is required');
      expect(await current.getAttribute('aria-invalid')).toBe('true');
      await expect.poll(() => hasFocus(current)).toBe(true);
      await capture(page, 'profile-account-email-refused');

      // A wrong password: the server's 403 message, under the same field.
      await current.fill('not my password');
      expect(await description(current)).not.toContain('Current password is required');
      answer = nextPut();
      await submit.click();
      refused = await answer;
      expect(refused.status()).toBe(403);
      await expect.poll(() => description(current)).toContain('Current password is incorrect');
      expect(await current.inputValue()).toBe('');
      await expect.poll(() => hasFocus(current)).toBe(true);

      // Someone else's address: the server's field error goes under Email, which gets focus.
      await email.fill(other.email);
      await current.fill(PASSWORD);
      answer = nextPut();
      await submit.click();
      refused = await answer;
      expect(refused.status()).toBe(400);
      await expect.poll(() => description(email)).toBe('Email is already in use');
      await expect.poll(() => hasFocus(email)).toBe(true);

      // With the current password, a free address is saved.
      await email.fill(fresh);
      await current.fill(PASSWORD);
      answer = nextPut();
      await submit.click();
      const accepted = await answer;
      expect(accepted.status()).toBe(200);
      expect(accepted.request().postDataJSON()).toEqual({
        name: 'Casey Changes',
        email: fresh,
        currentPassword: PASSWORD,
      });
      await toast(session, 'Profile updated successfully');
      await expect.poll(() => current.count()).toBe(0);
      expect(await email.inputValue()).toBe(fresh);
      await page.getByRole('complementary', { name: 'Sidebar' }).getByText(fresh, { exact: true }).waitFor();

      const profile = await http(e2e.url).get('/api/auth/profile', user.token);
      expect(profile.body.user.email).toBe(fresh);
      const login = await http(e2e.url).post('/api/auth/login', { email: fresh, password: PASSWORD });
      expect(login.status).toBe(200);
    } finally {
      await context.close();
    }
  });

  it('uploads a picture that the page and the header then show from /uploads, refuses what the server would, and removes it', async () => {
    const user = await registerUser(e2e.url, 'tester', 'Pia Picture');
    const session = await openProfile(e2e, user);
    const { context, page } = session;
    const uploads: string[] = [];
    page.on('request', (request) => {
      if (isUpload(request.url(), request.method())) uploads.push(request.url());
    });
    try {
      const picture = page.getByRole('region', { name: 'Picture' });
      const input = picture.getByLabel('Upload a picture');
      expect(await input.getAttribute('accept')).toBe('image/png,image/jpeg,image/gif,image/webp');
      // No picture yet: the initials, and nothing to remove.
      expect(await picture.getByRole('img', { name: 'Pia Picture' }).getAttribute('src')).toBeNull();
      expect(await picture.getByRole('button', { name: 'Remove picture' }).count()).toBe(0);

      // Over 5 MB: refused here in the upload route's words, nothing sent.
      await input.setInputFiles({
        name: 'huge.png',
        mimeType: 'image/png',
        buffer: Buffer.alloc(5 * 1024 * 1024 + 1),
      });
      await picture.getByRole('alert').filter({ hasText: 'Image is too large (limit 5 MB)' }).waitFor();
      expect(uploads).toEqual([]);

      // Not an image at all, though named like one: the server's own refusal (magic bytes), shown as it says it.
      const notImage = page.waitForResponse((response) => isUpload(response.url(), response.request().method()));
      await input.setInputFiles({ name: 'notes.png', mimeType: 'image/png', buffer: Buffer.from('just some text') });
      const refusal = await notImage;
      expect(refusal.status()).toBe(415);
      const { message } = (await refusal.json()) as { message: string };
      expect(message).toBe('Only JPEG, PNG, WebP and GIF images are allowed');
      await picture.getByRole('alert').filter({ hasText: message }).waitFor();

      const uploaded = page.waitForResponse((response) => isUpload(response.url(), response.request().method()));
      const saved = page.waitForResponse((response) => isProfilePut(response.url(), response.request().method()));
      await input.setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: onePixelPng(116, 51, 239) });
      const upload = await uploaded;
      expect(upload.status()).toBe(201);
      const { imageURL } = (await upload.json()) as { imageURL: string };
      expect(new URL(imageURL).pathname).toMatch(/^\/uploads\/profile\//);
      const save = await saved;
      expect(save.status()).toBe(200);
      expect(save.request().postDataJSON()).toEqual({ profileImageURL: imageURL });
      await toast(session, 'Profile picture updated');
      expect(await picture.getByRole('alert').count()).toBe(0);

      const face = picture.getByRole('img', { name: 'Pia Picture' });
      await expect.poll(() => face.getAttribute('src')).toMatch(/\/uploads\/profile\//);
      const headerFace = page.getByRole('link', { name: 'Profile and appearance' }).getByRole('img');
      await expect.poll(() => headerFace.getAttribute('src')).toMatch(/\/uploads\/profile\//);
      // The browser really drew it (a broken link would leave it 0 wide).
      await expect.poll(() => face.evaluate((image) => (image as HTMLImageElement).naturalWidth)).toBe(1);

      const profile = await http(e2e.url).get('/api/auth/profile', user.token);
      expect(profile.body.user.profileImageURL).toMatch(/\/uploads\/profile\//);

      const removed = page.waitForResponse((response) => isProfilePut(response.url(), response.request().method()));
      await picture.getByRole('button', { name: 'Remove picture' }).click();
      const removal = await removed;
      expect(removal.status()).toBe(200);
      expect(removal.request().postDataJSON()).toEqual({ profileImageURL: '' });
      await toast(session, 'Profile picture removed');
      await expect.poll(() => picture.getByRole('img', { name: 'Pia Picture' }).getAttribute('src')).toBeNull();
      expect(await picture.getByRole('button', { name: 'Remove picture' }).count()).toBe(0);
      const cleared = await http(e2e.url).get('/api/auth/profile', user.token);
      expect(cleared.body.user.profileImageURL).toBeNull();
    } finally {
      await context.close();
    }
  });

  it('changes the password only with the current one; this browser stays signed in and the new one logs in', async () => {
    const user = await registerUser(e2e.url, 'tester', 'Pat Password');
    const session = await openProfile(e2e, user);
    const { context, page } = session;
    const newPassword = 'a much longer passphrase';
    try {
      const form = page.getByRole('form', { name: 'Change password' });
      const current = form.getByLabel('Current password', { exact: true });
      const fresh = form.getByLabel('New password', { exact: true });
      const confirm = form.getByLabel('Confirm new password', { exact: true });
      const submit = form.getByRole('button', { name: 'Change password' });
      const puts: string[] = [];
      page.on('request', (request) => {
        if (isProfilePut(request.url(), request.method())) puts.push(request.url());
      });
      // Every earlier token dies with the change: no request of this page may meet a 401, which
      // would sign out (the live stream's reconnection may: it waits for the new token, quietly).
      const refusedTokens: string[] = [];
      page.on('response', (response) => {
        const { pathname } = new URL(response.url());
        if (response.status() === 401 && pathname !== '/api/events') refusedTokens.push(pathname);
      });

      // Checked here first: the two new ones must match.
      await current.fill('not my password');
      await fresh.fill(newPassword);
      await confirm.fill('a much longer passphrasf');
      await submit.click();
      await expect.poll(() => description(confirm)).toBe('Passwords do not match');
      await expect.poll(() => hasFocus(confirm)).toBe(true);
      expect(puts).toEqual([]);

      // A wrong current password: the server's message under that field, emptied and focused.
      await confirm.fill(newPassword);
      const wrong = page.waitForResponse((response) => isProfilePut(response.url(), response.request().method()));
      await submit.click();
      const refused = await wrong;
      expect(refused.status()).toBe(403);
      const { message } = (await refused.json()) as { message: string };
      expect(message).toBe('Current password is incorrect');
      await expect.poll(() => description(current)).toBe(message);
      expect(await current.inputValue()).toBe('');
      await expect.poll(() => hasFocus(current)).toBe(true);
      await capture(page, 'profile-account-password-refused');

      const oldToken = await page.evaluate(() => localStorage.getItem('token'));
      await current.fill(PASSWORD);
      const right = page.waitForResponse((response) => isProfilePut(response.url(), response.request().method()));
      await submit.click();
      const accepted = await right;
      expect(accepted.status()).toBe(200);
      expect(accepted.request().postDataJSON()).toEqual({ password: newPassword, currentPassword: PASSWORD });
      const answer = (await accepted.json()) as { token?: string };
      expect(answer.token).toBeTruthy();
      await toast(session, 'Password changed');
      for (const field of [current, fresh, confirm]) expect(await field.inputValue()).toBe('');

      // The server revoked every earlier token and handed this browser a new one, which it keeps.
      await expect.poll(() => page.evaluate(() => localStorage.getItem('token'))).toBe(answer.token);
      expect(answer.token).not.toBe(oldToken);
      expect((await http(e2e.url).get('/api/auth/profile', user.token)).status).toBe(401);
      expect((await http(e2e.url).get('/api/auth/profile', answer.token)).status).toBe(200);
      await page.reload();
      await page.getByRole('heading', { level: 2, name: 'Account' }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/profile');
      expect(refusedTokens).toEqual([]);

      const login = await http(e2e.url).post('/api/auth/login', { email: user.email, password: newPassword });
      expect(login.status).toBe(200);
      expect(login.body.token).toBeTruthy();
      const old = await http(e2e.url).post('/api/auth/login', { email: user.email, password: PASSWORD });
      expect(old.status).toBe(401);
    } finally {
      await context.close();
    }
  });

  it('has no serious accessibility fault and fits 1280 and 390 px, light and dark', async () => {
    const user = await registerUser(e2e.url, 'admin', 'Alex Appearance');
    // A picture, so the remove button shows too (uploaded as the page does it).
    const form = new FormData();
    form.append('image', new Blob([new Uint8Array(onePixelPng(116, 51, 239))], { type: 'image/png' }), 'me.png');
    const upload = await fetch(`${e2e.url}/api/auth/upload-image`, { method: 'POST', body: form });
    expect(upload.status).toBe(201);
    const { imageURL } = (await upload.json()) as { imageURL: string };
    const saved = await http(e2e.url).put(`/api/users/${user.id}`, { profileImageURL: imageURL }, user.token);
    expect(saved.status).toBe(200);

    const { context, page } = await openProfile(e2e, user);
    try {
      await page.getByRole('region', { name: 'Picture' }).getByRole('button', { name: 'Remove picture' }).waitFor();
      for (const theme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: theme });
        await page.reload();
        await page.getByRole('heading', { level: 2, name: 'Account' }).waitFor();
        // With the email changed, the current password field shows as well.
        await page
          .getByRole('form', { name: 'Name and email' })
          .getByLabel('Email', { exact: true })
          .fill('alex.new@example.com');
        await page.getByRole('form', { name: 'Name and email' }).getByLabel('Current password').waitFor();
        expect(await seriousViolations(page, `profile (${theme})`)).toEqual([]);
        for (const width of [390, 1280]) {
          await page.setViewportSize({ width, height: width === 390 ? 844 : 860 });
          expect(await noSideScroll(page), `profile (${theme}): no side scroll at ${width}`).toBe(true);
        }
        await capture(page, theme === 'light' ? 'profile-account' : 'profile-account-dark');
      }
    } finally {
      await context.close();
    }
  });
});
