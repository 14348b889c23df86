import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  capture,
  type E2E,
  noSideScroll,
  openPage,
  registerUser,
  seriousViolations,
  startE2E,
  toast,
} from './harness.js';

/**
 * The profile's Tokens card (issue 20): a person creates a token, sees its secret this once,
 * a script uses it the way curl would (a bare HTTP client, no browser session), and the
 * person revokes it; the script is refused from then on.
 */
describe('profile: API tokens', () => {
  let e2e: E2E;

  beforeAll(async () => {
    e2e = await startE2E();
  });
  afterAll(async () => {
    await e2e?.close();
  });

  it('creates a token shown once, a script reports a bug with it, and revoking it stops the script', async () => {
    const tester = await registerUser(e2e.url, 'tester', 'Scripting Sam');
    const developer = await registerUser(e2e.url, 'developer', 'Dee Dev');
    const session = await openPage(e2e, { user: tester });
    const { page } = session;
    await page.goto('/profile');
    await page.getByRole('heading', { level: 2, name: 'Tokens' }).waitFor();
    await page.getByText('You have no tokens.').waitFor();

    // An empty name is refused where it was typed.
    await page.getByRole('button', { name: 'Create token' }).click();
    await page.getByText('Please enter a token name').waitFor();

    await page.getByLabel('Token name').fill('nightly export');
    await page.getByLabel('Access').selectOption('write');
    await page.getByLabel('Expires after').selectOption('30');
    await page.getByRole('button', { name: 'Create token' }).click();
    const secretField = page.getByLabel('New token');
    await secretField.waitFor();
    const secret = await secretField.inputValue();
    expect(secret).toMatch(/^btp_[A-Za-z0-9_-]{43}$/);
    const row = page.getByRole('list', { name: 'Your tokens' }).getByRole('listitem');
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.first().textContent()).toContain('never used');
    expect(await noSideScroll(page)).toBe(true);
    expect(await seriousViolations(page, 'tokens card')).toEqual([]);
    await capture(page, 'profile-tokens');

    // A script, as curl would send it: no cookies, no browser, only the bearer token.
    const report = await fetch(`${e2e.url}/api/bugs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        title: 'Nightly export fails',
        description: 'The nightly export script stops at row 1,000',
        priority: 'High',
        severity: 'Major',
        assignedTo: [developer.id],
      }),
    });
    expect(report.status).toBe(201);
    const { bug } = (await report.json()) as { bug: { _id: string; createdBy: { _id: string } } };
    expect(bug.createdBy._id).toBe(tester.id);

    // "Done" hides the secret for good; the list shows the use.
    await page.getByRole('button', { name: 'Done' }).click();
    await expect.poll(() => secretField.count()).toBe(0);
    await page.reload();
    await expect.poll(async () => (await row.first().textContent()) ?? '').toContain('last used');
    expect(await page.content()).not.toContain(secret);

    await page.getByRole('button', { name: 'Revoke nightly export' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
    await toast(session, 'Token revoked');
    await page.getByText('You have no tokens.').waitFor();
    const refused = await fetch(`${e2e.url}/api/bugs`, { headers: { authorization: `Bearer ${secret}` } });
    expect(refused.status).toBe(401);
    await session.context.close();
  });
});
