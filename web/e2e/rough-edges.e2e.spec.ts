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

/**
 * Issue 16's rough edges: the dashboards' bug table at 1280 px with long names, the
 * developer's Update Status deep link and search, and the bug form (no due date for
 * admins, Clear asks, Cancel, the unsaved-changes warning, errors on their fields,
 * attachment links that are URLs).
 */

const longDevName = 'Maximiliana Featherstonehaugh-Wolfeschlegelsteinhausen';
const otherLongDevName = 'Bartholomew Cholmondeley-Marjoribanks the Third';
const longTitle =
  'Checkout total ignores the discount code when the basket holds more than twenty-five different items';
const oneWordTitle = 'Supercalifragilistic'.repeat(5);
const longModule = 'PaymentsAndInvoicingReconciliationSubsystemModule';

type Layout = {
  page: { scrollWidth: number; clientWidth: number };
  table: { scrollWidth: number; clientWidth: number; right: number };
  box: { scrollWidth: number; clientWidth: number; right: number };
  headers: { text: string; right: number }[];
};

/** The page, the dashboard's bug table and its box, and the right edge of each shown column header. */
function measureLayout(page: Page): Promise<Layout> {
  return page.evaluate(() => {
    const table = document.querySelector('main table');
    const box = table?.parentElement;
    if (!table || !box) throw new Error('no bug table on the page');
    const root = document.documentElement;
    return {
      page: { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth },
      table: {
        scrollWidth: table.scrollWidth,
        clientWidth: table.clientWidth,
        right: table.getBoundingClientRect().right,
      },
      box: { scrollWidth: box.scrollWidth, clientWidth: box.clientWidth, right: box.getBoundingClientRect().right },
      headers: [...table.querySelectorAll('th')]
        .filter((th) => th.getBoundingClientRect().width > 0)
        .map((th) => ({ text: (th.textContent ?? '').trim(), right: th.getBoundingClientRect().right })),
    };
  });
}

/** Nothing scrolls sideways: not the page, not the table, not the table's box; every shown header fits. */
function expectNoSidewaysScroll(layout: Layout) {
  expect(layout.page.scrollWidth).toBeLessThanOrEqual(layout.page.clientWidth);
  expect(layout.table.scrollWidth).toBeLessThanOrEqual(layout.table.clientWidth);
  expect(layout.box.scrollWidth).toBeLessThanOrEqual(layout.box.clientWidth);
  expect(layout.table.right).toBeLessThanOrEqual(layout.box.right + 0.5);
  for (const header of layout.headers) expect(header.right, header.text).toBeLessThanOrEqual(layout.box.right + 0.5);
}

/**
 * At 390 px the table drops columns instead of scrolling. Charts size themselves a frame
 * after a resize, so the page is given until they settle before it is measured.
 */
async function expectNoSidewaysScrollOnPhone(page: Page) {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForFunction(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);
  const layout = await measureLayout(page);
  expect(layout.headers.map((header) => header.text)).toEqual(['Title', 'Status']);
  expectNoSidewaysScroll(layout);
}

