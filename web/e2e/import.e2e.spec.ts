import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  capture,
  type E2E,
  http,
  noSideScroll,
  openPage,
  registerUser,
  seriousViolations,
  startE2E,
  toast,
} from './harness.js';

/**
 * The admin's Import page (issue 20): a Redmine CSV with a BOM, a quoted multi-line
 * description and an invalid row is previewed (counts, the invalid row, the bugs it would
 * create; nothing changes), refused while the invalid row is in, then imported skipping it.
 */
describe('admin: import', () => {
  let e2e: E2E;

  beforeAll(async () => {
    e2e = await startE2E();
  });
  afterAll(async () => {
    await e2e?.close();
  });

  it('previews an export, then imports it, skipping the invalid row', async () => {
    const admin = await registerUser(e2e.url, 'admin', 'Imogen Admin');
    await registerUser(e2e.url, 'developer', 'Dan Dev');
    const csv =
      '\uFEFF#,Tracker,Status,Priority,Subject,Author,Assignee,Category,Created,Updated,Closed,Description\r\n' +
      '30,Bug,Closed,Urgent,Export drops the last row,Rita Reporter,Dan Dev,Reports,2021-02-03 10:00,2021-02-05 10:00,2021-02-05 10:00,"First line\r\nsecond line"\r\n' +
      '4,Bug,In Progress,Low,Login is slow on Mondays,Rita Reporter,,Auth,2021-01-10 09:00,2021-01-12 09:00,,\r\n' +
      '12,Bug,New,Normal,,Rita Reporter,,,2021-01-11 09:00,,,A row without its subject\r\n';
    const session = await openPage(e2e, { user: admin });
    const { page } = session;
    await page.goto('/admin/dashboard');
    await page.getByRole('link', { name: 'Import' }).first().click();
    await page.getByRole('heading', { level: 1, name: 'Import bugs' }).waitFor();
    expect(await page.title()).toBe('Import bugs — Bugtrail');

    await page.getByRole('radio', { name: /Redmine/ }).check();
    await page.getByLabel('Export file').setInputFiles({
      name: 'redmine-issues.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(csv, 'utf8'),
    });
    await page.getByText('redmine-issues.csv').waitFor();
    await page.getByRole('button', { name: 'Preview' }).click();

    await page.getByRole('heading', { name: '2. Preview' }).waitFor();
    const invalid = page.getByRole('list', { name: 'Invalid rows' });
    await invalid.getByText('Title is required').waitFor();
    expect(await invalid.textContent()).toContain('Row 4');
    const sample = page.getByRole('list', { name: 'Bugs to create' });
    await sample.getByText('Export drops the last row').waitFor();
    expect(await sample.getByRole('listitem').count()).toBe(2);
    expect(await sample.textContent()).toContain('Reported by Rita Reporter');
    expect(await sample.textContent()).toContain('assigned to Dan Dev');
    // Nothing changed: no bug yet.
    const api = http(e2e.url);
    expect((await api.get('/api/bugs', admin.token)).body.bugs).toEqual([]);

    // A file with an invalid row imports nothing until the admin chooses to skip it.
    const importButton = page.getByRole('button', { name: 'Import 2 bugs' });
    expect(await importButton.isDisabled()).toBe(true);
    await page.getByRole('note').getByText('A file with invalid rows imports nothing').waitFor();
    expect(await noSideScroll(page)).toBe(true);
    expect(await seriousViolations(page, 'import preview')).toEqual([]);
    await capture(page, 'admin-import-preview');

    await page.getByLabel('Skip the invalid rows and import the others').check();
    await importButton.click();
    await toast(session, 'Imported 2 bugs');
    await page.getByRole('status').getByText('Imported 2 bugs from Redmine.').waitFor();
    await capture(page, 'admin-import-done');

    const bugs = (await api.get('/api/bugs', admin.token)).body.bugs as {
      title: string;
      status: string;
      createdAt: string;
    }[];
    expect(bugs.map((b) => [b.title, b.status, b.createdAt]).sort()).toEqual([
      ['Export drops the last row', 'Closed', '2021-02-03T10:00:00.000Z'],
      ['Login is slow on Mondays', 'In Progress', '2021-01-10T09:00:00.000Z'],
    ]);
    await session.context.close();
  });
});
