import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capture, type E2E, openPage, registerUser, startE2E, TEST_INVITE_CODE } from './harness.js';

// A 1×1 PNG: the upload endpoint checks magic bytes, so it must be a real image.
const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

describe('public pages, signup, login, guard and logout', () => {
  let e2e: E2E;
  beforeAll(async () => {
    e2e = await startE2E();
  });
  afterAll(async () => {
    await e2e?.close();
  });

  it('sends a visitor from / to the landing page, which shows the pricing and contact', async () => {
    const { page, context } = await openPage(e2e);
    await page.goto('/');
    await page.waitForURL('**/landing');
    await page.getByRole('heading', { level: 1 }).waitFor();
    for (const text of ['Most Popular', '$79', '$199', 'Monday to Friday, 9 to 5 EST', 'Up to 5 team members']) {
      expect(await page.getByText(text, { exact: false }).first().isVisible()).toBe(true);
    }
    for (const anchor of ['features', 'pricing', 'about', 'contact', 'privacy', 'terms']) {
      expect(await page.locator(`header a[href="#${anchor}"]`).count()).toBe(1);
    }
    await capture(page, 'landing');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('button', { name: 'Open menu' }).click();
    expect(await page.locator('#mobile-menu a[href="#pricing"]').isVisible()).toBe(true);
    await page.locator('#mobile-menu').getByRole('link', { name: 'Get Started' }).click();
    await page.waitForURL('**/signup');
    await context.close();
  });

  it('shows the spec messages on an empty login and on wrong credentials', async () => {
    const { page, context } = await openPage(e2e);
    await page.goto('/login');
    await page.getByText('Join thousands of developers worldwide').waitFor();
    expect(
      await page
        .getByText(
          'The modern bug tracking solution for development teams. Track, prioritize, and fix bugs efficiently.',
        )
        .isVisible(),
    ).toBe(true);
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await page.getByText('Please enter a valid email address').waitFor();
    await page.getByText('Please enter the password').waitFor();
    await capture(page, 'login');
    await page.getByLabel('Email Address').fill('nobody@example.com');
    await page.getByLabel('Password', { exact: true }).fill('wrong password');
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: 'Invalid email or password' }).waitFor();
    await context.close();
  });

  it('validates signup and asks admins for the invite code', async () => {
    const { page, context } = await openPage(e2e);
    await page.goto('/signup');
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await page.getByText('Please enter full name').waitFor();
    expect(await page.getByText('Please enter a valid email address').isVisible()).toBe(true);
    expect(await page.getByText('Please enter the password').isVisible()).toBe(true);
    await page.getByLabel('Select Role').selectOption('admin');
    const invite = page.getByPlaceholder('6 Digit Code');
    await invite.waitFor();
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await page.getByText('Admin invite token is required for admin registration').waitFor();
    // Editing a field clears its message.
    await page.getByLabel('Full Name').fill('A');
    expect(await page.getByText('Please enter full name').count()).toBe(0);
    await capture(page, 'signup');
    await context.close();
  });

  it('signs a tester up with a photo, logs out, logs back in', async () => {
    const { page, context } = await openPage(e2e);
    await page.goto('/signup');
    await page.locator('#profile-photo').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: png });
    await page.getByAltText('Profile preview').waitFor();
    await page.getByLabel('Full Name').fill('Tess Tester');
    const email = `tess.${Date.now()}@example.com`;
    await page.getByLabel('Email Address').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('correct horse battery');
    await page.getByRole('button', { name: 'Show password' }).click();
    expect(await page.getByLabel('Password', { exact: true }).getAttribute('type')).toBe('text');
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await page.waitForURL('**/tester/dashboard');
    const sidebar = page.getByRole('complementary', { name: 'Sidebar' });
    await sidebar.getByText('Tess Tester').waitFor();
    expect(await sidebar.getByText(email).isVisible()).toBe(true);
    expect(await sidebar.getByText('Tester', { exact: true }).isVisible()).toBe(true);
    expect(await sidebar.locator('img[alt="Tess Tester"]').getAttribute('src')).toContain('/uploads/');
    for (const label of ['Dashboard', 'My Reported Bugs', 'All Bugs', 'Report Bug', 'Chats']) {
      expect(await sidebar.getByRole('link', { name: label }).isVisible()).toBe(true);
    }
    await sidebar.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL('**/login');
    expect(await page.evaluate(() => window.localStorage.length)).toBe(0);
    await page.goto('/tester/dashboard');
    await page.waitForURL('**/login');
    await page.getByLabel('Email Address').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('correct horse battery');
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await page.waitForURL('**/tester/dashboard');
    await context.close();
  });

  it('signs an admin up with the invite code', async () => {
    const { page, context } = await openPage(e2e);
    await page.goto('/signup');
    await page.getByLabel('Full Name').fill('Ada Admin');
    await page.getByLabel('Email Address').fill(`ada.${Date.now()}@example.com`);
    await page.getByLabel('Password', { exact: true }).fill('correct horse battery');
    await page.getByLabel('Select Role').selectOption('admin');
    await page.getByPlaceholder('6 Digit Code').fill('000000');
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await page.getByRole('alert').filter({ hasText: 'Invalid admin invite token' }).waitFor();
    await page.getByPlaceholder('6 Digit Code').fill(TEST_INVITE_CODE);
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await page.waitForURL('**/admin/dashboard');
    await context.close();
  });

  it('sends a wrong role home, and a dead token to /login with storage cleared', async () => {
    const developer = await registerUser(e2e.url, 'developer', 'Dev Guarded');
    const { page, context } = await openPage(e2e, { user: developer });
    await page.goto('/admin/bugs');
    await page.waitForURL('**/developer/dashboard');
    await page.goto('/tester/my-bugs');
    await page.waitForURL('**/developer/dashboard');
    await context.close();

    const stale = await openPage(e2e, { user: { ...developer, token: 'not-a-token' } });
    await stale.page.goto('/developer/dashboard');
    await stale.page.waitForURL('**/login');
    expect(await stale.page.evaluate(() => window.localStorage.getItem('token'))).toBeNull();
    await stale.context.close();
  });

  it('hides the sidebar under 1080px and offers a menu toggle', async () => {
    const tester = await registerUser(e2e.url, 'tester', 'Breakpoint Tester');
    const { page, context } = await openPage(e2e, { user: tester, width: 1080 });
    await page.goto('/tester/dashboard');
    const sidebar = page.getByRole('complementary', { name: 'Sidebar' });
    await sidebar.getByText('Breakpoint Tester').waitFor();
    expect(await page.getByRole('button', { name: 'Open menu' }).isVisible()).toBe(false);
    await page.setViewportSize({ width: 1079, height: 860 });
    await sidebar.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Open menu' }).click();
    const drawer = page.getByRole('dialog', { name: 'Menu' });
    await drawer.getByRole('link', { name: 'My Reported Bugs' }).click();
    await page.waitForURL('**/tester/my-bugs');
    expect(await drawer.count()).toBe(0);
    await context.close();
  });
});
