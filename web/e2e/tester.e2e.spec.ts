import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  capture,
  createBug,
  type E2E,
  openPage,
  registerUser,
  type Session,
  startE2E,
  type TestUser,
  toast,
} from './harness.js';

describe('tester: report, follow, edit and delete a bug', () => {
  let e2e: E2E;
  let tester: TestUser;
  let developer: TestUser;
  let othersBug: { _id: string; title: string; description: string };
  let session: Session;

  beforeAll(async () => {
    e2e = await startE2E();
    developer = await registerUser(e2e.url, 'developer', 'Dana Developer');
    tester = await registerUser(e2e.url, 'tester', 'Tina Tester');
    const otherTester = await registerUser(e2e.url, 'tester', 'Olga Other');
    othersBug = await createBug(e2e.url, otherTester.token, {
      title: 'Someone else reported this',
      assignedTo: [developer.id],
    });
    session = await openPage(e2e, { user: tester });
  });
  afterAll(async () => {
    await session?.context.close();
    await e2e?.close();
  });

  it('starts with the empty dashboard', async () => {
    const { page } = session;
    await page.goto('/tester/dashboard');
    await page.getByText("You haven't reported any bugs yet").waitFor();
    await capture(page, 'tester-dashboard-empty');
    await page.getByRole('link', { name: 'Report Your First Bug' }).click();
    await page.waitForURL('**/tester/report-bug');
  });

  it('shows every validation message, and clears one when its field is edited', async () => {
    const { page } = session;
    await page.getByRole('button', { name: 'Report Bug' }).click();
    await toast(session, 'Please fix the errors in the form');
    for (const text of ['Title is required', 'Description is required', 'At least one developer must be assigned']) {
      expect(await page.getByText(text).isVisible()).toBe(true);
    }
    await page.getByLabel('Title').fill('Bug');
    await page.getByLabel('Description').fill('short');
    await page.getByRole('button', { name: 'Report Bug' }).click();
    await page.getByText('Title must be at least 5 characters long').waitFor();
    expect(await page.getByText('Description must be at least 10 characters long').isVisible()).toBe(true);
    await page.getByLabel('Title').fill('Bug in');
    expect(await page.getByText('Title must be at least 5 characters long').count()).toBe(0);
  });

  it('reports a bug with checklist steps and a link', async () => {
    const { page } = session;
    await page.getByLabel('Title').fill('Cart total ignores discount code');
    await page.getByLabel('Description').fill('Applying SAVE10 shows the banner but the total stays the same.');
    await page.getByLabel('Priority').selectOption('High');
    await page.getByLabel('Severity').selectOption('Critical');
    await page.getByLabel('Module').fill('Checkout');
    await page.getByLabel('Due Date').fill(new Date().toISOString().slice(0, 10));
    await page.getByText('Dana Developer').click();
    const step = page.getByLabel('Checklist (steps to reproduce)');
    await step.fill('Add two items to the cart');
    await step.press('Enter');
    await step.fill('Apply the code SAVE10');
    await page.getByRole('button', { name: 'Add' }).first().click();
    await page.getByLabel('Attachment links').fill('https://example.com/screenshot.png');
    await page.getByLabel('Attachment links').press('Enter');
    expect(await page.getByText('Apply the code SAVE10').isVisible()).toBe(true);
    await capture(page, 'tester-report-bug');
    await page.getByRole('button', { name: 'Report Bug' }).click();
    await toast(session, 'Bug Reported Successfully');
    // The reporter lands on the bug they reported (issue 16), then finds it in their list.
    await page.waitForURL('**/tester/bug/**');
    await page.getByRole('heading', { level: 1, name: 'Cart total ignores discount code' }).waitFor();
    await page.getByRole('complementary', { name: 'Sidebar' }).getByRole('link', { name: 'My Reported Bugs' }).click();
    await page.waitForURL('**/tester/my-bugs');
    await page.getByText('Cart total ignores discount code').waitFor();
    const tabs = page.getByRole('tablist', { name: 'Filter by status' });
    // The counts come from their own query: wait for them rather than read them at once.
    await tabs.getByRole('tab', { name: /All\s*1/ }).waitFor();
    await tabs.getByRole('tab', { name: /Open\s*1/ }).waitFor();
    await capture(page, 'tester-my-bugs');
    await tabs.getByRole('tab', { name: /Closed/ }).click();
    await page.getByText('No bugs found for this status').waitFor();
    await tabs.getByRole('tab', { name: /All/ }).click();
  });

  it('shows the detail with badges, progress and Edit for the creator', async () => {
    const { page } = session;
    await page.getByRole('button', { name: 'Cart total ignores discount code' }).click();
    await page.waitForURL('**/tester/bug/**');
    // The list stays up while the route loads the bug: wait for the detail's own heading, not the card's.
    await page.getByRole('heading', { level: 1, name: 'Cart total ignores discount code' }).waitFor();
    for (const text of ['Open', 'High', 'Critical', 'Checkout', '0%', 'Steps to Reproduce', 'Dana Developer']) {
      expect(await page.getByText(text, { exact: true }).first().isVisible()).toBe(true);
    }
    expect(await page.getByRole('link', { name: 'https://example.com/screenshot.png' }).isVisible()).toBe(true);
    await capture(page, 'tester-bug-detail');
    // The reporter edits in place, on the bug's own page (issue 16); /tester/edit-bug/{id} still works.
    await page.getByRole('link', { name: 'Edit' }).click();
    await page.waitForURL('**/tester/bug/**edit=1');
    await page.getByRole('heading', { level: 1, name: 'Cart total ignores discount code' }).waitFor();
  });

  it('edits by URL (a reload keeps the form) and saves', async () => {
    const { page } = session;
    await page.reload();
    const title = page.getByLabel('Title');
    await title.waitFor();
    expect(await title.inputValue()).toBe('Cart total ignores discount code');
    await title.fill('Cart total ignores the discount code');
    await capture(page, 'tester-edit-bug');
    await page.getByRole('button', { name: 'Update Bug' }).click();
    await toast(session, 'Bug Updated Successfully');
    await page.getByRole('heading', { name: 'Cart total ignores the discount code' }).waitFor();
  });

  it("lists every bug; someone else's opens as a read-only summary, and its page still refuses", async () => {
    const { page } = session;
    await page.goto('/tester/all-bugs');
    const row = page.getByRole('row', { name: new RegExp(othersBug.title) });
    await row.waitFor();
    await capture(page, 'tester-all-bugs');
    await row.click();
    const summary = page.getByRole('dialog', { name: new RegExp(othersBug.title) });
    await summary.getByText('Reported by', { exact: true }).waitFor();
    expect(await summary.getByText(othersBug.description).count()).toBe(0);
    await page.keyboard.press('Escape');
    await page.goto(`/tester/bug/${othersBug._id}`);
    await page.getByText("You don't have permission to view this bug").waitFor();
    await capture(page, 'tester-bug-forbidden');
  });

  it('counts the report on the dashboard', async () => {
    const { page } = session;
    await page.goto('/tester/dashboard');
    await page.getByText('Your Recent Bug Reports').waitFor();
    await page.getByRole('row', { name: /Cart total ignores the discount code/ }).waitFor();
    expect(await page.getByText('Your Reported Bugs Status').isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Refresh Dashboard' }).click();
    await toast(session, 'Dashboard refreshed');
    await capture(page, 'tester-dashboard');
  });

  it('deletes the bug from the edit form', async () => {
    const { page } = session;
    await page.getByRole('row', { name: /Cart total ignores the discount code/ }).click();
    await page.getByRole('link', { name: 'Edit' }).click();
    await page.getByRole('button', { name: 'Delete Bug' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete Bug' });
    await dialog.getByRole('button', { name: 'Delete Bug' }).click();
    await toast(session, 'Bug deleted successfully');
    await page.waitForURL('**/tester/my-bugs');
    await page.getByText('No bugs found for this status').waitFor();
  });

  it('opens the chat page frame and logs out', async () => {
    const { page } = session;
    await page.goto('/tester/chats');
    await page.getByText('No chat selected').waitFor();
    await page.getByText('Select an existing chat or create a new one to start messaging').waitFor();
    await capture(page, 'tester-chats');
    await page.getByRole('complementary', { name: 'Sidebar' }).getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL('**/login');
  });
});
