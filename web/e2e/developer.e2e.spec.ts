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

describe('developer: dashboard, assigned bugs, status and checklist', () => {
  let e2e: E2E;
  let developer: TestUser;
  let session: Session;
  let bug: { _id: string; title: string };

  beforeAll(async () => {
    e2e = await startE2E();
    developer = await registerUser(e2e.url, 'developer', 'Devon Developer');
    const tester = await registerUser(e2e.url, 'tester', 'Terry Tester');
    bug = await createBug(e2e.url, tester.token, {
      title: 'Profile photo upload times out',
      assignedTo: [developer.id],
      priority: 'High',
      severity: 'Critical',
      module: 'Profile',
      checklist: ['Open the profile page', 'Upload a 4 MB JPEG'],
    });
    await createBug(e2e.url, tester.token, {
      title: 'Search ignores accents',
      assignedTo: [developer.id],
      priority: 'Low',
      severity: 'Minor',
      module: 'Search',
    });
    await createBug(e2e.url, tester.token, {
      title: 'Export misses the due column',
      assignedTo: [developer.id],
      priority: 'Medium',
      severity: 'Major',
      module: 'Reports',
    });
    session = await openPage(e2e, { user: developer });
  });
  afterAll(async () => {
    await session?.context.close();
    await e2e?.close();
  });

  it('shows the dashboard with the spec labels', async () => {
    const { page } = session;
    await page.goto('/');
    await page.waitForURL('**/developer/dashboard');
    await page.getByRole('row', { name: /Profile photo upload times out/ }).waitFor();
    for (const text of [
      'Total Assigned Bugs',
      'Pending Bugs',
      'In Progress Bugs',
      'Resolved Bugs',
      'Assigned Bugs Status',
      'Bugs by Priority',
    ]) {
      expect(await page.getByText(text, { exact: true }).first().isVisible()).toBe(true);
    }
    const priorityChart = page.getByRole('img', { name: /Bugs by Priority/ });
    expect(await priorityChart.getAttribute('aria-label')).toBe('Bugs by Priority: Critical 1, Major 1, Minor 1');
    expect(await page.getByRole('img', { name: /Assigned Bugs Status/ }).getAttribute('aria-label')).toBe(
      'Assigned Bugs Status: Pending 3, In Progress 0, Resolved 0',
    );
    await capture(page, 'developer-dashboard');
  });

  it('searches and filters the assigned bugs', async () => {
    const { page } = session;
    await page.getByRole('complementary', { name: 'Sidebar' }).getByRole('link', { name: 'Assigned Bugs' }).click();
    await page.getByText('Search ignores accents').waitFor();
    await capture(page, 'developer-assigned-bugs');
    await page.getByLabel('Search bugs', { exact: true }).fill('accents');
    await page.waitForURL(/q=accents/);
    await page.getByText('Profile photo upload times out').waitFor({ state: 'detached' });
    expect(await page.getByText('Search ignores accents').isVisible()).toBe(true);
    await page.getByLabel('Search bugs', { exact: true }).fill('');
    await page.getByLabel('Status', { exact: true }).selectOption('Resolved');
    await page.getByText('No bugs assigned to you').waitFor();
    await page.getByLabel('Status', { exact: true }).selectOption('');
    await page.getByRole('button', { name: 'Profile photo upload times out' }).click();
    await page.waitForURL(`**/developer/assigned-bugs/${bug._id}`);
    // The list stays up while the route loads the bug: wait for the detail's own heading, not the card's.
    await page.getByRole('heading', { level: 1, name: 'Profile photo upload times out' }).waitFor();
    await page.getByText('Upload a 4 MB JPEG').waitFor();
    expect(await page.getByText('Pending', { exact: true }).first().isVisible()).toBe(true);
    await capture(page, 'developer-bug-detail');
  });

  it('changes the status at once and ticks a checklist item', async () => {
    const { page } = session;
    await page.getByRole('link', { name: 'Update Status' }).click();
    await page.waitForURL('**/developer/update-bugs**');
    const group = page.getByRole('group', { name: 'Set status' });
    await group.waitFor();
    expect(await group.getByRole('button', { name: 'Pending' }).isDisabled()).toBe(true);
    await group.getByRole('button', { name: 'In Progress' }).click();
    await toast(session, 'Bug status updated successfully');
    expect(await group.getByRole('button', { name: 'In Progress' }).isDisabled()).toBe(true);
    await page.getByText('Open the profile page').click();
    await toast(session, 'Checklist updated');
    await page.getByText('1 of 2 completed').waitFor();
    await capture(page, 'developer-update-bugs');
  });

  it('shows who completed the item, and jumps to a bug with Ctrl-K', async () => {
    const { page } = session;
    await page.goto(`/developer/assigned-bugs/${bug._id}`);
    await page.getByText(/Completed by Devon Developer on/).waitFor();
    expect(await page.getByText('50%').isVisible()).toBe(true);
    await page.goto('/developer/dashboard');
    await page.getByRole('row', { name: /Search ignores accents/ }).waitFor();
    await page.keyboard.press('Control+k');
    const palette = page.getByRole('dialog', { name: 'Command palette' });
    await palette.getByRole('combobox').fill('Export misses');
    await palette.getByRole('option', { name: /Export misses the due column/ }).waitFor();
    await capture(page, 'developer-command-palette');
    await page.keyboard.press('Enter');
    await page.waitForURL('**/developer/assigned-bugs/**');
    await page.getByRole('heading', { name: 'Export misses the due column' }).waitFor();
  });
});
