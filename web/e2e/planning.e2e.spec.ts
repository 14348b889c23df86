import { mkdir } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type E2E,
  http,
  openPage,
  photographAndScan,
  registerUser,
  seriousViolations,
  startE2E,
  type TestUser,
  toast,
} from './harness.js';

/**
 * Planning in the browser (api.md "Relations and sub-bugs", "Milestones"): on a bug's page the
 * assigned developer relates two bugs (blocks) and both pages show it; closing the blocked one is
 * refused with the blocker named; a parent is set and the parent counts its sub-bugs; the bug is
 * planned into a milestone. The milestone's page draws its burn-up (as of any day) and writes the
 * release notes of its closed bugs; the list shows its progress and admins create milestones.
 * axe finds nothing serious at 1280 and 390 px; photographs go to /tmp/shots2.
 */
const shots = '/tmp/shots2';

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

describe('planning: relations, sub-bugs and milestones', () => {
  let e2e: E2E;
  let admin: TestUser;
  let tester: TestUser;
  let dev: TestUser;
  let projectId: string;
  let milestoneId: string;
  const keys: Record<'blocker' | 'blocked' | 'parent' | 'shipped', string> = {
    blocker: '',
    blocked: '',
    parent: '',
    shipped: '',
  };
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    await mkdir(shots, { recursive: true });
    e2e = await startE2E();
    admin = await registerUser(e2e.url, 'admin', 'Ada Admin');
    tester = await registerUser(e2e.url, 'tester', 'Tess Tester');
    dev = await registerUser(e2e.url, 'developer', 'Dev Dana');
    const api = http(e2e.url);
    const project = await api.post('/api/projects', { key: 'PLAN', name: 'Payments' }, admin.token);
    expect(project.status).toBe(201);
    projectId = project.body._id;
    const reports: [keyof typeof keys, string][] = [
      ['blocker', 'Payment page times out under load'],
      ['blocked', 'Receipt email never arrives'],
      ['parent', 'Refund flow overhaul'],
      ['shipped', 'Invoice PDF misses the company logo'],
    ];
    for (const [name, title] of reports) {
      const made = await api.post(
        '/api/bugs',
        {
          title,
          description: 'Seen on staging since the last deploy.',
          priority: 'High',
          severity: 'Major',
          assignedTo: [dev.id],
          projectId,
        },
        tester.token,
      );
      expect(made.status).toBe(201);
      keys[name] = made.body.bug.key;
      ids[name] = made.body.bug._id;
    }
    const milestone = await api.post(
      `/api/projects/${projectId}/milestones`,
      { name: 'Release 1.0', description: 'The first public release.', startDate: day(-3), dueDate: day(10) },
      admin.token,
    );
    expect(milestone.status).toBe(201);
    milestoneId = milestone.body._id;
    // One bug shipped already: labelled, planned, closed.
    const label = await api.post('/api/labels', { name: 'billing', color: '#0e8a16' }, admin.token);
    expect(label.status).toBe(201);
    expect((await api.put(`/api/bugs/${ids.shipped}/labels`, { labelIds: [label.body._id] }, admin.token)).status).toBe(
      200,
    );
    expect((await api.put(`/api/bugs/${ids.shipped}/milestone`, { milestoneId }, dev.token)).status).toBe(200);
    expect((await api.put(`/api/bugs/${ids.shipped}/status`, { status: 'Closed' }, dev.token)).status).toBe(200);
  });
  afterAll(async () => {
    await e2e?.close();
  });

  it('relates, refuses a blocked close, sets a parent and plans a bug into the milestone from the bug page', async () => {
    const session = await openPage(e2e, { user: dev });
    const { page } = session;

    // The blocker's page: "Blocks" the other bug, picked by its key.
    await page.goto(`/bugs/${keys.blocker}`);
    await page.waitForURL(`**/developer/assigned-bugs/${ids.blocker}`);
    await page.getByRole('heading', { name: 'Relations' }).waitFor();
    await page.getByText('No relations to other bugs').waitFor();
    await page.getByRole('button', { name: 'Add relation' }).click();
    await page.getByLabel('This bug…').selectOption('blocks');
    await page.getByLabel('Other bug').fill(keys.blocked);
    await page.getByRole('radio', { name: new RegExp(keys.blocked) }).check();
    await page.getByRole('button', { name: 'Save relation' }).click();
    await toast(session, `Blocks ${keys.blocked}: saved`);
    await page
      .getByRole('list', { name: 'Blocks' })
      .getByRole('link', { name: new RegExp(keys.blocked) })
      .waitFor();

    // The blocked bug's page names it the other way round, and says it is blocked near its status.
    await page.goto(`/bugs/${keys.blocked}`);
    await page.waitForURL(`**/developer/assigned-bugs/${ids.blocked}`);
    await page
      .getByRole('list', { name: 'Blocked by' })
      .getByRole('link', { name: new RegExp(keys.blocker) })
      .waitFor();
    await page.locator('[data-blocked-notice]').getByText(`Blocked by ${keys.blocker}`).waitFor();

    // Closing it is refused, with the blocker named; it stays as it was.
    await page.getByLabel('Change status').selectOption('Closed');
    await page.getByRole('button', { name: 'Save status' }).click();
    await toast(session, `Blocked by ${keys.blocker}: close it first`);
    expect(await page.getByRole('button', { name: 'Close anyway' }).count()).toBe(0);
    expect((await http(e2e.url).get(`/api/bugs/${ids.blocked}`, dev.token)).body.status).toBe('Open');

    // A parent, found by words of its title.
    await page.getByRole('button', { name: 'Set parent' }).click();
    await page.getByLabel('Parent bug').fill('Refund');
    await page.getByRole('radio', { name: new RegExp(keys.parent) }).check();
    await page.getByRole('button', { name: 'Save parent' }).click();
    await toast(session, `Parent set to ${keys.parent}`);
    await page.getByRole('link', { name: new RegExp(`${keys.parent}.*Refund flow overhaul`) }).waitFor();

    // Into the milestone.
    await page.getByLabel('Milestone', { exact: true }).selectOption({ label: 'Release 1.0' });
    await page.getByRole('button', { name: 'Save milestone' }).click();
    await toast(session, 'Planned into Release 1.0');
    await page.getByRole('link', { name: 'Release 1.0' }).waitFor();
    const stored = (await http(e2e.url).get(`/api/bugs/${ids.blocked}`, dev.token)).body;
    expect(stored.milestoneId).toBe(milestoneId);
    expect(stored.parent.key).toBe(keys.parent);

    await page.mouse.move(0, 0);
    await photographAndScan(page, shots, 'bug-relations');

    // The parent counts its sub-bugs and lists them.
    await page.goto(`/bugs/${keys.parent}`);
    await page.waitForURL(`**/developer/assigned-bugs/${ids.parent}`);
    await page.getByText('Sub-bugs: 0 of 1 done').waitFor();
    await page
      .getByRole('list', { name: 'Sub-bugs' })
      .getByRole('link', { name: new RegExp(keys.blocked) })
      .waitFor();
    await page.getByRole('progressbar', { name: 'Sub-bugs done' }).waitFor();
    await session.context.close();
  });

  it('shows an admin the blocked close with "Close anyway" on the bug page', async () => {
    const session = await openPage(e2e, { user: admin });
    const { page } = session;
    await page.goto(`/bugs/${keys.blocked}`);
    await page.waitForURL(`**/admin/bugs/${ids.blocked}`);
    await page.locator('[data-blocked-notice]').getByText(`Blocked by ${keys.blocker}`).waitFor();
    await page.getByRole('list', { name: 'Blocked by' }).waitFor();
    await page.getByLabel('Status', { exact: true }).selectOption('Resolved');
    await page.getByRole('button', { name: 'Update Bug' }).click();
    await toast(session, `Blocked by ${keys.blocker}: close it first`);
    await page.getByRole('button', { name: 'Close anyway' }).waitFor();
    expect((await http(e2e.url).get(`/api/bugs/${ids.blocked}`, admin.token)).body.status).toBe('Open');
    await page.screenshot({ path: `${shots}/admin-blocked-1280.png` });
    await session.context.close();
  });

  it('lists milestones with progress, draws the burn-up, writes release notes, and lets an admin plan one', async () => {
    const session = await openPage(e2e, { user: admin });
    const { page, context } = session;
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: e2e.url });

    await page.goto('/projects/PLAN');
    await page.getByRole('navigation', { name: 'Project views' }).getByRole('link', { name: 'Milestones' }).click();
    await page.waitForURL('**/projects/PLAN/milestones');
    const card = page.locator('[data-milestone="Release 1.0"]');
    await card.getByText('1 of 2 bugs done').waitFor();
    await card.getByRole('progressbar').waitFor();

    // A new one, from the form.
    await page.getByLabel('Name', { exact: true }).fill('Release 1.1');
    await page.getByLabel('Due date').fill(day(30));
    await page.getByRole('button', { name: 'Create milestone' }).click();
    await toast(session, 'Milestone Release 1.1 created');
    await page.locator('[data-milestone="Release 1.1"]').getByText('0 of 0 bugs done').waitFor();
    await page.getByRole('heading', { level: 1 }).click();
    await photographAndScan(page, shots, 'milestones-list');

    // The milestone's page.
    await card.getByRole('link', { name: 'Release 1.0' }).click();
    await page.waitForURL(`**/projects/PLAN/milestones/${milestoneId}`);
    await page.getByRole('heading', { level: 1, name: 'Release 1.0' }).waitFor();
    const chart = page.locator('svg[data-burnup]');
    await chart.waitFor();
    expect(await chart.locator('path[data-series]').count()).toBe(2);
    const bugList = page.getByRole('list', { name: 'Bugs in this milestone' });
    await bugList.getByRole('link', { name: new RegExp(keys.blocked) }).waitFor();
    await bugList.getByRole('link', { name: new RegExp(keys.shipped) }).waitFor();

    // Release notes: the closed bug under its label; the open one not at all.
    const notes = page.getByLabel('Release notes (Markdown)');
    await expect.poll(() => notes.inputValue()).toContain(`- ${keys.shipped} Invoice PDF misses the company logo`);
    const text = await notes.inputValue();
    expect(text).toContain('### billing');
    expect(text).not.toContain(keys.blocked);
    await page.getByRole('button', { name: 'Copy' }).click();
    await toast(session, 'Release notes copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(text);

    // As of yesterday: asked again with asOf.
    const asked = page.waitForResponse((r) => r.url().includes(`/api/milestones/${milestoneId}/burnup?asOf=`));
    await page.getByLabel('As of').fill(day(-1));
    expect((await asked).status()).toBe(200);
    await page.waitForURL(/asOf=/);
    await page.getByRole('button', { name: 'Show today' }).click();
    await chart.waitFor();

    await page.getByRole('heading', { level: 1 }).click();
    await photographAndScan(page, shots, 'milestone');
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: `${shots}/milestone-1280-dark.png`, fullPage: true });
    expect(await seriousViolations(page, 'milestone-1280-dark')).toEqual([]);
    await context.close();
  });
});
