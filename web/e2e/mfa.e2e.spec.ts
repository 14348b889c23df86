import { mkdir } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2E, openPage, registerUser, startE2E } from './harness.js';
import { totp } from './totp.js';

const PASSWORD = 'correct horse battery'; // registerUser's
const SHOTS = '/tmp/shots';

/** Desktop and phone shots of the page as it is, into /tmp/shots/mfa-<name>-<width>.png. */
async function shoot(page: Page, name: string) {
  const size = page.viewportSize() ?? { width: 1280, height: 860 };
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 860 });
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    await page.waitForTimeout(150);
    await page.screenshot({ path: `${SHOTS}/mfa-${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize(size);
}

async function logIn(page: Page, email: string) {
  await page.goto('/login');
  await page.getByLabel('Email Address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
}

async function logOut(page: Page) {
  await page.getByRole('complementary', { name: 'Sidebar' }).getByRole('button', { name: 'Logout' }).click();
  await page.waitForURL('**/login');
}

describe('two-factor authentication in the browser', () => {
  let e2e: E2E;
  beforeAll(async () => {
    await mkdir(SHOTS, { recursive: true });
    e2e = await startE2E();
  });
  afterAll(async () => {
    await e2e?.close();
  });

  it('turns MFA on in the profile area, then signs in with an app code and with a recovery code', async () => {
    const tester = await registerUser(e2e.url, 'tester', 'Mia Factor');
    const { page, context } = await openPage(e2e);

    // Without MFA the login is the password alone.
    await logIn(page, tester.email);
    await page.waitForURL('**/tester/dashboard');

    await page.goto('/profile/security');
    await page.getByRole('heading', { level: 1, name: 'Security' }).waitFor();
    expect(await page.getByText('Off', { exact: true }).isVisible()).toBe(true);
    await shoot(page, 'off');
    // A session alone is not enough: the setup asks for the password first.
    await page.getByRole('button', { name: 'Set up authenticator app' }).click();
    await page.getByRole('alert').filter({ hasText: 'Current password is required' }).waitFor();
    await page.getByLabel('Current password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Set up authenticator app' }).click();
    const key = page.getByRole('figure', { name: /setup key/ }).locator('code');
    await key.waitFor();
    const secret = ((await key.textContent()) ?? '').replace(/\s+/g, '');
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const qr = page.getByRole('img', { name: 'QR code for your authenticator app' });
    await qr.waitFor();
    expect(await qr.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    await shoot(page, 'setup');

    await page.getByLabel('Authentication code').fill('000000' === totp(secret) ? '111111' : '000000');
    await page.getByRole('button', { name: 'Turn on' }).click();
    await page.getByRole('alert').filter({ hasText: 'Invalid authentication code' }).waitFor();
    await page.getByLabel('Authentication code').fill(totp(secret));
    await page.getByRole('button', { name: 'Turn on' }).click();
    const list = page.getByRole('list', { name: 'Recovery codes' });
    await list.waitFor();
    const recoveryCodes = (await list.getByRole('listitem').allTextContents()).map((c) => c.trim());
    expect(recoveryCodes).toHaveLength(10);
    for (const code of recoveryCodes) expect(code).toMatch(/^[a-z0-9]{5}-[a-z0-9]{5}$/);
    await shoot(page, 'recovery-codes');
    await page.getByRole('button', { name: "I've saved my codes" }).click();
    await page.getByRole('button', { name: 'Turn off two-factor authentication' }).waitFor();
    expect(await page.getByText('On', { exact: true }).isVisible()).toBe(true);

    await logOut(page);
    await logIn(page, tester.email);
    await page.getByRole('heading', { level: 1, name: 'Two-factor authentication' }).waitFor();
    expect(page.url()).toContain('/login');
    await shoot(page, 'login-code');
    // The enabling code was spent at its step; the app's next one works.
    await page.getByLabel('Authentication code').fill(totp(secret, 1));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL('**/tester/dashboard');
    await page.getByRole('complementary', { name: 'Sidebar' }).getByText('Mia Factor').waitFor();

    // Lost phone: a recovery code instead.
    await logOut(page);
    await logIn(page, tester.email);
    await page.getByRole('button', { name: 'Use a recovery code' }).click();
    await page.getByLabel('Recovery code').fill(recoveryCodes[0]!);
    await shoot(page, 'login-recovery');
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL('**/tester/dashboard');

    // The security page knows it is on (this login needed a code); turning it off needs the password.
    await page.goto('/profile/security');
    await page.getByRole('button', { name: 'Turn off two-factor authentication' }).waitFor();
    await shoot(page, 'on');
    await page.getByLabel('Authentication or recovery code').fill(recoveryCodes[1]!);
    await page.getByLabel('Current password', { exact: true }).fill('not my password');
    await page.getByRole('button', { name: 'Turn off two-factor authentication' }).click();
    await page.getByRole('alert').filter({ hasText: 'Current password is incorrect' }).waitFor();
    await page.getByLabel('Current password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Turn off two-factor authentication' }).click();
    await page.getByRole('button', { name: 'Set up authenticator app' }).waitFor();

    await logOut(page);
    await logIn(page, tester.email);
    await page.waitForURL('**/tester/dashboard');
    await context.close();
  });

  it('sends an expired two-step sign-in back to the password', async () => {
    const developer = await registerUser(e2e.url, 'developer', 'Dee Factor');
    const { page, context } = await openPage(e2e);
    const api = (path: string, body: unknown, token: string) =>
      fetch(`${e2e.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify(body),
      }).then((r) => r.json());
    const { secret } = await api('/api/auth/mfa/setup', { currentPassword: PASSWORD }, developer.token);
    await api('/api/auth/mfa/enable', { code: totp(secret) }, developer.token);

    await logIn(page, developer.email);
    await page.getByRole('heading', { level: 1, name: 'Two-factor authentication' }).waitFor();
    await e2e.product.db.query("update auth.mfa_challenges set expires_at = now() - interval '1 second'");
    await page.getByLabel('Authentication code').fill(totp(secret, 1));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('heading', { name: 'Welcome back' }).waitFor();
    await page.getByRole('alert').filter({ hasText: 'Two-factor sign-in expired. Please log in again' }).waitFor();
    await context.close();
  });
});
