import { startSmtpServer } from '@bugtrail/testing';
import type { Page } from 'playwright-core';
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
 * Notification email preferences (api.md "People", issue 15): the profile's radio group
 * saves a pick at once (PUT /api/users/{id}/preferences) and puts the old one back when the
 * server refuses; the public /unsubscribe page asks before it posts the mail's token (mail
 * scanners open links) and shows the server's answer. A valid token comes only in a mail:
 * the server's own tests cover that path.
 */
async function fitsAt390And1280(page: Page, label: string) {
  const size = page.viewportSize() ?? { width: 1280, height: 860 };
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 844 });
    expect(await noSideScroll(page), `${label}: no side scroll at ${width}`).toBe(true);
  }
  await page.setViewportSize(size);
}

const isPreferencesPut = (url: string, method: string) =>
  method === 'PUT' && /\/api\/users\/[^/]+\/preferences$/.test(url);
const isUnsubscribePost = (url: string, method: string) =>
  method === 'POST' && url.endsWith('/api/notifications/unsubscribe');

describe('mail preferences: the profile choice and one-click unsubscribe', () => {
  let e2e: E2E;
  let tester: TestUser;

  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;

  beforeAll(async () => {
    // The choices are offered only where mail is sent at all.
    smtp = await startSmtpServer();
    e2e = await startE2E({ env: { SMTP_URL: smtp.url } });
    tester = await registerUser(e2e.url, 'tester', 'Pat Preferences');
  });
  afterAll(async () => {
    await e2e?.close();
    await smtp?.close();
  });

  it('shows "Right away" by default, saves "Never" at once, keeps it over a reload, and reverts a refusal', async () => {
    const session = await openPage(e2e, { user: tester });
    const { context, page } = session;
    try {
      const fresh = await http(e2e.url).get('/api/auth/profile', tester.token);
      expect(fresh.status).toBe(200);
      expect(fresh.body.user.preferences).toEqual({ email: 'immediate' });
      expect(Object.keys(fresh.body)).toEqual(['user']);
      expect((await http(e2e.url).get('/api/auth/mail', tester.token)).body).toEqual({ configured: true });

      await page.goto('/profile');
      await page.getByRole('heading', { name: 'Notifications' }).waitFor();
      const group = page.getByRole('group', { name: 'Email me about notifications' });
      await group.waitFor();
      expect(await group.getByRole('radio', { name: 'Right away', exact: true }).isChecked()).toBe(true);
      expect(await group.getByRole('radio', { name: 'Once a day, as a digest', exact: true }).isChecked()).toBe(false);
      expect(await group.getByRole('radio', { name: 'Never', exact: true }).isChecked()).toBe(false);

      // A pick is a save: one PUT with the caller's own id, no Save button.
      const saved = page.waitForResponse((response) => isPreferencesPut(response.url(), response.request().method()));
      await group.getByText('Never', { exact: true }).click();
      const answer = await saved;
      expect(answer.request().url()).toContain(`/api/users/${tester.id}/preferences`);
      expect(answer.request().postDataJSON()).toEqual({ email: 'off' });
      expect(answer.status()).toBe(200);
      expect(await answer.json()).toEqual({ preferences: { email: 'off' } });
      await toast(session, 'Notification preferences saved');
      expect(await group.getByRole('radio', { name: 'Never', exact: true }).isChecked()).toBe(true);

      await page.reload();
      await page.getByRole('heading', { name: 'Notifications' }).waitFor();
      expect(await group.getByRole('radio', { name: 'Never', exact: true }).isChecked()).toBe(true);
      expect(await group.getByRole('radio', { name: 'Right away', exact: true }).isChecked()).toBe(false);
      const profile = await http(e2e.url).get('/api/auth/profile', tester.token);
      expect(profile.status).toBe(200);
      expect(profile.body.user.preferences).toEqual({ email: 'off' });
      await capture(page, 'profile-notifications');
      await fitsAt390And1280(page, 'profile');

      // A refusal puts the old choice back and says why, in the server's words.
      const refusal = 'Preferences cannot be changed right now';
      await page.route('**/api/users/*/preferences', (route) =>
        route.request().method() === 'PUT'
          ? route.fulfill({ status: 400, contentType: 'application/json', body: JSON.stringify({ message: refusal }) })
          : route.fallback(),
      );
      await group.getByText('Once a day, as a digest', { exact: true }).click();
      await toast(session, refusal);
      await expect.poll(() => group.getByRole('radio', { name: 'Never', exact: true }).isChecked()).toBe(true);
      expect(await group.getByRole('radio', { name: 'Once a day, as a digest', exact: true }).isChecked()).toBe(false);
      await page.unroute('**/api/users/*/preferences');
      const unchanged = await http(e2e.url).get('/api/auth/profile', tester.token);
      expect(unchanged.body.user.preferences).toEqual({ email: 'off' });

      // In the dark theme too, without serious accessibility faults.
      await page.emulateMedia({ colorScheme: 'dark' });
      await page.reload();
      await page.getByRole('heading', { name: 'Notifications' }).waitFor();
      expect(await seriousViolations(page, 'profile (dark)')).toEqual([]);
      await capture(page, 'profile-notifications-dark');
    } finally {
      await context.close();
    }
  });

  it('posts nothing on load, asks first, and shows the server’s refusal of a bad token', async () => {
    const { context, page } = await openPage(e2e);
    const posts: string[] = [];
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (isUnsubscribePost(request.url(), request.method())) posts.push(request.url());
      if (request.url().endsWith('.js')) scripts.push(new URL(request.url()).pathname);
    });
    try {
      await page.goto('/unsubscribe?token=not-a-real-token');
      await page.getByRole('heading', { level: 1, name: 'Stop notification emails?' }).waitFor();
      await page.waitForFunction(() => document.title === 'Unsubscribe — Bugtrail');
      const button = page.getByRole('button', { name: 'Unsubscribe', exact: true });
      await button.waitFor();
      // A mail scanner that opens the link unsubscribes no one.
      await page.waitForLoadState('networkidle');
      expect(posts).toEqual([]);
      // A public page: none of the signed-in app's layout comes with it.
      expect(scripts.filter((file) => /app-layout|dashboard|charts/.test(file))).toEqual([]);
      await capture(page, 'unsubscribe');
      await fitsAt390And1280(page, 'unsubscribe');

      const refused = page.waitForResponse((response) =>
        isUnsubscribePost(response.url(), response.request().method()),
      );
      await button.click();
      const answer = await refused;
      expect(answer.request().postDataJSON()).toEqual({ token: 'not-a-real-token' });
      expect(answer.status()).toBe(400);
      const { message } = (await answer.json()) as { message: string };
      expect(message).toBeTruthy();
      await page.getByRole('alert').filter({ hasText: message }).waitFor();
      expect(posts).toHaveLength(1);
      await capture(page, 'unsubscribe-refused');

      await page.emulateMedia({ colorScheme: 'dark' });
      await page.goto('/unsubscribe?token=not-a-real-token');
      await page.getByRole('heading', { level: 1, name: 'Stop notification emails?' }).waitFor();
      expect(await seriousViolations(page, 'unsubscribe (dark)')).toEqual([]);
      await capture(page, 'unsubscribe-dark');

      // The success branch, as the contract words it (a real token comes only in a mail; the
      // server's tests follow that path): the server's message and the address, nothing more to press.
      const done = { message: 'You will no longer receive notification emails', email: 'pat@example.com' };
      await page.route('**/api/notifications/unsubscribe', (route) =>
        route.request().method() === 'POST'
          ? route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(done) })
          : route.fallback(),
      );
      await page.emulateMedia({ colorScheme: 'light' });
      await page.goto('/unsubscribe?token=a-token-from-a-mail');
      await page.getByRole('button', { name: 'Unsubscribe', exact: true }).click();
      const status = page.getByRole('status').filter({ hasText: done.message });
      await status.waitFor();
      expect(await status.textContent()).toContain(done.email);
      await page.getByRole('heading', { level: 1, name: "You're unsubscribed" }).waitFor();
      expect(await page.getByRole('button', { name: 'Unsubscribe', exact: true }).count()).toBe(0);
      await capture(page, 'unsubscribe-done');
      await page.unroute('**/api/notifications/unsubscribe');

      // A link with its token cut off says so, and offers nothing to press.
      await page.goto('/unsubscribe');
      await page.getByRole('alert').filter({ hasText: 'This unsubscribe link is incomplete' }).waitFor();
      expect(await page.getByRole('button', { name: 'Unsubscribe', exact: true }).count()).toBe(0);
      expect(posts).toHaveLength(2);
    } finally {
      await context.close();
    }
  });
});
