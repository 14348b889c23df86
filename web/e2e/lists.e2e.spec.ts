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
} from './harness.js';

/**
 * Lists people can work in (issue 16): the table view and its URL state across a reload,
 * filters and sorting, the keyboard (j/k, Enter, x, ?, /), admin bulk actions with a
 * result per bug, saved views, and bug numbers (#42, /bugs/42).
 */
describe('bug lists: table, filters in the URL, keyboard, bulk actions, saved views, numbers', () => {
  let e2e: E2E;
  let admin: TestUser;
  let tester: TestUser;
  let lee: TestUser;
  let kim: TestUser;
  let adminSession: Session;
  const bugs: { _id: string; title: string; number: number }[] = [];

  beforeAll(async () => {
    e2e = await startE2E();
    admin = await registerUser(e2e.url, 'admin', 'Ada Admin');
    tester = await registerUser(e2e.url, 'tester', 'Tess Tester');
    lee = await registerUser(e2e.url, 'developer', 'Lee Developer');
    kim = await registerUser(e2e.url, 'developer', 'Kim Developer');
    const specs: [string, string, string, string[]][] = [
      ['Crash when saving a draft', 'Critical', 'High', [lee.id]],
      ['Typo on the pricing page', 'Minor', 'Low', [kim.id]],
      ['Export drops the last row', 'Critical', 'Medium', [kim.id]],
      ['Login loops after reset', 'Critical', 'High', [lee.id, kim.id]],
      ['Avatar upload is slow', 'Major', 'Medium', [lee.id]],
    ];
    for (const [title, severity, priority, assignedTo] of specs) {
      bugs.push(await createBug(e2e.url, tester.token, { title, severity, priority, assignedTo }));
    }
    adminSession = await openPage(e2e, { user: admin });
  });
  afterAll(async () => {
    await adminSession?.context.close();
    await e2e?.close();
  });

  /** A several-valued filter's checkboxes, opened from its summary. */
  const filter = (page: Session['page'], label: string) => {
    const details = page.locator('details', { has: page.locator('summary', { hasText: `${label}:` }) });
    return {
      getByLabel: (name: string) => ({
        check: async () => {
          if (!(await details.evaluate((d) => (d as HTMLDetailsElement).open)))
            await details.locator('summary').click();
          await details.getByRole('group', { name: label }).getByLabel(name, { exact: true }).check();
        },
        uncheck: async () => {
          if (!(await details.evaluate((d) => (d as HTMLDetailsElement).open)))
            await details.locator('summary').click();
          await details.getByRole('group', { name: label }).getByLabel(name, { exact: true }).uncheck();
        },
      }),
    };
  };

  const rowTitles = async (session: Session) => session.page.locator('tbody tr td:nth-child(3)').allTextContents();

  it('numbers every bug and opens /bugs/N in the caller’s page', async () => {
    expect(bugs.map((b) => b.number)).toEqual([1, 2, 3, 4, 5]);
    const { page } = adminSession;
    await page.goto('/bugs/3');
    await page.waitForURL(`**/admin/bugs/${bugs[2]!._id}`);
    await page.getByLabel('Title').first().waitFor();
    expect(await page.getByLabel('Title').first().inputValue()).toBe('Export drops the last row');
    await page.goto('/bugs/999');
    await page.getByRole('heading', { name: 'There is no bug #999' }).waitFor();
  });

  it('switches to a table whose filters and order live in the URL and survive a reload', async () => {
    const { page } = adminSession;
    await page.goto('/admin/bugs');
    await page.getByText('Crash when saving a draft').first().waitFor();
    await page.getByRole('button', { name: 'Table' }).click();
    await page.waitForURL(/view=table/);
    await page.locator('tbody tr').first().waitFor();
    await filter(page, 'Severity').getByLabel('Critical').check();
    await page.waitForURL(/severity=Critical/);
    await filter(page, 'Assignee').getByLabel(`Lee Developer (${lee.email})`).check();
    await page.waitForURL(new RegExp(`assignee=${lee.id}`));
    await page.getByRole('button', { name: /^Title/ }).click();
    await page.waitForURL(/sort=title/);
    await expectTitles(['Crash when saving a draft', 'Login loops after reset']);
    const link = page.url();
    await page.reload();
    await expectTitles(['Crash when saving a draft', 'Login loops after reset']);
    expect(await page.getByRole('button', { name: 'Table' }).getAttribute('aria-pressed')).toBe('true');
    expect(await page.getByRole('columnheader', { name: /Title/ }).getAttribute('aria-sort')).toBe('ascending');
    await capture(page, 'admin-bugs-table');
    // The same link in another browser shows the same list.
    const other = await openPage(e2e, { user: admin });
    await other.page.goto(link);
    await other.page.locator('tbody tr').nth(1).waitFor();
    expect(await rowTitles(other)).toEqual(['Crash when saving a draft', 'Login loops after reset']);
    await other.context.close();
    // Descending on a second press; no sideways scroll at 1280.
    await page.getByRole('button', { name: /^Title/ }).click();
    await page.waitForURL(/sort=-title/);
    await expectTitles(['Login loops after reset', 'Crash when saving a draft']);
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);

    // Several values in one filter, each still named on its control once set (issue 40).
    await filter(page, 'Assignee').getByLabel(`Kim Developer (${kim.email})`).check();
    await page.waitForURL(new RegExp(`assignee=${lee.id}(%2C|,)${kim.id}`));
    await expectTitles(['Login loops after reset', 'Export drops the last row', 'Crash when saving a draft']);
    await page.reload();
    await expectTitles(['Login loops after reset', 'Export drops the last row', 'Crash when saving a draft']);
    const summary = page.locator('summary', { hasText: 'Assignee:' });
    // The names come with the team, which may answer after the list.
    await expect
      .poll(() => summary.textContent())
      .toBe(`Assignee:Lee Developer (${lee.email}), Kim Developer (${kim.email})`);
    expect(await page.locator('summary', { hasText: 'Severity:' }).textContent()).toBe('Severity:Critical');
    await capture(page, 'admin-bugs-several-filters');
    await filter(page, 'Assignee').getByLabel(`Kim Developer (${kim.email})`).uncheck();
    await page.waitForURL(new RegExp(`assignee=${lee.id}(&|$)`));

    async function expectTitles(titles: string[]) {
      await page.waitForFunction(
        (expected) =>
          JSON.stringify([...document.querySelectorAll('tbody tr td:nth-child(3)')].map((td) => td.textContent)) ===
          JSON.stringify(expected),
        titles,
      );
    }
  });

  it('saves the view, lists it in the sidebar and opens it again', async () => {
    const { page } = adminSession;
    await page.getByRole('button', { name: 'Save view' }).click();
    const dialog = page.getByRole('dialog', { name: 'Save view' });
    await dialog.getByLabel('Name').fill('Critical for Lee');
    await dialog.getByRole('button', { name: 'Save view' }).click();
    const saved = page.getByRole('navigation', { name: 'Saved views' }).getByRole('link', { name: 'Critical for Lee' });
    await saved.waitFor();
    await page.goto('/admin/dashboard');
    await saved.click();
    await page.waitForURL(/severity=Critical/);
    expect(page.url()).toContain(`assignee=${lee.id}`);
    expect(page.url()).toContain('sort=-title');
    const views = await http(e2e.url).get('/api/views', admin.token);
    expect(views.body.map((v: { name: string }) => v.name)).toEqual(['Critical for Lee']);
  });

  it('moves with j/k, selects with x and sets a status on the selection, one result per bug', async () => {
    const { page } = adminSession;
    await page.goto('/admin/bugs?view=table&sort=number');
    await page.locator('tbody tr').nth(4).waitFor();
    await page.locator('h1').first().click();
    await page.keyboard.press('j');
    await page.keyboard.press('x');
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    await page.keyboard.press('x');
    await page.keyboard.press('k');
    expect(await page.locator('tr[data-active]').getAttribute('data-bug-row')).toBe(bugs[1]!._id);
    const bulk = page.getByRole('region', { name: 'Bulk actions' });
    await bulk.getByText('2 selected').waitFor();
    await bulk.getByLabel('Set status of selected').selectOption('Closed');
    await bulk.getByText('2 of 2 done').waitFor();
    await capture(page, 'admin-bugs-bulk');
    for (const bug of [bugs[0]!, bugs[2]!]) {
      expect((await http(e2e.url).get(`/api/bugs/${bug._id}`, admin.token)).body.status).toBe('Closed');
    }
    expect((await http(e2e.url).get(`/api/bugs/${bugs[1]!._id}`, admin.token)).body.status).toBe('Open');
    // Enter opens the bug the list is on.
    await page.keyboard.press('j');
    await page.keyboard.press('Enter');
    await page.waitForURL(`**/admin/bugs/${bugs[2]!._id}`);
  });

  it('shows every shortcut on ?, and / goes to the search box', async () => {
    const { page } = adminSession;
    await page.goto('/admin/bugs');
    await page.getByRole('button', { name: 'Table' }).waitFor();
    await page.keyboard.press('?');
    const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await help.waitFor();
    for (const key of ['j', 'k', 'Enter', 'x', 'c', '/', '?']) {
      expect(await help.locator('kbd', { hasText: new RegExp(`^${key.replace(/[?/]/g, '\\$&')}$`) }).count(), key).toBe(
        1,
      );
    }
    await capture(page, 'shortcuts-help');
    await page.keyboard.press('Escape');
    await help.waitFor({ state: 'detached' });
    await page.keyboard.press('/');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('bug-search');
    await page.keyboard.type('#4');
    await page.waitForURL(/q=%234/);
    await page.getByText('Login loops after reset').first().waitFor();
    await page.getByText('Avatar upload is slow').waitFor({ state: 'detached' });
  });

  it('lets a developer clear the queue from the keyboard', async () => {
    const dev = await openPage(e2e, { user: lee });
    const { page } = dev;
    await page.goto('/developer/assigned-bugs?view=table');
    await page.locator('tbody tr').nth(2).waitFor();
    await page.locator('h1').first().click();
    await page.keyboard.press('j');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/developer\/assigned-bugs\/[\w-]+$/);
    await capture(page, 'developer-assigned-table');
    await dev.context.close();
  });
});
