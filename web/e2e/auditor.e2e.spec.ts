import { copyFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  capture,
  createBug,
  type E2E,
  http,
  openPage,
  registerUser,
  type Session,
  screenshotDir,
  startE2E,
  type TestUser,
  toast,
} from './harness.js';

/** Screenshots into the repo's folder (as every e2e spec does) and into /tmp/shots for review. */
const reviewDir = process.env.SHOTS_DIR ?? '/tmp/shots';
async function shoot(page: Page, name: string) {
  await capture(page, name);
  await mkdir(reviewDir, { recursive: true });
  for (const width of [1280, 390]) {
    const file = `${name}-${width}.png`;
    await copyFile(path.join(screenshotDir, file), path.join(reviewDir, file));
  }
}

describe('auditor: granted in Team Members, reads everything, changes nothing', () => {
  let e2e: E2E;
  let admin: TestUser;
  let future: TestUser;
  let adminSession: Session;
  let developer: TestUser;
  let bug: { _id: string; title: string };
  let accents: { _id: string; title: string };
  /** The bug's change moments, oldest first (the time slider's stops). */
  const moments: string[] = [];

  beforeAll(async () => {
    e2e = await startE2E();
    admin = await registerUser(e2e.url, 'admin', 'Avery Admin');
    developer = await registerUser(e2e.url, 'developer', 'Drew Backend');
    const tester = await registerUser(e2e.url, 'tester', 'Quinn QA');
    future = await registerUser(e2e.url, 'tester', 'Audra Auditor');
    bug = await createBug(e2e.url, tester.token, {
      title: 'Invoice PDF shows wrong VAT',
      assignedTo: [developer.id],
      module: 'Billing',
      checklist: ['Open an invoice', 'Download the PDF'],
    });
    accents = await createBug(e2e.url, tester.token, { title: 'Search ignores accents', assignedTo: [developer.id] });
    // A later moment to travel back from: the invoice bug moves on after its report.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const moved = await http(e2e.url).put(`/api/bugs/${bug._id}/status`, { status: 'In Progress' }, developer.token);
    expect(moved.status).toBe(200);
    const history = await http(e2e.url).get(`/api/bugs/${bug._id}/history`, admin.token);
    for (const event of history.body.events as { at: string }[])
      if (!moments.includes(event.at)) moments.push(event.at);
    adminSession = await openPage(e2e, { user: admin });
  }, 180_000);
  afterAll(async () => {
    await adminSession?.context.close();
    await e2e?.close();
  });

  it('an admin makes a team member an auditor in Team Members; the last admin cannot step down', async () => {
    const { page } = adminSession;
    await page.goto('/admin/users');
    const role = page.getByRole('combobox', { name: 'Role of Audra Auditor' });
    await role.waitFor();
    expect(await role.inputValue()).toBe('tester');
    await role.selectOption('auditor');
    const dialog = page.getByRole('dialog', { name: 'Change Role' });
    await dialog.getByText('Auditors read every bug').waitFor();
    await dialog.getByRole('button', { name: 'Change Role' }).click();
    await toast(adminSession, 'Audra Auditor is now an Auditor');
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => role.inputValue()).toBe('auditor');
    await shoot(page, 'auditor-team-members');

    // The only admin: the server refuses, and the dialog says why.
    const own = page.getByRole('combobox', { name: 'Role of Avery Admin' });
    await own.selectOption('tester');
    await dialog.getByRole('button', { name: 'Change Role' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'At least one admin must remain' }).waitFor();
    await shoot(page, 'auditor-last-admin');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await own.inputValue()).toBe('admin');
  });

  describe('the auditor, signed in', () => {
    let session: Session;
    beforeAll(async () => {
      session = await openPage(e2e);
    });
    afterAll(async () => {
      await session?.context.close();
    });

    it('logs in and lands on the auditor dashboard with every bug and the integrity check', async () => {
      const { page } = session;
      await page.goto('/login');
      await page.getByLabel('Email Address').fill(future.email);
      await page.getByLabel('Password', { exact: true }).fill('correct horse battery');
      await page.getByRole('button', { name: 'Login' }).click();
      await page.waitForURL('**/auditor/dashboard');
      const sidebar = page.getByRole('complementary', { name: 'Sidebar' });
      await sidebar.getByText('Auditor', { exact: true }).waitFor();
      for (const name of ['Dashboard', 'All Bugs']) await sidebar.getByRole('link', { name }).waitFor();
      expect(await sidebar.getByRole('link', { name: /Chats|Team Members|Manage Bugs/ }).count()).toBe(0);
      // Recent activity across all bugs, in plain words, newest first, each linked to its bug.
      const feed = page.getByRole('list', { name: 'Recent activity' });
      const rows = feed.getByRole('listitem');
      await rows.first().waitFor();
      expect((await rows.allTextContents()).slice(0, 3)).toEqual([
        expect.stringContaining('Drew Backend changed Status from Pending to In Progress'),
        expect.stringContaining('Quinn QA reported the bug and assigned Drew Backend'),
        expect.stringContaining('Quinn QA reported the bug and assigned Drew Backend, with 2 steps'),
      ]);
      await rows.first().getByRole('link', { name: 'Invoice PDF shows wrong VAT' }).waitFor();
      await rows.nth(1).getByRole('link', { name: 'Search ignores accents' }).waitFor();
      await page.getByRole('button', { name: 'Verify history' }).click();
      await page.getByText(/History intact|History broken|Could not verify/).waitFor();
      await shoot(page, 'auditor-dashboard');
    });

    it('sees a change arrive in the recent activity live, without a reload', async () => {
      const { page } = session;
      await page.locator('[data-live-status="live"]').waitFor({ timeout: 30_000 });
      expect(
        (await http(e2e.url).put(`/api/bugs/${accents._id}/status`, { status: 'In Progress' }, developer.token)).status,
      ).toBe(200);
      const feed = page.getByRole('list', { name: 'Recent activity' });
      await feed
        .getByRole('listitem')
        .first()
        .filter({ hasText: 'Drew Backend changed Status from Pending to In Progress' })
        .filter({ has: page.getByRole('link', { name: 'Search ignores accents' }) })
        .waitFor({ timeout: 30_000 });
    });

    it('opens a bug from the dashboard and sees it read-only: no edit, status or checklist controls', async () => {
      const { page } = session;
      await page
        .getByRole('list', { name: 'Recent activity' })
        .getByRole('link', { name: 'Invoice PDF shows wrong VAT' })
        .first()
        .click();
      await page.waitForURL(`**/auditor/bugs/${bug._id}`);
      await page.getByRole('heading', { level: 1, name: bug.title }).waitFor();
      await page.getByText('Read-only').waitFor();
      await page.getByText('Open an invoice').waitFor();
      const main = page.getByRole('main');
      for (const name of [/^Edit$/, /Update Bug/, /Delete Bug/, /Update Status/, /Assign Developers/]) {
        expect(await main.getByRole('button', { name }).count(), String(name)).toBe(0);
        expect(await main.getByRole('link', { name }).count(), String(name)).toBe(0);
      }
      expect(await main.getByRole('textbox', { name: /Title|Description/ }).count()).toBe(0);
      const steps = main.locator('div').filter({ has: page.getByRole('heading', { name: 'Steps to Reproduce' }) });
      expect(await steps.getByRole('checkbox').count()).toBe(0);
      await shoot(page, 'auditor-bug');
    });

    it('scrubs the timeline back to the report, sees the earlier status, and compares two moments', async () => {
      const { page } = session;
      const header = page.locator('h1').locator('xpath=..');
      expect(await header.getByText('In Progress', { exact: true }).isVisible()).toBe(true);
      const slider = page.getByRole('slider', { name: 'Time travel' });
      await slider.focus();
      await page.keyboard.press('Home');
      await page.waitForURL((url) => url.searchParams.get('at') === moments[0]);
      await page.getByRole('status').filter({ hasText: 'Viewing as of' }).waitFor();
      await header.getByText('Pending', { exact: true }).waitFor();
      expect(await header.getByText('In Progress', { exact: true }).count()).toBe(0);
      await shoot(page, 'auditor-as-of');

      await page.getByRole('button', { name: 'Compare two moments' }).click();
      const compare = page.getByRole('region', { name: 'What changed between two moments' });
      await compare.getByLabel('First moment').selectOption(moments[0]!);
      await compare.getByLabel('Second moment').selectOption(moments.at(-1)!);
      await compare.getByText('1 field differs').waitFor();
      expect(await compare.locator('dt').allTextContents()).toEqual(['Status']);
      expect(((await compare.locator('dd').first().textContent()) ?? '').replace(/\s+/g, ' ')).toMatch(
        /Pending.*to.*In Progress/,
      );
      await shoot(page, 'auditor-compare');

      await page.getByRole('button', { name: 'Back to now' }).first().click();
      await header.getByText('In Progress', { exact: true }).waitFor();
      expect(new URL(page.url()).searchParams.has('at')).toBe(false);
    });

    it('lists every bug in a read-only table and keeps out of the admin pages', async () => {
      const { page } = session;
      await page.getByRole('complementary', { name: 'Sidebar' }).getByRole('link', { name: 'All Bugs' }).click();
      await page.waitForURL('**/auditor/bugs');
      await page.getByRole('heading', { level: 1, name: 'All Bugs' }).waitFor();
      for (const title of ['Invoice PDF shows wrong VAT', 'Search ignores accents']) {
        await page.getByRole('row', { name: new RegExp(title) }).waitFor();
      }
      expect(await page.getByRole('button', { name: /Create|Delete/ }).count()).toBe(0);
      await shoot(page, 'auditor-bugs');
      await page.goto('/admin/users');
      await page.waitForURL('**/auditor/dashboard');
    });
  });
});
