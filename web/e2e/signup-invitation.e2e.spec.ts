import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capture, type E2E, http, openPage, registerUser, type Session, startE2E, type TestUser } from './harness.js';

const PASSWORD = 'correct horse battery';

/**
 * Issue 40: sign-up by invitation. An admin switches Team Members to "By invitation only"
 * and invites a developer; a stranger's signup is refused without a code; the invitation
 * link opens the signup form with the role and code filled in, and the developer is in.
 */
describe('signup by invitation', () => {
  let e2e: E2E;
  let admin: TestUser;
  let session: Session;

  beforeAll(async () => {
    e2e = await startE2E();
    admin = await registerUser(e2e.url, 'admin', 'Avery Admin');
    session = await openPage(e2e, { user: admin });
  }, 120_000);
  afterAll(async () => {
    await session?.context.close();
    await e2e?.close();
  });

  let link = '';

  it('lets an admin make sign-up invitation-only and invite a developer with a link', async () => {
    const { page } = session;
    await page.goto('/admin/users');
    const section = page.getByRole('region', { name: 'Invite codes' });
    const policy = section.getByRole('group', { name: 'Who may sign up' });
    // The saved choice shows once the policy has loaded: open, the default.
    await policy.locator('input[type="radio"]:checked').waitFor();
    expect(await policy.getByRole('radio', { name: /Anyone/ }).isChecked()).toBe(true);
    await policy.getByRole('radio', { name: /By invitation only/ }).check();
    await page.getByText('Sign-up is now by invitation only').waitFor();
    expect((await http(e2e.url).get('/api/auth/signup-policy')).body).toEqual({ mode: 'invitation' });

    await section.getByRole('button', { name: 'Invite someone' }).click();
    const ask = page.getByRole('dialog', { name: 'Invite someone' });
    await ask.getByRole('radio', { name: 'Developer' }).check();
    await ask.getByRole('button', { name: 'Create invitation' }).click();
    const shown = page.getByRole('dialog', { name: 'New invitation' });
    link = await shown.getByLabel('Invitation link').inputValue();
    const code = await shown.getByLabel('Invite code').inputValue();
    expect(code).toMatch(/^\d{6}$/);
    const url = new URL(link);
    expect(url.pathname).toBe('/signup');
    expect(url.searchParams.get('invite')).toBe(code);
    expect(url.searchParams.get('role')).toBe('developer');
    await shown.getByText('This link and code will not be shown again').waitFor();
    await capture(page, 'team-admin-invitation');
    await shown.getByRole('button', { name: 'Done' }).click();
    await shown.waitFor({ state: 'detached' });

    const live = section.getByRole('list', { name: 'Live invite codes' });
    await live.getByRole('button', { name: /^Revoke developer invitation created by Avery Admin/ }).waitFor();
    expect(await live.textContent()).toContain('Developer');
    expect(await page.locator('body').textContent()).not.toContain(code);
    await capture(page, 'team-admin-signup-policy');
  });

  it('refuses a stranger without a code, on the page and on the server', async () => {
    const stranger = await openPage(e2e);
    try {
      const { page } = stranger;
      await page.goto('/signup');
      await page.getByRole('note').getByText('Sign-up here is by invitation').waitFor();
      await page.getByLabel('Full Name').fill('Sam Stranger');
      await page.getByLabel('Email Address').fill(`sam.${Date.now()}@example.com`);
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign Up' }).click();
      await page.getByText('Please enter the invitation code an admin gave you').waitFor();
      expect(await page.getByLabel('Invitation Code').getAttribute('aria-invalid')).toBe('true');
      // A made-up code: the server's refusal, under the form.
      await page.getByLabel('Invitation Code').fill('123456');
      await page.getByRole('button', { name: 'Sign Up' }).click();
      await page.getByRole('alert').filter({ hasText: 'Invalid invitation code' }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/signup');
      await capture(page, 'signup-invitation-required');
    } finally {
      await stranger.context.close();
    }
  });

  it('signs the invited developer up from the link, role and code filled in', async () => {
    const invited = await openPage(e2e);
    try {
      const { page } = invited;
      const url = new URL(link);
      await page.goto(`${url.pathname}${url.search}`);
      const codeBox = page.getByLabel('Invitation Code');
      await codeBox.waitFor();
      expect(await codeBox.inputValue()).toBe(url.searchParams.get('invite'));
      expect(await page.getByLabel('Select Role').inputValue()).toBe('developer');
      await page.getByLabel('Full Name').fill('Dee Invited');
      await page.getByLabel('Email Address').fill(`dee.${Date.now()}@example.com`);
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await capture(page, 'signup-invitation-link');
      await page.getByRole('button', { name: 'Sign Up' }).click();
      await page.waitForURL((at) => at.pathname.startsWith('/developer'));
    } finally {
      await invited.context.close();
    }
    // Used: the invitation is off the admin's list.
    const listed = await http(e2e.url).get('/api/auth/invite-codes', admin.token);
    expect(listed.body.codes).toEqual([]);
  });
});
