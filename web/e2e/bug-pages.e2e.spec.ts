import type { Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  capture,
  createBug,
  type E2E,
  http,
  openPage,
  registerUser,
  type Session,
  startE2E,
  type TestUser,
  toast,
} from './harness.js';

/**
 * The bug pages load through their route's loader: a skeleton while the bug is on its
 * way, the spec's sentences for a refusal or a missing bug, the spec's toast for any
 * other failure, and the same error state when the live stream says the bug is gone.
 */
describe('bug pages: pending, refused, missing, failed, deleted while open', () => {
  let e2e: E2E;
  let admin: TestUser;
  let developer: TestUser;
  let tester: TestUser;
  let assigned: { _id: string; title: string };
  let notAssigned: { _id: string; title: string };
  let adminSession: Session;
  let developerSession: Session;

  beforeAll(async () => {
    e2e = await startE2E();
    admin = await registerUser(e2e.url, 'admin', 'Ada Admin');
    developer = await registerUser(e2e.url, 'developer', 'Devon Developer');
    const otherDeveloper = await registerUser(e2e.url, 'developer', 'Olly Other');
    tester = await registerUser(e2e.url, 'tester', 'Tess Tester');
    assigned = await createBug(e2e.url, tester.token, { title: 'Search box loses focus', assignedTo: [developer.id] });
    notAssigned = await createBug(e2e.url, tester.token, {
      title: 'Export drops the last row',
      assignedTo: [otherDeveloper.id],
    });
    adminSession = await openPage(e2e, { user: admin });
    developerSession = await openPage(e2e, { user: developer });
  });
  afterAll(async () => {
    await adminSession?.context.close();
    await developerSession?.context.close();
    await e2e?.close();
  });

  it('keeps a 3,000-character word inside the page for the reporter and the developer', async () => {
    const word = 'x'.repeat(3000);
    const long = await http(e2e.url).post(
      '/api/bugs',
      {
        title: `Overflow ${'y'.repeat(90)}`,
        description: word,
        priority: 'Low',
        severity: 'Minor',
        assignedTo: [developer.id],
        checklist: [{ text: 'z'.repeat(400), completed: false }],
        attachments: [`https://example.com/${'a'.repeat(600)}`],
      },
      tester.token,
    );
    expect(long.status, JSON.stringify(long.body)).toBe(201);
    const id = long.body.bug?._id ?? long.body._id;
    const testerSession = await openPage(e2e, { user: tester });
    try {
      for (const [page, path] of [
        [testerSession.page, `/tester/bug/${id}`],
        [developerSession.page, `/developer/assigned-bugs/${id}`],
      ] as const) {
        await page.goto(path);
        await page.getByText(word.slice(0, 40), { exact: false }).first().waitFor();
        const widths = await page.evaluate(() => ({
          page: document.documentElement.scrollWidth,
          window: window.innerWidth,
        }));
        expect(widths.page, path).toBeLessThanOrEqual(widths.window);
      }
      // The sidebar's logo link is named by what it shows (label in name).
      await testerSession.page.getByRole('link', { name: 'Bugtrail home' }).waitFor();
      await capture(testerSession.page, 'bug-page-long-word');
    } finally {
      await testerSession.context.close();
    }
  });

  it('shows the skeleton in the layout while the bug loads, then the bug', async () => {
    const { page } = adminSession;
    await page.goto('/admin/bugs');
    const card = page.getByRole('button', { name: assigned.title, exact: true });
    await card.waitFor();
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const hold = async (route: Route) => {
      await held;
      await route.continue();
    };
    await page.route(`**/api/bugs/${assigned._id}`, hold);
    await card.click();
    await page.locator('main [role="status"][aria-label="Loading"]').first().waitFor();
    await capture(page, 'bug-page-pending');
    release();
    await page.getByLabel('Title').waitFor();
    expect(await page.getByLabel('Title').inputValue()).toBe(assigned.title);
    await page.unroute(`**/api/bugs/${assigned._id}`, hold);
  });

  it('says Bug not found for a bug that does not exist', async () => {
    const { page } = adminSession;
    await page.goto('/admin/bugs/no-such-bug');
    await page.getByRole('alert').filter({ hasText: 'Bug not found' }).waitFor();
    await capture(page, 'admin-bug-not-found');
    await page.getByRole('link', { name: 'Back to All Bugs' }).click();
    await page.waitForURL('**/admin/bugs');
  });

  it("toasts 'Failed to load bug details' on another failure and goes back to the list (admin)", async () => {
    const { page } = adminSession;
    const fail = (route: Route) => route.fulfill({ status: 500, json: { message: 'boom' } });
    await page.route(`**/api/bugs/${assigned._id}`, fail);
    await page.goto(`/admin/bugs/${assigned._id}`);
    await toast(adminSession, 'Failed to load bug details');
    await page.waitForURL(/\/admin\/bugs$/);
    await page.unroute(`**/api/bugs/${assigned._id}`, fail);
  });

  it('answers a developer outside the bug with the spec sentence', async () => {
    const { page } = developerSession;
    await page.goto(`/developer/assigned-bugs/${notAssigned._id}`);
    await page.getByText("Bug not found or you don't have permission to view it").waitFor();
    await capture(page, 'developer-bug-refused');
  });

  it('offers Try again when loading fails, and loads the bug on retry', async () => {
    const { page } = developerSession;
    const fail = (route: Route) => route.fulfill({ status: 503, json: { message: 'unavailable' } });
    await page.route(`**/api/bugs/${assigned._id}`, fail);
    await page.goto(`/developer/assigned-bugs/${assigned._id}`);
    await page.getByRole('alert').filter({ hasText: 'Failed to load bug details' }).waitFor();
    await capture(page, 'developer-bug-load-failed');
    await page.unroute(`**/api/bugs/${assigned._id}`, fail);
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.getByRole('heading', { level: 1, name: assigned.title }).waitFor();
  });

  it('turns into Bug not found when the bug is deleted while open', async () => {
    const { page } = developerSession;
    await page.getByRole('heading', { level: 1, name: assigned.title }).waitFor();
    await page.locator('[data-live-status="live"]').waitFor({ timeout: 30_000 });
    const answer = await http(e2e.url).delete(`/api/bugs/${assigned._id}`, admin.token);
    expect(answer.status).toBeLessThan(300);
    await page.getByText("Bug not found or you don't have permission to view it").waitFor({ timeout: 30_000 });
    expect(await page.getByRole('heading', { level: 1, name: assigned.title }).count()).toBe(0);
  });
});