describe('rough edges: wide tables, the deep link, the bug form', () => {
  let e2e: E2E;
  let admin: TestUser;
  let tester: TestUser;
  let developer: TestUser;
  let deepTarget: { _id: string; title: string };
  let midFirstPage: { _id: string; title: string };
  let dueBug: { _id: string; title: string };
  const sessions: Session[] = [];
  const open = async (user: TestUser) => {
    const session = await openPage(e2e, { user });
    sessions.push(session);
    return session;
  };

  beforeAll(async () => {
    e2e = await startE2E();
    admin = await registerUser(e2e.url, 'admin', 'Administratorina Longname-Featherstone');
    tester = await registerUser(e2e.url, 'tester', 'Anastasiya Konstantinopolskaya-Montgomery');
    developer = await registerUser(e2e.url, 'developer', longDevName);
    const otherDeveloper = await registerUser(e2e.url, 'developer', otherLongDevName);
    // The deep link's bug is the oldest of 30, so it is on the list's second page.
    deepTarget = await createBug(e2e.url, tester.token, {
      title: 'Deep link target: session expires during upload',
      assignedTo: [developer.id],
      checklist: ['Open the upload page', 'Wait 15 minutes'],
    });
    for (let i = 1; i < 30; i += 1) {
      const filler = await createBug(e2e.url, tester.token, {
        title: `Filler bug number ${i}`,
        assignedTo: [developer.id],
      });
      // The 16th row of the list (newest first), well below the fold.
      if (i === 16) midFirstPage = filler;
    }
    // The dashboards' newest bugs carry the longest names the form allows.
    const both = [developer.id, otherDeveloper.id];
    await createBug(e2e.url, tester.token, { title: oneWordTitle, assignedTo: both, module: longModule });
    const inProgress = await createBug(e2e.url, tester.token, {
      title: longTitle,
      assignedTo: both,
      module: longModule,
      severity: 'Critical',
      priority: 'Medium',
    });
    const moved = await http(e2e.url).put(`/api/bugs/${inProgress._id}/status`, { status: 'In Progress' }, admin.token);
    expect(moved.status).toBe(200);
    const nextWeek = new Date(Date.now() + 7 * 86_400_000).toISOString();
    const withDue = await http(e2e.url).post(
      '/api/bugs',
      {
        title: 'Password reset mail arrives twice',
        description: 'Every reset request sends two identical emails a minute apart.',
        priority: 'Low',
        severity: 'Minor',
        status: 'Open',
        module: 'Auth',
        dueDate: nextWeek,
        assignedTo: [otherDeveloper.id],
        checklist: [],
        attachments: [],
      },
      admin.token,
    );
    expect(withDue.status).toBe(201);
    dueBug = withDue.body.bug;
  }, 180_000);
  afterAll(async () => {
    for (const session of sessions) await session.context.close();
    await e2e?.close();
  });

  describe('at 1280 px no dashboard scrolls sideways, with long names', () => {
    it('admin dashboard: all seven columns fit in the box', async () => {
      const { page } = await open(admin);
      await page.goto('/admin/dashboard');
      await page.getByRole('row', { name: new RegExp(longTitle) }).waitFor();
      const layout = await measureLayout(page);
      expect(layout.headers.map((header) => header.text)).toEqual([
        'Title',
        'Status',
        'Priority',
        'Severity',
        'Module',
        'Assigned To',
        'Created On',
      ]);
      expectNoSidewaysScroll(layout);
      await expectNoSidewaysScrollOnPhone(page);
      await capture(page, 'rough-edges-admin-dashboard');
    });

    it('tester dashboard', async () => {
      const { page } = await open(tester);
      await page.goto('/tester/dashboard');
      await page.getByRole('row', { name: new RegExp(longTitle) }).waitFor();
      expectNoSidewaysScroll(await measureLayout(page));
      await expectNoSidewaysScrollOnPhone(page);
      await capture(page, 'rough-edges-tester-dashboard');
    });

    it('developer dashboard', async () => {
      const { page } = await open(developer);
      await page.goto('/developer/dashboard');
      await page.getByRole('row', { name: new RegExp(longTitle) }).waitFor();
      const layout = await measureLayout(page);
      expect(layout.headers.map((header) => header.text)).toContain('Assigned To');
      expectNoSidewaysScroll(layout);
      await expectNoSidewaysScrollOnPhone(page);
      await capture(page, 'rough-edges-developer-dashboard');
    });
  });

  describe('developer', () => {
    let session: Session;
    beforeAll(async () => {
      session = await open(developer);
    });

    /** From the bug's own page, "Update Status" opens the list at that bug's row. */
    async function followUpdateStatusLink(page: Page, bug: { _id: string; title: string }) {
      await page.goto(`/developer/assigned-bugs/${bug._id}`);
      await page.getByRole('heading', { level: 1, name: bug.title }).waitFor();
      // Read to the end first, so the router has a scroll position of its own to reset.
      await page.evaluate(() => window.scrollTo({ top: document.documentElement.scrollHeight, behavior: 'instant' }));
      await page.getByRole('link', { name: 'Update Status' }).click();
      await page.waitForURL(`**/developer/update-bugs?open=${bug._id}`);
      const row = page.locator('button[aria-expanded="true"]').filter({ hasText: bug.title });
      await row.waitFor();
      // The row takes the focus as it is brought into view (smoothly): wait for the focus, for
      // the scroll to have reached it (it may start a few frames after the focus), and for the
      // page to stop scrolling (the same scroll position two frames running).
      await page.waitForFunction(
        (title) => {
          const active = document.activeElement;
          if (!active?.textContent?.includes(title)) return false;
          if (active.getBoundingClientRect().bottom > window.innerHeight) return false;
          const memo = window as unknown as { lastScrollY?: number };
          const isSettled = memo.lastScrollY === window.scrollY;
          memo.lastScrollY = window.scrollY;
          return isSettled;
        },
        bug.title,
        { polling: 'raf' },
      );
      const place = await row.evaluate((element) => {
        const rect = element.getBoundingClientRect();
        const header = document.querySelector('header')?.getBoundingClientRect().bottom ?? 0;
        return { top: rect.top, bottom: rect.bottom, header, height: window.innerHeight };
      });
      expect(place.top).toBeGreaterThanOrEqual(place.header);
      expect(place.bottom).toBeLessThanOrEqual(place.height);
      expect(await row.locator('xpath=ancestor::li[1]').getAttribute('data-highlighted')).toBe('true');
      expect(await page.locator('li[data-highlighted]').count()).toBe(1);
      return row;
    }

    it("Update Status from a bug's page opens its row in view, focused and highlighted", async () => {
      const { page } = session;
      // Far down the first page: the router's scroll reset must not undo the jump.
      const row = await followUpdateStatusLink(page, midFirstPage);
      expect(await row.getAttribute('aria-expanded')).toBe('true');
      // The oldest bug, on the second page: the list loads on until the row is there.
      await followUpdateStatusLink(page, deepTarget);
      // What the developer lands on (the viewport, not the whole page).
      await page.screenshot({ path: path.join(screenshotDir, 'rough-edges-update-bugs-landing-1280.png') });
      await page.getByRole('group', { name: 'Set status' }).waitFor();
      expect(await page.getByText('Wait 15 minutes').isVisible()).toBe(true);
      await capture(page, 'rough-edges-update-bugs-deep-link');
    });

    it("the search's no-match text is the spec's", async () => {
      const { page } = session;
      await page.goto('/developer/assigned-bugs');
      await page.getByText('Filler bug number 29').waitFor();
      await page.getByLabel('Search bugs', { exact: true }).fill('xylophone quagmire');
      await page.waitForURL(/q=xylophone/);
      await page.getByText('No bugs assigned to you', { exact: true }).waitFor();
      expect(await page.getByText('Filler bug number 29').count()).toBe(0);
      await capture(page, 'rough-edges-developer-no-match');
    });
  });

  describe('admin bug forms', () => {
    let session: Session;
    beforeAll(async () => {
      session = await open(admin);
    });

    it('saves a bug with its due date removed; the server stores null', async () => {
      const { page } = session;
      await page.goto(`/admin/bugs/${dueBug._id}`);
      const due = page.getByLabel('Due Date');
      await due.waitFor();
      expect(await due.inputValue()).not.toBe('');
      await due.fill('');
      await page.getByRole('button', { name: 'Update Bug' }).click();
      await toast(session, 'Bug Updated Successfully');
      expect(await page.getByText('Due date is required').count()).toBe(0);
      const stored = await http(e2e.url).get(`/api/bugs/${dueBug._id}`, admin.token);
      expect(stored.status).toBe(200);
      expect(stored.body.dueDate).toBeNull();
    });

    it('marks every validation error on its field', async () => {
      const { page } = session;
      await page.goto('/admin/bugs');
      await page.getByRole('link', { name: 'Create Bug' }).click();
      await page.waitForURL('**/admin/create-bug');
      await page.getByRole('button', { name: 'Report Bug' }).click();
      await toast(session, 'Please fix the errors in the form');
      for (const [label, message] of [
        ['Title', 'Title is required'],
        ['Description', 'Description is required'],
      ] as const) {
        const field = page.getByLabel(label, { exact: true });
        expect(await field.getAttribute('aria-invalid')).toBe('true');
        const describedBy = await field.getAttribute('aria-describedby');
        expect(await page.locator(`[id="${describedBy}"]`).textContent()).toBe(message);
      }
      // The developer list is a group of checkboxes: its message sits right under it.
      const developers = page.getByRole('group', { name: 'Assign Developers' });
      const developersError = page.getByRole('alert').filter({ hasText: 'At least one developer must be assigned' });
      // Measured once the developers have loaded (the loading skeleton is shorter than the
      // list), both boxes in one frame: focusing the first error may still be scrolling the page.
      await developers.getByText(otherLongDevName).waitFor();
      await developersError.waitFor();
      const alert = await developersError.elementHandle();
      const gap = await developers.evaluate(
        (list, message) => (message ? message.getBoundingClientRect().top - list.getBoundingClientRect().bottom : null),
        alert,
      );
      expect(gap).not.toBeNull();
      expect(gap).toBeGreaterThanOrEqual(0);
      expect(gap).toBeLessThan(48);
      // The first field in error has the focus, so a keyboard user starts there.
      expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('title');
      await capture(page, 'rough-edges-admin-create-errors');
      // Long developer names in the picker are cut, not allowed to widen the page on a phone.
      await page.setViewportSize({ width: 390, height: 844 });
      const phone = await page.evaluate(() => [
        document.documentElement.scrollWidth,
        document.documentElement.clientWidth,
      ]);
      expect(phone[0]).toBeLessThanOrEqual(phone[1] ?? 0);
      await page.setViewportSize({ width: 1280, height: 860 });
    });

    it('refuses an attachment link that is not an http(s) URL, with the message on the field', async () => {
      const { page } = session;
      const link = page.getByLabel('Attachment links');
      for (const bad of ['not a url', 'ftp://example.com/file.txt', 'example.com/shot.png']) {
        await link.fill(bad);
        await link.press('Enter');
        expect(await link.getAttribute('aria-invalid')).toBe('true');
        const describedBy = await link.getAttribute('aria-describedby');
        expect(await page.locator(`[id="${describedBy}"]`).textContent()).toBe(
          'Attachment must be an http or https URL',
        );
        expect(await link.inputValue()).toBe(bad);
        expect(await page.getByRole('listitem').filter({ hasText: bad }).count()).toBe(0);
      }
      await capture(page, 'rough-edges-attachment-refused');
      await link.fill('https://example.com/shot.png');
      expect(await link.getAttribute('aria-invalid')).toBe(null);
      await link.press('Enter');
      await page.getByRole('listitem').filter({ hasText: 'https://example.com/shot.png' }).waitFor();
      expect(await link.inputValue()).toBe('');
    });

    it('asks before Clear wipes the form', async () => {
      const { page } = session;
      const title = page.getByLabel('Title', { exact: true });
      await title.fill('Clear me only when I say so');
      await page.getByRole('button', { name: 'Clear', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Clear the form?' });
      await dialog.waitFor();
      await capture(page, 'rough-edges-clear-confirm');
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'detached' });
      expect(await title.inputValue()).toBe('Clear me only when I say so');
      expect(await page.getByRole('listitem').filter({ hasText: 'https://example.com/shot.png' }).count()).toBe(1);
      await page.getByRole('button', { name: 'Clear', exact: true }).click();
      await dialog.getByRole('button', { name: 'Clear' }).click();
      await dialog.waitFor({ state: 'detached' });
      expect(await title.inputValue()).toBe('');
      expect(await page.getByRole('listitem').filter({ hasText: 'https://example.com/shot.png' }).count()).toBe(0);
    });

    it('asks before leaving a form with unsaved changes, in the app and on unload', async () => {
      const { page } = session;
      const title = page.getByLabel('Title', { exact: true });
      await title.fill('Half-written report');
      const sidebar = page.getByRole('complementary', { name: 'Sidebar' });
      await sidebar.getByRole('link', { name: 'Manage Bugs' }).click();
      const dialog = page.getByRole('dialog', { name: 'Discard unsaved changes?' });
      await dialog.waitFor();
      await capture(page, 'rough-edges-leave-confirm');
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'detached' });
      expect(new URL(page.url()).pathname).toBe('/admin/create-bug');
      expect(await title.inputValue()).toBe('Half-written report');
      // Closing the tab or reloading: the browser's own "leave site?" question.
      const unload = page.waitForEvent('dialog');
      await page.close({ runBeforeUnload: true });
      const asked = await unload;
      expect(asked.type()).toBe('beforeunload');
      await asked.dismiss();
      expect(page.isClosed()).toBe(false);
      expect(await title.inputValue()).toBe('Half-written report');
    });

    it('Cancel goes back without saving (after asking, as the form has changes)', async () => {
      const { page } = session;
      await page.getByLabel('Description', { exact: true }).fill('Nobody should ever see this report saved.');
      await page.getByText(longDevName).click();
      await page.getByRole('button', { name: 'Cancel', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Discard unsaved changes?' });
      await dialog.getByRole('button', { name: 'Discard changes' }).click();
      await page.waitForURL('**/admin/bugs');
      const all = await http(e2e.url).get('/api/bugs', admin.token);
      expect(all.status).toBe(200);
      expect(all.body.bugs.map((bug: { title: string }) => bug.title)).not.toContain('Half-written report');
    });

    it('Cancel on an untouched form leaves at once', async () => {
      const { page } = session;
      await page.getByRole('link', { name: 'Create Bug' }).click();
      await page.waitForURL('**/admin/create-bug');
      await page.getByLabel('Title', { exact: true }).waitFor();
      await page.getByRole('button', { name: 'Cancel', exact: true }).click();
      await page.waitForURL('**/admin/bugs');
      expect(await page.getByRole('dialog').count()).toBe(0);
    });

    it('creates a bug with no due date: saving leaves without asking, the server stores null', async () => {
      const { page } = session;
      await page.getByRole('link', { name: 'Create Bug' }).click();
      await page.waitForURL('**/admin/create-bug');
      await page.getByLabel('Title', { exact: true }).fill('Export button hidden on small screens');
      await page.getByLabel('Description', { exact: true }).fill('Under 400 px the Download Report button is cut off.');
      await page.getByText(otherLongDevName).click();
      expect(await page.getByLabel('Due Date').inputValue()).toBe('');
      await page.getByRole('button', { name: 'Report Bug' }).click();
      await toast(session, 'Bug Reported Successfully');
      // The reporter lands on the new bug's page.
      await page.waitForURL(/\/admin\/bugs\/[0-9a-f-]{36}$/);
      expect(await page.getByRole('dialog').count()).toBe(0);
      const all = await http(e2e.url).get('/api/bugs', admin.token);
      const created = all.body.bugs.find(
        (bug: { title: string }) => bug.title === 'Export button hidden on small screens',
      );
      expect(created).toBeDefined();
      expect(created.dueDate).toBeNull();
    });
  });
});
