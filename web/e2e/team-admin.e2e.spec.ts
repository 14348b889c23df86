import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  capture,
  type E2E,
  http,
  noSideScroll,
  openPage,
  registerUser,
  type Session,
  seriousViolations,
  startE2E,
  type TestUser,
  toast,
} from './harness.js';
import { totp } from './totp.js';

/**
 * Managing people from Team Members (api.md "People"): search and order kept in the URL,
 * roles, deactivate and reactivate (the person's tokens stop at once), a one-use reset
 * link opened in another browser, admin invite codes shown once and revoked, and the
 * public forgot/reset password pages. Screens in both themes; axe on the new screens.
 */
const PASSWORD = 'correct horse battery';
const NEW_PASSWORD = 'a brand new passphrase';

const teamList = (page: Page) => page.getByRole('list', { name: 'Team members' });
const card = (page: Page, name: string) =>
  teamList(page)
    .getByRole('listitem')
    .filter({ has: page.getByText(name, { exact: true }) });
/** The names on the cards, in the order shown. */
const shownNames = (page: Page) =>
  teamList(page)
    .getByRole('listitem')
    .evaluateAll((items) => items.map((item) => item.querySelector('p')?.textContent ?? ''));

describe('team admin: search, roles, deactivate, reset links, invite codes, forgot password', () => {
  let e2e: E2E;
  let admin: TestUser;
  let kim: TestUser;
  let quinn: TestUser;
  let sam: TestUser;
  let blair: TestUser;
  let session: Session;

  beforeAll(async () => {
    e2e = await startE2E();
    admin = await registerUser(e2e.url, 'admin', 'Avery Admin');
    kim = await registerUser(e2e.url, 'developer', 'Kim Frontend');
    await registerUser(e2e.url, 'developer', 'Drew Backend');
    quinn = await registerUser(e2e.url, 'tester', 'Quinn QA');
    sam = await registerUser(e2e.url, 'tester', 'Sam Support');
    blair = await registerUser(e2e.url, 'admin', 'Blair Admin');
    // Someone who left: listed, dimmed, badged.
    const lee = await registerUser(e2e.url, 'developer', 'Lee Leaver');
    const gone = await http(e2e.url).post(`/api/users/${lee.id}/deactivate`, {}, admin.token);
    expect(gone.status, JSON.stringify(gone.body)).toBe(200);
    expect(gone.body.user.deactivated).toBe(true);
    session = await openPage(e2e, { user: admin });
    await session.page.emulateMedia({ colorScheme: 'light', reducedMotion: 'reduce' });
  }, 180_000);
  afterAll(async () => {
    await session?.context.close();
    await e2e?.close();
  });

  it('lists everyone, the deactivated with deactivated: true on their user object', async () => {
    const answer = await http(e2e.url).get('/api/users', admin.token);
    expect(answer.status).toBe(200);
    const users = answer.body as { name: string; deactivated?: unknown }[];
    expect(users).toHaveLength(7);
    // api.md "People": `deactivated: true` on theirs; the others' is false or left out (the web reads both).
    for (const user of users) expect(user.deactivated ?? false).toBe(user.name === 'Lee Leaver');
  });

  it('searches by name or email and sorts; both live in the URL and survive a reload', async () => {
    const { page } = session;
    await page.goto('/admin/users');
    await card(page, 'Kim Frontend').waitFor();
    expect(await shownNames(page)).toEqual([
      'Avery Admin',
      'Blair Admin',
      'Drew Backend',
      'Kim Frontend',
      'Lee Leaver',
      'Quinn QA',
      'Sam Support',
    ]);
    // The one who left is listed, with a badge; the admin's own card offers no Deactivate.
    await card(page, 'Lee Leaver').getByText('Deactivated', { exact: true }).waitFor();
    expect(
      await card(page, 'Avery Admin')
        .getByRole('button', { name: /^Deactivate/ })
        .count(),
    ).toBe(0);
    expect(await noSideScroll(page)).toBe(true);
    await capture(page, 'team-admin');

    await page.getByLabel('Search team members').fill('KIM');
    await page.waitForURL(/[?&]q=KIM/);
    await expect.poll(() => shownNames(page)).toEqual(['Kim Frontend']);
    await page.getByLabel('Search team members').fill(sam.email.toUpperCase());
    await expect.poll(() => shownNames(page)).toEqual(['Sam Support']);
    await page.getByLabel('Search team members').fill('dmin');
    await expect.poll(() => shownNames(page)).toEqual(['Avery Admin', 'Blair Admin']);
    await page.getByLabel('Sort by').selectOption('role');
    await page.waitForURL(/[?&]sort=role/);

    await page.reload();
    await card(page, 'Blair Admin').waitFor();
    expect(await page.getByLabel('Search team members').inputValue()).toBe('dmin');
    expect(await page.getByLabel('Sort by').inputValue()).toBe('role');
    expect(await shownNames(page)).toEqual(['Avery Admin', 'Blair Admin']);

    await page.getByLabel('Search team members').fill('nobody here');
    await page.getByText('No team members match “nobody here”').waitFor();
    await page.getByLabel('Search team members').fill('');
    await page.waitForURL((url) => !url.searchParams.has('q'));
    // By role: admins, testers, developers (the vocabulary's order), each by name.
    await expect
      .poll(() => shownNames(page))
      .toEqual(['Avery Admin', 'Blair Admin', 'Quinn QA', 'Sam Support', 'Drew Backend', 'Kim Frontend', 'Lee Leaver']);
    await page.getByLabel('Sort by').selectOption('name');
    await page.waitForURL((url) => !url.searchParams.has('sort'));
  });

  it('changes a role after a confirm', async () => {
    const { page } = session;
    const role = page.getByRole('combobox', { name: 'Role of Quinn QA' });
    expect(await role.inputValue()).toBe('tester');
    await role.selectOption('developer');
    const dialog = page.getByRole('dialog', { name: 'Change Role' });
    await dialog.getByRole('button', { name: 'Change Role' }).click();
    await toast(session, 'Quinn QA is now a Developer');
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => role.inputValue()).toBe('developer');
    const stored = await http(e2e.url).get(`/api/users/${quinn.id}`, admin.token);
    expect(stored.body.role).toBe('developer');
  });

  it("resets a member's two-factor sign-in after a confirm: their password alone signs in again", async () => {
    const { page } = session;
    const api = http(e2e.url);
    const setup = await api.post('/api/auth/mfa/setup', { currentPassword: 'correct horse battery' }, kim.token);
    expect(setup.status, JSON.stringify(setup.body)).toBe(200);
    const code = totp(setup.body.secret);
    expect((await api.post('/api/auth/mfa/enable', { code }, kim.token)).status).toBe(200);
    const login = () => api.post('/api/auth/login', { email: kim.email, password: 'correct horse battery' });
    expect((await login()).body.mfaRequired).toBe(true);

    await card(page, 'Kim Frontend').getByRole('button', { name: 'Reset 2FA for Kim Frontend' }).click();
    const dialog = page.getByRole('dialog', { name: 'Reset Two-Factor Authentication' });
    await dialog.getByText('told by notification and email').waitFor();
    await capture(page, 'team-admin-reset-mfa-confirm');
    await dialog.getByRole('button', { name: 'Reset 2FA', exact: true }).click();
    await toast(session, 'Two-factor authentication is off for Kim Frontend');
    await dialog.waitFor({ state: 'detached' });
    expect(typeof (await login()).body.token).toBe('string');
  });

  it('deactivates after a confirm: badge shown, their token refused at once, login refused', async () => {
    const { page } = session;
    expect((await http(e2e.url).get('/api/auth/profile', sam.token)).status).toBe(200);
    await card(page, 'Sam Support').getByRole('button', { name: 'Deactivate Sam Support' }).click();
    const dialog = page.getByRole('dialog', { name: 'Deactivate Member' });
    await dialog.getByText('signed out everywhere at once').waitFor();
    // Escape leaves everything as it was.
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await card(page, 'Sam Support').getByText('Deactivated', { exact: true }).count()).toBe(0);

    await card(page, 'Sam Support').getByRole('button', { name: 'Deactivate Sam Support' }).click();
    await capture(page, 'team-admin-deactivate-confirm');
    await dialog.getByRole('button', { name: 'Deactivate', exact: true }).click();
    await toast(session, 'Sam Support is deactivated');
    await dialog.waitFor({ state: 'detached' });
    await card(page, 'Sam Support').getByText('Deactivated', { exact: true }).waitFor();
    await card(page, 'Sam Support').getByRole('button', { name: 'Reactivate Sam Support' }).waitFor();

    expect((await http(e2e.url).get('/api/auth/profile', sam.token)).status).toBe(401);
    const login = await http(e2e.url).post('/api/auth/login', { email: sam.email, password: PASSWORD });
    expect(login.status).toBe(403);
    expect(login.body.message).toBe('Your account has been deactivated');
  });

  it('reactivates: the badge goes and they can log in again', async () => {
    const { page } = session;
    await card(page, 'Sam Support').getByRole('button', { name: 'Reactivate Sam Support' }).click();
    await toast(session, 'Sam Support can sign in again');
    await card(page, 'Sam Support').getByRole('button', { name: 'Deactivate Sam Support' }).waitFor();
    expect(await card(page, 'Sam Support').getByText('Deactivated', { exact: true }).count()).toBe(0);
    const login = await http(e2e.url).post('/api/auth/login', { email: sam.email, password: PASSWORD });
    expect(login.status).toBe(200);
  });

  it('makes a reset link that works once, in another browser', async () => {
    const { page } = session;
    await card(page, 'Kim Frontend').getByRole('button', { name: 'Reset link for Kim Frontend' }).click();
    const dialog = page.getByRole('dialog', { name: 'Reset link for Kim Frontend' });
    const field = dialog.getByLabel('Reset link');
    await field.waitFor();
    const url = await field.inputValue();
    expect(url).toContain('token=');
    expect(new URL(url).pathname).toBe('/reset-password');
    await dialog.getByText(/works once and expires on/).waitFor();
    // The link is focused and selected, ready to copy.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('readonly'))).not.toBeNull();
    await dialog.getByRole('button', { name: /^Cop/ }).click();
    await capture(page, 'team-admin-reset-link');
    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'detached' });

    const visitor = await openPage(e2e);
    try {
      const other = visitor.page;
      await other.goto(url);
      await other.getByRole('heading', { name: 'Set a new password' }).waitFor();
      await other.getByLabel('New Password', { exact: true }).fill(NEW_PASSWORD);
      await other.getByLabel('Confirm New Password', { exact: true }).fill('not the same');
      await other.getByRole('button', { name: 'Set new password' }).click();
      await other.getByRole('alert').filter({ hasText: 'The passwords do not match' }).waitFor();
      await other.getByLabel('Confirm New Password', { exact: true }).fill(NEW_PASSWORD);
      await capture(other, 'reset-password');
      await other.getByRole('button', { name: 'Set new password' }).click();
      await other.waitForURL('**/login');
      await visitor.page.locator('[data-sonner-toast]').first().waitFor();

      await other.getByLabel('Email Address').fill(kim.email);
      await other.getByLabel('Password', { exact: true }).fill(NEW_PASSWORD);
      await other.getByRole('button', { name: 'Login' }).click();
      await other.waitForURL('**/developer/dashboard');

      // Once only: the same link again is refused, in the server's words.
      await other.evaluate(() => localStorage.removeItem('token'));
      await other.goto(url);
      await other.getByLabel('New Password', { exact: true }).fill('yet another passphrase');
      await other.getByLabel('Confirm New Password', { exact: true }).fill('yet another passphrase');
      const refused = other.waitForResponse((response) => response.url().endsWith('/api/auth/reset'));
      await other.getByRole('button', { name: 'Set new password' }).click();
      const answer = await refused;
      expect(answer.status()).toBe(400);
      const message = ((await answer.json()) as { message: string }).message;
      await other.getByRole('alert').filter({ hasText: message }).waitFor();
      expect(other.url()).toContain('/reset-password');
    } finally {
      await visitor.context.close();
    }
    const old = await http(e2e.url).post('/api/auth/login', { email: kim.email, password: PASSWORD });
    expect(old.status).toBe(401);
  });

  it('mints an invite code shown once, lists it without the code, and revokes it', async () => {
    const { page } = session;
    const section = page.getByRole('region', { name: 'Invite codes' });
    await section.getByText('No live invite codes').waitFor();
    await section.getByRole('button', { name: 'New invite code' }).click();
    const dialog = page.getByRole('dialog', { name: 'New invite code' });
    const code = await dialog.getByLabel('Invite code').inputValue();
    expect(code).toMatch(/^\d{6}$/);
    await dialog.getByText('This code will not be shown again').waitFor();
    await capture(page, 'team-admin-invite-code');
    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'detached' });

    const live = section.getByRole('list', { name: 'Live invite codes' });
    await live.getByRole('listitem').first().waitFor();
    expect(await live.getByRole('listitem').count()).toBe(1);
    await live.getByText('Avery Admin').waitFor();
    expect(await page.locator('body').textContent()).not.toContain(code);
    const listed = await http(e2e.url).get('/api/auth/invite-codes', admin.token);
    expect(listed.status).toBe(200);
    expect(JSON.stringify(listed.body)).not.toContain(code);
    await capture(page, 'team-admin-invite-list');

    await live.getByRole('button', { name: /^Revoke invite code created by Avery Admin/ }).click();
    const confirm = page.getByRole('dialog', { name: 'Revoke Invite Code' });
    await confirm.getByRole('button', { name: 'Revoke' }).click();
    await toast(session, 'Invite code revoked');
    await section.getByText('No live invite codes').waitFor();
    const signup = await http(e2e.url).post('/api/auth/register', {
      name: 'Late Admin',
      email: `late.${Date.now()}@example.com`,
      password: PASSWORD,
      role: 'admin',
      adminInviteToken: code,
    });
    expect(signup.status).toBe(403);
  });

  it('an admin who takes another role keeps going with the new token', async () => {
    const own = await openPage(e2e, { user: blair });
    try {
      const { page } = own;
      await page.goto('/admin/users');
      await page.getByRole('combobox', { name: 'Role of Blair Admin' }).selectOption('developer');
      const dialog = page.getByRole('dialog', { name: 'Change Role' });
      await dialog.getByText('this one goes on with the new role').waitFor();
      await dialog.getByRole('button', { name: 'Change Role' }).click();
      await toast(own, 'Blair Admin is now a Developer');
      await page.waitForURL('**/developer/dashboard');
      const token = await page.evaluate(() => localStorage.getItem('token'));
      expect(token).not.toBe(blair.token);
      const profile = await http(e2e.url).get('/api/auth/profile', token ?? '');
      expect(profile.status).toBe(200);
      expect(profile.body.user.role).toBe('developer');
    } finally {
      await own.context.close();
    }
  });

  it('sends the forgot-password request from the login page and shows what the server says', async () => {
    const visitor = await openPage(e2e);
    try {
      const { page } = visitor;
      await page.goto('/login');
      await page.getByRole('link', { name: 'Forgot password?' }).waitFor();
      await capture(page, 'login-forgot-link');
      await page.getByRole('link', { name: 'Forgot password?' }).click();
      await page.waitForURL('**/forgot-password');
      await page.getByRole('heading', { name: 'Forgot your password?' }).waitFor();
      await page.getByRole('button', { name: 'Send reset link' }).click();
      await page.getByRole('alert').filter({ hasText: 'Please enter a valid email address' }).waitFor();
      await capture(page, 'forgot-password');
      await page.getByLabel('Email Address').fill(sam.email);
      const sent = page.waitForResponse((response) => response.url().endsWith('/api/auth/forgot'));
      await page.getByRole('button', { name: 'Send reset link' }).click();
      const answer = await sent;
      expect(answer.status()).toBe(202);
      const message = ((await answer.json()) as { message: string }).message;
      expect(message.length).toBeGreaterThan(0);
      await page.getByRole('status').filter({ hasText: message }).waitFor();
      await capture(page, 'forgot-password-sent');
      await page.getByRole('link', { name: 'Back to login' }).click();
      await page.waitForURL('**/login');
    } finally {
      await visitor.context.close();
    }
  });

  it('reads well in the dark theme and passes axe in both, at 1280 and 390 px', async () => {
    const found: string[] = [];
    for (const theme of ['light', 'dark'] as const) {
      const dark = await openPage(e2e, { user: admin });
      try {
        const { page } = dark;
        await page.emulateMedia({ colorScheme: theme, reducedMotion: 'reduce' });
        await page.goto('/admin/users');
        await card(page, 'Lee Leaver').getByText('Deactivated', { exact: true }).waitFor();
        await page.getByRole('region', { name: 'Invite codes' }).getByText('No live invite codes').waitFor();
        found.push(...(await seriousViolations(page, `team (${theme})`)));
        for (const width of [1280, 390]) {
          await page.setViewportSize({ width, height: 844 });
          expect(await noSideScroll(page), `no side scroll at ${width} (${theme})`).toBe(true);
        }
        await page.setViewportSize({ width: 1280, height: 860 });
        if (theme === 'dark') await capture(page, 'team-admin-dark');
        await card(page, 'Drew Backend').getByRole('button', { name: 'Reset link for Drew Backend' }).click();
        await page.getByRole('dialog', { name: 'Reset link for Drew Backend' }).waitFor();
        found.push(...(await seriousViolations(page, `reset link dialog (${theme})`)));
        if (theme === 'dark') await capture(page, 'team-admin-reset-link-dark');
        await page.keyboard.press('Escape');

        await page.goto('/forgot-password');
        await page.getByRole('heading', { name: 'Forgot your password?' }).waitFor();
        found.push(...(await seriousViolations(page, `forgot password (${theme})`)));
        if (theme === 'dark') await capture(page, 'forgot-password-dark');
        await page.goto('/reset-password?token=abc');
        await page.getByRole('heading', { name: 'Set a new password' }).waitFor();
        found.push(...(await seriousViolations(page, `reset password (${theme})`)));
        if (theme === 'dark') await capture(page, 'reset-password-dark');
      } finally {
        await dark.context.close();
      }
    }
    expect(found, found.join('\n')).toEqual([]);
  }, 120_000);
});
