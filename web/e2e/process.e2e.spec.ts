import { mkdir } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type E2E,
  http,
  openPage,
  photographAndScan,
  registerUser,
  startE2E,
  type TestUser,
  toast,
} from './harness.js';

/**
 * A team's own process in the browser (issue 37, api.md "Custom fields, workflow states and
 * time"): an admin adds a select field and a "Needs QA" state in the project's settings; a
 * tester reports with the field; the developer moves the bug to Needs QA and logs an hour and a
 * half; the project's list filters by the field; the timesheet shows the time. axe finds nothing
 * serious at 1280 and 390 px; photographs go to /tmp/shots3.
 */
const shots = '/tmp/shots3';

describe('custom fields, workflow states and time', () => {
  let e2e: E2E;
  let admin: TestUser;
  let tester: TestUser;
  let dev: TestUser;
  let projectId: string;
  let bugKey = '';
  let bugId = '';

  beforeAll(async () => {
    await mkdir(shots, { recursive: true });
    e2e = await startE2E();
    admin = await registerUser(e2e.url, 'admin', 'Ada Admin');
    tester = await registerUser(e2e.url, 'tester', 'Tess Tester');
    dev = await registerUser(e2e.url, 'developer', 'Dev Dana');
    const api = http(e2e.url);
    const project = await api.post('/api/projects', { key: 'OPS', name: 'Operations', access: 'team' }, admin.token);
    expect(project.status).toBe(201);
    projectId = project.body._id;
    for (const user of [tester, dev]) {
      const member = await api.put(`/api/projects/${projectId}/members/${user.id}`, { role: 'member' }, admin.token);
      expect(member.status).toBe(200);
    }
    // Another bug, of another customer: the filter must leave it out.
    const other = await api.post(
      '/api/bugs',
      { title: 'Backup job runs twice', description: 'The nightly backup starts two times.', projectId },
      tester.token,
    );
    expect(other.status).toBe(201);
  });
  afterAll(async () => {
    await e2e?.close();
  });

  it('lets an admin add a select field and a state in the project’s settings', async () => {
    const session = await openPage(e2e, { user: admin });
    const { page } = session;
    await page.goto('/projects/OPS/settings');
    await page.getByRole('heading', { name: 'Custom fields' }).waitFor();
    await page.getByLabel('New field').fill('Customer');
    await page.getByLabel('Type').selectOption('select');
    await page.getByLabel('Options').fill('Acme\nGlobex\nInitech');
    await page.getByRole('button', { name: 'Add field' }).click();
    await toast(session, 'Customer added');
    await page.getByRole('list', { name: 'Custom fields' }).getByText('field.customer').waitFor();

    await page.getByRole('heading', { name: 'Workflow states' }).waitFor();
    await page.getByRole('button', { name: 'Add state' }).click();
    await page.getByLabel('Name of state 4').fill('Needs QA');
    await page.getByLabel('Category of Needs QA').selectOption('In Progress');
    await page.getByRole('button', { name: 'Move Needs QA up' }).click();
    await page.getByRole('button', { name: 'Save states' }).click();
    await toast(session, 'States saved');
    const states = (await http(e2e.url).get(`/api/projects/${projectId}/states`, admin.token)).body.states;
    expect(states.map((s: { name: string }) => s.name)).toEqual(['Open', 'In Progress', 'Needs QA', 'Closed']);
    await page.getByRole('heading', { level: 1 }).click();
    await photographAndScan(page, shots, 'project-settings');
    await session.context.close();
  });

  it('lets a tester report with the field; a wrong choice is impossible, a missing title is named', async () => {
    const session = await openPage(e2e, { user: tester });
    const { page } = session;
    await page.goto('/tester/report-bug?project=OPS');
    await expect.poll(() => page.getByLabel('Project', { exact: true }).inputValue()).toBe('OPS');
    await page.getByLabel('Customer').waitFor();
    await page.getByLabel('Title').fill('Invoices export stalls at 80%');
    await page.getByLabel('Description').fill('The export of last month’s invoices never finishes.');
    await page.getByLabel('Customer').selectOption('Acme');
    await page.getByRole('heading', { level: 1 }).click();
    await photographAndScan(page, shots, 'report-with-field');
    await page.getByRole('button', { name: 'Report Bug' }).click();
    await toast(session, 'Bug Reported Successfully');
    const listed = await http(e2e.url).get('/api/bugs?project=OPS&field.customer=Acme', admin.token);
    expect(listed.body.bugs.map((b: { title: string }) => b.title)).toEqual(['Invoices export stalls at 80%']);
    bugKey = listed.body.bugs[0].key;
    bugId = listed.body.bugs[0]._id;
    expect(listed.body.bugs[0].fields).toEqual({ customer: 'Acme' });
    await session.context.close();
  });

  it('lets the developer move the bug to Needs QA and log time on its page', async () => {
    const session = await openPage(e2e, { user: dev });
    const { page } = session;
    await page.goto(`/bugs/${bugKey}`);
    await page.getByRole('heading', { name: 'Workflow and time' }).waitFor();
    await page.getByText('Customer', { exact: true }).waitFor();
    await page.getByText('Acme', { exact: true }).waitFor();
    await page.getByLabel('State', { exact: true }).selectOption({ label: 'Needs QA (In Progress)' });
    await toast(session, 'State changed');
    await page.getByLabel('Time', { exact: true }).fill('1h 30m');
    await page.getByLabel('Note').fill('Found the slow query');
    await page.getByRole('button', { name: 'Log time' }).click();
    await toast(session, '1h 30m logged');
    await page.getByRole('list', { name: 'Time logged' }).getByText('by Dev Dana').waitFor();
    const bug = (await http(e2e.url).get(`/api/bugs/${bugId}`, dev.token)).body;
    expect(bug).toMatchObject({ status: 'In Progress', state: { name: 'Needs QA' }, timeSpentMinutes: 90 });
    await page.mouse.move(0, 0);
    await photographAndScan(page, shots, 'bug-time');
    await session.context.close();
  });

  it('filters the project’s list by the field, shows the board’s Needs QA column, and totals the timesheet', async () => {
    const session = await openPage(e2e, { user: admin });
    const { page } = session;
    await page.goto('/projects/OPS');
    await page.getByText('Backup job runs twice').first().waitFor();
    await page.getByLabel('Customer').selectOption('Acme');
    await page.waitForURL(/field=customer/);
    await expect.poll(() => page.getByText('Backup job runs twice').count()).toBe(0);
    await page.getByText('Invoices export stalls at 80%').first().waitFor();

    await page.goto('/projects/OPS/board');
    await page.getByRole('list', { name: 'Needs QA' }).getByText('Invoices export stalls at 80%').waitFor();

    await page.goto('/timesheet?from=2000-01-01');
    await page.getByRole('heading', { name: 'Per person' }).waitFor();
    await page.getByText('1h 30m in all').first().waitFor();
    await page.getByRole('cell', { name: 'Found the slow query' }).waitFor();
    await page.getByRole('heading', { level: 1 }).click();
    await photographAndScan(page, shots, 'timesheet');
    await session.context.close();
  });

  it('shows the field as a table column that sorts, on the admin’s View/Update form, and time in each state on Flow', async () => {
    const session = await openPage(e2e, { user: admin });
    const { page } = session;
    await page.goto('/projects/OPS?view=table');
    const header = page.getByRole('columnheader', { name: 'Customer' });
    await header.waitFor();
    await page.getByRole('cell', { name: 'Acme', exact: true }).waitFor();
    await header.getByRole('button').click();
    await page.waitForURL(/sort=field\.customer/);
    await expect.poll(() => header.getAttribute('aria-sort')).toBe('ascending');
    await page.getByRole('heading', { level: 1 }).click();
    await photographAndScan(page, shots, 'list-field-column');

    // The admin's form asks for a developer (spec): the bug gets one first.
    const assigned = await http(e2e.url).put(`/api/bugs/${bugId}`, { assignedTo: [dev.id] }, admin.token);
    expect(assigned.status, JSON.stringify(assigned.body)).toBe(200);
    await page.goto(`/admin/bugs/${bugId}`);
    const customer = page.getByLabel('Customer');
    await expect.poll(() => customer.inputValue()).toBe('Acme');
    await customer.selectOption('Globex');
    await page.getByRole('button', { name: 'Update Bug' }).click();
    await toast(session, 'Bug Updated Successfully');
    expect((await http(e2e.url).get(`/api/bugs/${bugId}`, admin.token)).body.fields).toEqual({ customer: 'Globex' });
    await page.getByRole('heading', { level: 1 }).click();
    await photographAndScan(page, shots, 'admin-bug-fields');

    await page.goto('/admin/flow?from=2000-01-01');
    await page.getByRole('combobox', { name: 'Project', exact: true }).selectOption('OPS');
    await page.waitForURL(/project=OPS/);
    const states = page.getByRole('region', { name: 'Time in each state of OPS' });
    const chart = states.getByRole('img', { name: /^Time in each state/ });
    await chart.waitFor();
    expect(await chart.getAttribute('aria-label')).toMatch(/Needs QA/);
    await page.getByRole('heading', { level: 1 }).click();
    await photographAndScan(page, shots, 'flow-states');
    await session.context.close();
  });
});
