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
 * Act where you read (issue 16): the developer changes status and ticks steps on the bug
 * page itself; an admin's stale save offers "reload or overwrite"; every bug page's h1 is
 * the bug's title.
 */
describe('acting on the bug page', () => {
  let e2e: E2E;
  let admin: TestUser;
  let tester: TestUser;
  let developer: TestUser;
  let bug: { _id: string; title: string; number: number };

  beforeAll(async () => {
    e2e = await startE2E();
    admin = await registerUser(e2e.url, 'admin', 'Ada Admin');
    tester = await registerUser(e2e.url, 'tester', 'Tess Tester');
    developer = await registerUser(e2e.url, 'developer', 'Dana Developer');
    bug = await createBug(e2e.url, tester.token, {
      title: 'Search results flicker on scroll',
      assignedTo: [developer.id],
      checklist: ['Open search', 'Scroll fast'],
    });
  });
  afterAll(async () => {
    await e2e?.close();
  });

  it('lets the assigned developer change status and tick a step in place', async () => {
    const session: Session = await openPage(e2e, { user: developer });
    const { page } = session;
    await page.goto(`/developer/assigned-bugs/${bug._id}`);
    await page.getByRole('heading', { level: 1, name: bug.title }).waitFor();
    await page.getByLabel('Change status').selectOption('In Progress');
    await page.getByRole('button', { name: 'Save status' }).click();
    await toast(session, 'Bug status updated successfully');
    await page.getByRole('checkbox', { name: 'Tick Open search' }).check();
    await toast(session, 'Checklist updated');
    await page.getByRole('checkbox', { name: 'Untick Open search' }).waitFor();
    await capture(page, 'developer-bug-act-in-place');
    const stored = await http(e2e.url).get(`/api/bugs/${bug._id}`, admin.token);
    expect(stored.body.status).toBe('In Progress');
    expect(stored.body.checklist[0]).toMatchObject({ completed: true, completedBy: { _id: developer.id } });
    await session.context.close();
  });

  it('lets a keyboard user pass statuses with the arrows and saves only the one chosen', async () => {
    const keyed = await createBug(e2e.url, tester.token, {
      title: 'Filters forget their values',
      assignedTo: [developer.id],
    });
    const session: Session = await openPage(e2e, { user: developer });
    const { page } = session;
    await page.goto(`/developer/assigned-bugs/${keyed._id}`);
    await page.getByRole('heading', { level: 1, name: keyed.title }).waitFor();
    const select = page.getByLabel('Change status');
    await select.focus();
    // Open → In Progress → Closed → back to In Progress: each arrow changes a closed select's value.
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowUp');
    expect(await select.inputValue()).toBe('In Progress');
    await page.keyboard.press('Enter');
    await toast(session, 'Bug status updated successfully');
    await page.getByRole('button', { name: 'Save status' }).and(page.locator(':disabled')).waitFor();
    const history = await http(e2e.url).get(`/api/bugs/${keyed._id}/history`, admin.token);
    const moves = (history.body.events as { type: string; data: { from?: string; to?: string } }[]).filter(
      (event) => event.type === 'BugStatusChanged',
    );
    expect(moves.map((event) => [event.data.from, event.data.to])).toEqual([['Open', 'In Progress']]);
    await session.context.close();
  });

  it('shows the bug as the admin page heading and handles a stale save: overwrite or reload', async () => {
    const session = await openPage(e2e, { user: admin });
    const { page } = session;
    await page.goto(`/admin/bugs/${bug._id}`);
    await page.getByRole('heading', { level: 1, name: bug.title }).waitFor();
    // Someone else saves while the form is open.
    const meanwhile = await http(e2e.url).put(`/api/bugs/${bug._id}`, { module: 'Search' }, tester.token);
    expect(meanwhile.status).toBe(200);
    await page.getByLabel('Title').fill('Search results flicker while scrolling');
    await page.getByRole('button', { name: 'Update Bug' }).click();
    const dialog = page.getByRole('dialog', { name: 'This bug changed meanwhile' });
    await dialog.waitFor();
    await capture(page, 'admin-bug-stale-edit');
    await dialog.getByRole('button', { name: 'Overwrite' }).click();
    await toast(session, 'Bug Updated Successfully');
    const saved = await http(e2e.url).get(`/api/bugs/${bug._id}`, admin.token);
    // Overwrite means this form as it was: its module too, over the other person's.
    expect(saved.body).toMatchObject({ title: 'Search results flicker while scrolling', module: 'Checkout' });

    // Again, and this time reload: the form shows the other person's change, not ours.
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Search results flicker while scrolling' }).waitFor();
    await http(e2e.url).put(`/api/bugs/${bug._id}`, { title: 'Search flickers (reported twice)' }, tester.token);
    await page.getByLabel('Module').fill('Frontend');
    await page.getByRole('button', { name: 'Update Bug' }).click();
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Reload' }).click();
    await page.waitForFunction(
      () =>
        (document.querySelector('input[name="title"]') as HTMLInputElement | null)?.value ===
        'Search flickers (reported twice)',
    );
    expect(await page.getByLabel('Module').inputValue()).toBe('Checkout');
    const after = await http(e2e.url).get(`/api/bugs/${bug._id}`, admin.token);
    expect(after.body).toMatchObject({ title: 'Search flickers (reported twice)', module: 'Checkout' });
    await session.context.close();
  });
});
