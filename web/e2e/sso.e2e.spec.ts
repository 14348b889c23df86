import { ssoMessages } from '@bugtrail/domain/vocabulary';
import { freePort } from '@bugtrail/testing';
import { type OidcProviderServer, signInAtProvider as scriptedSignIn, startOidcProvider } from '@bugtrail/testing/oidc';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capture, type E2E, http, openPage, registerUser, startE2E } from './harness.js';

/**
 * Single sign-on in Chromium (api.md "People", issue 15), against a real OpenID provider
 * (`oidc-provider`) started here on 127.0.0.1: the login page's "Sign in with …" button,
 * the provider's own login and consent pages, and back into the app signed in. A new
 * person becomes a tester; an existing one keeps their role; an unverified email and an
 * answer whose state is not this browser's are refused on the login page, signed in as nobody.
 */
describe('single sign-on in the browser', () => {
  let provider: OidcProviderServer;
  let e2e: E2E;
  let redirectUri: string;

  beforeAll(async () => {
    // The provider must know where to send people back before the product starts, so its port is chosen first.
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    redirectUri = `${origin}/api/auth/oidc/callback`;
    provider = await startOidcProvider({
      redirectUri,
      accounts: { 'not-verified': { email: 'not.verified@example.com', emailVerified: false } },
    });
    e2e = await startE2E({ env: { ...provider.env, PORT: String(port), PUBLIC_URL: origin } });
  }, 120_000);
  afterAll(async () => {
    await e2e?.close();
    await provider?.close();
  });

  /** At the provider: its development login (any password), then its consent page. */
  async function signInAtProvider(page: Page, login: string) {
    await page.waitForURL((url) => url.href.startsWith(provider.issuer));
    await page.locator('input[name="login"]').fill(login);
    await page.locator('input[name="password"]').fill('whatever the provider accepts');
    await page.getByRole('button', { name: 'Sign-in' }).click();
    await page.getByRole('button', { name: 'Continue' }).click();
  }
  const storedToken = (page: Page) => page.evaluate(() => window.localStorage.getItem('token'));

  it('shows the button, and signs a new person in as a tester', async () => {
    const { context, page } = await openPage(e2e);
    await page.goto('/login');
    const button = page.getByRole('link', { name: 'Sign in with Test IdP' });
    await button.waitFor();
    await capture(page, 'sso-login');
    await button.click();
    await signInAtProvider(page, 'sso.newcomer@example.com');
    await page.waitForURL('**/tester/dashboard');
    // The one-time code left the address bar.
    expect(new URL(page.url()).hash).toBe('');
    const token = await storedToken(page);
    const profile = await http(e2e.url).get('/api/auth/profile', token!);
    expect(profile.body.user).toMatchObject({ email: 'sso.newcomer@example.com', role: 'tester' });
    await context.close();
  });

  it('signs an existing account in with its own role', async () => {
    const developer = await registerUser(e2e.url, 'developer', 'Dev Sso');
    const { context, page } = await openPage(e2e);
    await page.goto('/login');
    await page.getByRole('link', { name: 'Sign in with Test IdP' }).click();
    await signInAtProvider(page, developer.email);
    await page.waitForURL('**/developer/dashboard');
    const profile = await http(e2e.url).get('/api/auth/profile', (await storedToken(page))!);
    expect(profile.body.user._id).toBe(developer.id);
    await context.close();
  });

  it('refuses an email the provider has not verified', async () => {
    const { context, page } = await openPage(e2e);
    await page.goto('/login');
    await page.getByRole('link', { name: 'Sign in with Test IdP' }).click();
    await signInAtProvider(page, 'not-verified');
    await page.waitForURL('**/login?sso_error=unverified');
    await page.getByRole('alert').filter({ hasText: ssoMessages.unverified }).waitFor();
    await capture(page, 'sso-refused');
    expect(await storedToken(page)).toBeNull();
    await context.close();
  });

  it('refuses an answer whose state is not the one this browser was given', async () => {
    // Login forgery: someone finishes a sign-in of their own at the provider, keeps the answer,
    // and gets this browser (which started its own sign-in) to open it.
    const theirs = await fetch(`${e2e.url}/api/auth/oidc/start`, { redirect: 'manual' });
    const forged = await scriptedSignIn(theirs.headers.get('location')!, redirectUri, 'forger@example.com');
    const { context, page } = await openPage(e2e);
    await page.goto('/login');
    await page.getByRole('link', { name: 'Sign in with Test IdP' }).click();
    await page.waitForURL((url) => url.href.startsWith(provider.issuer));
    await page.goto(forged.href);
    await page.waitForURL('**/login?sso_error=state');
    await page.getByRole('alert').filter({ hasText: ssoMessages.state }).waitFor();
    expect(await storedToken(page)).toBeNull();
    const { rowCount } = await e2e.product.db.query('select 1 from auth.credentials where email = $1', [
      'forger@example.com',
    ]);
    expect(rowCount).toBe(0);
    await context.close();
  });
});
