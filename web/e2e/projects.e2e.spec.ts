import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  capture,
  type E2E,
  http,
  noSideScroll,
  openPage,
  registerUser,
  startE2E,
  type TestUser,
  toast,
} from './harness.js';

/**
 * Projects in the browser (issue 35, first slice): an admin creates a private team project
 * and makes a developer a member; a tester who is not one never sees it (the list, the
 * sidebar, its address); the member sees it read-only until made a lead, then renames it.
 */
describe('projects: create, members, privacy', () => {
  let e2e: E2E;
  let admin: TestUser;
  let tester: TestUser;
  let dev: TestUser;

  beforeAll(async () => {
    e2e = await startE2E();
    admin = await registerUser(e2e.url, 'admin', 'Ada Admin');
    tester = await registerUser(e2e.url, 'tester', 'Tess Tester');
    dev = await registerUser(e2e.url, 'developer', 'Dev Dana');
  });
  afterAll(async () => {
    await e2e?.close();
  });

  it('lets an admin create a private team project and add a developer to it', async () => {
    const session = await openPage(e2e, { user: admin });
    const { page } = session;
    await page.goto('/projects');
    await page.getByRole('heading', { level: 1, name: 'Projects' }).waitFor();
    const list = page.getByRole('list', { name: 'Projects' });
    await list.getByRole('link', { name: 'General' }).waitFor();

    // A lower-case key becomes capitals as typed; a taken key is refused under its field.
    await page.getByLabel('Key').fill('bug');
    await page.getByLabel('Name', { exact: true }).fill('Another general');
    await page.getByRole('button', { name: 'Create project' }).click();
    await page.getByText('Project key already in use').waitFor();

    await page.getByLabel('Key').fill('SEC');
    await page.getByLabel('Name', { exact: true }).fill('Security');
    await page.getByLabel('Description').fill('Vulnerability reports, for the security team only');
    await page.getByRole('radio', { name: /^Team/ }).check();
    await page.getByRole('checkbox', { name: /^Private/ }).check();
    await page.getByRole('button', { name: 'Create project' }).click();
    await toast(session, 'Project SEC created');
    await page.waitForURL('**/projects/SEC/settings');
    await page.getByRole('heading', { level: 1, name: /Security/ }).waitFor();
    await page.getByText('Members read and comment on every bug of the project').waitFor();

    await page.getByLabel('Person to add').selectOption({ label: 'Dev Dana' });
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByRole('list', { name: 'Members' }).getByText('Dev Dana').waitFor();
    await page
      .getByRole('navigation', { name: 'Projects' })
      .getByRole('link', { name: /Security/ })
      .waitFor();
    await capture(page, 'project-settings');
    expect(await noSideScroll(page)).toBe(true);
    await page.goto('/projects');
    await list.getByRole('link', { name: 'Security' }).waitFor();
    await capture(page, 'projects');
    await session.context.close();
  });

  it('keeps the private project from a tester who is not a member: list, sidebar and address', async () => {
    const { page, context } = await openPage(e2e, { user: tester });
    await page.goto('/projects');
    const list = page.getByRole('list', { name: 'Projects' });
    await list.getByRole('link', { name: 'General' }).waitFor();
    expect(await list.getByRole('listitem').count()).toBe(1);
    expect(await page.getByRole('navigation', { name: 'Projects' }).getByText('Security').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Create project' }).count()).toBe(0);
    // The command palette finds the projects it may see, and not this one.
    await page.keyboard.press('Control+k');
    const palette = page.getByRole('dialog', { name: 'Command palette' });
    await palette.getByRole('combobox').fill('e');
    await palette.getByRole('option', { name: /BUG General/ }).waitFor();
    expect(await palette.getByRole('option', { name: /SEC/ }).count()).toBe(0);
    await page.keyboard.press('Escape');
    await page.goto('/projects/SEC/settings');
    await page.getByText('There is no project SEC').waitFor();
    expect(await page.getByText('Vulnerability reports').count()).toBe(0);
    await capture(page, 'project-not-found');
    await context.close();
  });

  it('shows a member the project read-only until an admin makes them lead; a lead renames it', async () => {
    const { page, context } = await openPage(e2e, { user: dev });
    await page.goto('/projects');
    await page.getByRole('list', { name: 'Projects' }).getByRole('link', { name: 'Security' }).waitFor();
    await page.keyboard.press('Control+k');
    const palette = page.getByRole('dialog', { name: 'Command palette' });
    await palette.getByRole('combobox').fill('SEC');
    await palette.getByRole('option', { name: /SEC Security/ }).click();
    await page.waitForURL('**/projects/SEC');
    await page.getByRole('heading', { level: 1, name: /Security/ }).waitFor();
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.waitForURL('**/projects/SEC/settings');
    expect(await page.getByLabel('Name', { exact: true }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Save changes' }).count()).toBe(0);

    const adminPage = await openPage(e2e, { user: admin });
    await adminPage.page.goto('/projects/SEC/settings');
    const answered = adminPage.page.waitForResponse(
      (r) => r.url().includes('/members/') && r.request().method() === 'PUT' && r.status() === 200,
    );
    await adminPage.page.getByLabel('Role of Dev Dana').selectOption('lead');
    await answered;
    await adminPage.context.close();

    // The member's page hears the change live and opens up.
    await page.getByRole('button', { name: 'Save changes' }).waitFor();
    await page.getByLabel('Name', { exact: true }).fill('Security team');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('heading', { level: 1, name: /Security team/ }).waitFor();
    await capture(page, 'project-settings-lead');
    await context.close();
  });

  it('takes a member’s report into the private project from the form; a non-member never finds it', async () => {
    const api = http(e2e.url);
    const member = await registerUser(e2e.url, 'tester', 'Mia Member');
    const sec = (await api.get('/api/projects/SEC', admin.token)).body;
    const added = await api.call('PUT', `/api/projects/${sec._id}/members/${member.id}`, {
      body: { role: 'member' },
      token: admin.token,
    });
    expect(added.status).toBe(200);

    // The member opens the project from the sidebar (it becomes the current one) and reports from there.
    const { page, context } = await openPage(e2e, { user: member });
    await page.goto('/tester/dashboard');
    await page
      .getByRole('navigation', { name: 'Projects' })
      .getByRole('link', { name: /Security/ })
      .click();
    await page.waitForURL('**/projects/SEC');
    await page.getByText('Nothing waits in triage').or(page.getByText('No bugs in SEC')).first().waitFor();
    await page.getByRole('link', { name: 'Report a bug here' }).click();
    await page.waitForURL('**/tester/report-bug?project=SEC');
    await expect.poll(() => page.getByLabel('Project', { exact: true }).inputValue()).toBe('SEC');
    // A team project: no developer needed, the bug waits in triage.
    await page.getByText('Optional here: with nobody assigned, the bug waits in SEC’s triage').waitFor();
    await capture(page, 'report-into-project');
    await page.getByLabel('Title').fill('Session token in the logs');
    await page.getByLabel('Description').fill('The login handler writes the session token to the access log.');
    await page.getByRole('button', { name: 'Report Bug' }).click();
    await toast({ page }, 'Bug Reported Successfully');
    await page.getByText('Bug key SEC-1', { exact: true }).waitFor();
    // After a reload the sidebar still marks the current project.
    await page.reload();
    await page.getByRole('navigation', { name: 'Projects' }).getByText('(current project)').waitFor();
    await page.goto('/projects/SEC?show=triage');
    await page.getByText('Session token in the logs').first().waitFor();
    await capture(page, 'project-page');
    expect(await noSideScroll(page)).toBe(true);
    await context.close();

    // The tester outside it: not in the all-bugs list, not found by search or palette, 404 by address.
    const outsider = await openPage(e2e, { user: tester });
    await outsider.page.goto('/tester/all-bugs?q=Session%20token');
    await outsider.page.getByText('No bugs found in the system').waitFor();
    expect(await outsider.page.getByText('Session token in the logs').count()).toBe(0);
    await outsider.page.keyboard.press('Control+k');
    const palette = outsider.page.getByRole('dialog', { name: 'Command palette' });
    await palette.getByRole('combobox').fill('SEC-1');
    await palette.getByRole('status').getByText('No results').waitFor();
    expect(await palette.getByRole('option', { name: /Session token/ }).count()).toBe(0);
    await outsider.page.keyboard.press('Escape');
    await outsider.page.goto('/bugs/SEC-1');
    await outsider.page.getByRole('heading', { name: 'There is no bug SEC-1' }).waitFor();
    await outsider.context.close();
  });

  it('opens /bugs/WEB-1 in the caller’s page, names the bug by key in the table and the palette', async () => {
    const api = http(e2e.url);
    const web = await api.post('/api/projects', { key: 'WEB', name: 'Web app' }, admin.token);
    expect(web.status).toBe(201);
    const made = await api.post(
      '/api/bugs',
      {
        title: 'Checkout button unresponsive',
        description: 'Clicking the button does nothing on Safari 17 after adding two items.',
        assignedTo: [dev.id],
        projectId: web.body._id,
      },
      tester.token,
    );
    expect(made.status).toBe(201);
    const bug = made.body.bug;
    expect(bug.key).toBe('WEB-1');

    const { page, context } = await openPage(e2e, { user: admin });
    await page.goto('/bugs/web-1');
    await page.waitForURL(`**/admin/bugs/${bug._id}`);
    // Key and number above the title, each named for screen readers.
    await page.getByText('Bug key WEB-1', { exact: true }).waitFor();
    await page.getByText(`Bug number #${bug.number}`, { exact: true }).waitFor();
    await capture(page, 'bug-with-key');
    await page.goto('/bugs/NOPE-3');
    await page.getByRole('heading', { name: 'There is no bug NOPE-3' }).waitFor();

    await page.goto('/admin/bugs?view=table');
    await page.getByRole('cell', { name: 'WEB-1', exact: true }).waitFor();
    await page.keyboard.press('Control+k');
    const palette = page.getByRole('dialog', { name: 'Command palette' });
    await palette.getByRole('combobox').fill('WEB-1');
    await palette.getByRole('option', { name: /WEB-1 Checkout button unresponsive/ }).click();
    await page.waitForURL(`**/admin/bugs/${bug._id}`);
    await context.close();

    // A tester opens it in the tester's page.
    const own = await openPage(e2e, { user: tester });
    await own.page.goto('/bugs/WEB-1');
    await own.page.waitForURL(`**/tester/bug/${bug._id}`);
    await own.page.getByText('Bug key WEB-1', { exact: true }).waitFor();
    await capture(own.page, 'tester-bug-with-key');
    await own.context.close();
  });
});
