import { copyFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  capture,
  createBug,
  type E2E,
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
  let bug: { _id: string; title: string };

  beforeAll(async () => {
    e2e = await startE2E();
    admin = await registerUser(e2e.url, 'admin', 'Avery Admin');
    const developer = await registerUser(e2e.url, 'developer', 'Drew Backend');
    const tester = await registerUser(e2e.url, 'tester', 'Quinn QA');
    future = await registerUser(e2e.url, 'tester', 'Audra Auditor');
    bug = await createBug(e2e.url, tester.token, {
      title: 'Invoice PDF shows wrong VAT',
      assignedTo: [developer.id],
      module: 'Billing',
      checklist: ['Open an invoice', 'Download the PDF'],
    });
    await createBug(e2e.url, tester.token, { title: 'Search ignores accents', assignedTo: [developer.id] });
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
      await page.getByText('Recent Activity').waitFor();
      await page.getByRole('row', { name: /Search ignores accents/ }).waitFor();
      await page.getByRole('button', { name: 'Verify history' }).click();
      await page.getByText(/History intact|History broken|Could not verify/).waitFor();
      await shoot(page, 'auditor-dashboard');
    });

    it('opens a bug from the dashboard and sees it read-only: no edit, status or checklist controls', async () => {
      const { page } = session;
      await page.getByRole('row', { name: /Invoice PDF shows wrong VAT/ }).click();
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
