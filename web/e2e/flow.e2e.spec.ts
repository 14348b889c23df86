import { readFile } from 'node:fs/promises';
import { PostgresEventStore } from '@bugtrail/eventstore';
import { eventually, registerAuditor } from '@bugtrail/testing';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportBug, statusChanged } from '../../cli/src/demo/bug-events.js';
import { formatDuration } from '../src/components/flow/format-duration.js';
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

type Percentiles = { p50: number | null; p85: number | null; p95: number | null; count: number };
type Metrics = {
  asOf: string;
  cycleTime: Percentiles;
  groups: { key: string | null; cycleTime: Percentiles; count: number }[];
};

/** The four charts and the table, by their card's name; each has an svg (or a table) and a CSV button. */
const charts = ['Cumulative flow', 'Cycle time per bug', 'Opened vs resolved per week', 'Time in status by severity'];

async function downloadCsv(page: Page, region: string) {
  const card = page.getByRole('region', { name: region, exact: true });
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    card.getByRole('button', { name: /CSV/ }).click(),
  ]);
  const file = await download.path();
  return { name: download.suggestedFilename(), text: await readFile(file, 'utf8') };
}

/**
 * A year of history at a real project's scale (weekly flow, day-long cycle times, 52 weeks of
 * bars), which bugs reported through the API cannot have (they are seconds old): reports and
 * status moves appended to the product's event store with past times, as write-api would
 * have appended them, then projected by the running product.
 */
async function appendYearOfBugs(e2e: E2E, reporterId: string, developerIds: string[]): Promise<number> {
  const store = new PostgresEventStore(e2e.product.db);
  let seed = 7;
  const random = () => {
    seed = (seed * 16807) % 2147483647;
    return seed / 2147483647;
  };
  const DAY = 86_400_000;
  const start = Date.now() - 365 * DAY;
  let closed = 0;
  for (let i = 0; i < 240; i++) {
    const bugId = crypto.randomUUID();
    let at = start + random() * 330 * DAY;
    const iso = () => new Date(at).toISOString();
    const events = reportBug(
      {
        bugId,
        reporterId,
        title: `Year bug ${i}`,
        description: 'Steps to reproduce it',
        severity: (['Critical', 'Major', 'Minor'] as const)[i % 3],
        assigneeIds: [developerIds[i % developerIds.length]!],
      },
      { at: iso() },
    );
    at += DAY * (0.1 + 3 * random());
    events.push(statusChanged(bugId, 'Open', 'In Progress', { actorId: reporterId, at: iso() }));
    if (random() < 0.85) {
      at += DAY * (0.1 + 10 * random() ** 2.5);
      events.push(statusChanged(bugId, 'In Progress', 'Closed', { actorId: reporterId, at: iso() }));
      closed++;
    }
    await store.append(`bug-${bugId}`, events, 'no_stream');
  }
  return closed;
}

describe('flow page: cycle time, cumulative flow, weekly bars and time in status', () => {
  let e2e: E2E;
  let admin: TestUser;
  let auditor: TestUser;
  let tester: TestUser;
  let metrics: Metrics;
  let developerIds: string[] = [];

  beforeAll(async () => {
    e2e = await startE2E();
    admin = await registerUser(e2e.url, 'admin', 'Avery Admin');
    const drew = await registerUser(e2e.url, 'developer', 'Drew Backend');
    const fran = await registerUser(e2e.url, 'developer', 'Fran Frontend');
    developerIds = [drew.id, fran.id];
    tester = await registerUser(e2e.url, 'tester', 'Quinn QA');
    auditor = await registerAuditor(e2e.url, admin.token, 'Ada Auditor');
    const report = (title: string, severity: string, assignee: TestUser) =>
      createBug(e2e.url, tester.token, { title, severity, assignedTo: [assignee.id] });
    const crash = await report('Checkout crashes on empty cart', 'Critical', drew);
    const login = await report('Login loops after password reset', 'Critical', fran);
    const invoice = await report('Invoice PDF shows wrong VAT', 'Major', drew);
    await report('Footer link is misaligned', 'Minor', fran);
    // Cycle times of a second or two, so the percentiles differ from zero.
    await new Promise((resolve) => setTimeout(resolve, 1200));
    const move = async (bugId: string, status: string, who: TestUser) => {
      const answer = await http(e2e.url).put(`/api/bugs/${bugId}/status`, { status }, who.token);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    };
    await move(crash._id, 'In Progress', drew);
    await move(crash._id, 'Closed', drew);
    await move(invoice._id, 'Closed', admin);
    await new Promise((resolve) => setTimeout(resolve, 800));
    await move(login._id, 'Closed', fran);
    // The metrics read the flow projection: wait until it has every move.
    metrics = await eventually(async () => {
      const answer = await http(e2e.url).get<Metrics>('/api/metrics?groupBy=severity', admin.token);
      return answer.body.cycleTime?.count === 3 ? answer.body : null;
    }, 300);
  }, 180_000);
  afterAll(async () => {
    await e2e?.close();
  });

  describe('an admin', () => {
    let session: Session;
    beforeAll(async () => {
      session = await openPage(e2e, { user: admin });
    });
    afterAll(async () => {
      await session?.context.close();
    });

    it('opens Flow from the sidebar and sees the summary the API answers', async () => {
      const { page } = session;
      await page.goto('/admin/dashboard');
      await page.getByRole('complementary', { name: 'Sidebar' }).getByRole('link', { name: 'Flow' }).click();
      await page.waitForURL('**/admin/flow');
      await page.getByRole('heading', { level: 1, name: 'Flow' }).waitFor();
      await page.getByTestId('flow-cycle-count').filter({ hasText: `over 3 bugs resolved` }).waitFor();
      const cycle = page.getByRole('region', { name: 'Cycle time', exact: true });
      expect(await cycle.getByRole('definition').first().textContent()).toBe(formatDuration(metrics.cycleTime.p50));
      await page
        .getByTestId('flow-as-of')
        .filter({ hasText: /^As of \d{2} \w{3} \d{4}, \d{2}:\d{2} UTC$/ })
        .waitFor();
      expect(await page.getByRole('region', { name: "Open bugs' age" }).textContent()).toContain('1 bug not resolved');
    });

    it('groups by assignee and by severity, with the p50 the API gives each group', async () => {
      const { page } = session;
      const groupBy = page.getByLabel('Group by');
      await groupBy.selectOption('assignee');
      await page.waitForURL((url) => url.searchParams.get('groupBy') === 'assignee');
      const byAssignee = page.getByRole('region', { name: 'Cycle time by assignee' });
      await byAssignee.getByRole('row', { name: /Drew Backend/ }).waitFor();
      await byAssignee.getByRole('row', { name: /Fran Frontend/ }).waitFor();

      await groupBy.selectOption('severity');
      await page.waitForURL((url) => url.searchParams.get('groupBy') === 'severity');
      const table = page.getByRole('region', { name: 'Cycle time by severity' });
      for (const key of ['Critical', 'Major', 'Minor']) {
        const group = metrics.groups.find((g) => g.key === key)!;
        const row = table.getByRole('row', { name: new RegExp(`^${key}\\b`) });
        const p50 = row.locator('td[data-percentile="p50"]');
        await expect.poll(() => p50.textContent()).toBe(formatDuration(group.cycleTime.p50));
        if (group.cycleTime.p50 !== null)
          expect(await p50.getAttribute('title')).toBe(`${group.cycleTime.p50} seconds`);
      }
      expect(metrics.groups.find((g) => g.key === 'Critical')?.cycleTime.count).toBe(2);

      for (const name of charts) {
        const svg = page.getByRole('region', { name, exact: true }).locator('svg[role="img"]');
        await svg.waitFor();
        expect(await svg.getAttribute('aria-label'), name).toBeTruthy();
      }
      await capture(page, 'flow-admin');
    });

    it('downloads the table and the charts as CSV', async () => {
      const { page } = session;
      const table = await downloadCsv(page, 'Cycle time by severity');
      expect(table.name).toMatch(/^flow-cycle-time-by-severity-\d{4}-\d{2}-\d{2}\.csv$/);
      const lines = table.text.trim().split(/\r?\n/);
      expect(lines[0]).toBe('severity,bugs,cycle_count,p50_seconds,p85_seconds,p95_seconds');
      const critical = metrics.groups.find((g) => g.key === 'Critical')!;
      expect(lines[1]).toBe(
        `Critical,${critical.count},${critical.cycleTime.count},${critical.cycleTime.p50},${critical.cycleTime.p85},${critical.cycleTime.p95}`,
      );

      const flow = await downloadCsv(page, 'Cumulative flow');
      expect(flow.name).toMatch(/^flow-cumulative-\d{4}-\d{2}-\d{2}\.csv$/);
      expect(flow.text.split('\r\n')[0]).toBe('date,pending,in_progress,resolved');
      expect(flow.text.trim().split('\r\n').at(-1)).toMatch(/,1,0,3$/);

      const scatter = await downloadCsv(page, 'Cycle time per bug');
      expect(scatter.text.split('\r\n')[0]).toBe('bug_id,title,closed_at,cycle_time_seconds,severity');
      expect(scatter.text.trim().split('\r\n')).toHaveLength(4);

      const weekly = await downloadCsv(page, 'Opened vs resolved per week');
      expect(weekly.text.split('\r\n')[0]).toBe('week,week_start,opened,resolved');

      const status = await downloadCsv(page, 'Time in status by severity');
      expect(status.text.split('\r\n')[0]).toBe(
        'severity,bugs,pending_mean_seconds,in_progress_mean_seconds,resolved_mean_seconds',
      );
    });

    it('keeps the view in the URL: last month is its first to its last day, and empty charts say so', async () => {
      const { page } = session;
      await page.getByRole('button', { name: 'Last month' }).click();
      const now = new Date();
      const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)).toISOString().slice(0, 10);
      const last = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 0)).toISOString().slice(0, 10);
      await page.waitForURL((url) => url.searchParams.get('from') === first && url.searchParams.get('to') === last);
      expect(await page.getByLabel('From', { exact: true }).inputValue()).toBe(first);
      expect(await page.getByLabel('To', { exact: true }).inputValue()).toBe(last);
      await page.getByText('No bugs resolved in this range').waitFor();
      await page.getByText('No bugs opened or resolved in this range').waitFor();
      await page.getByTestId('flow-cycle-count').filter({ hasText: 'over 0 bugs resolved' }).waitFor();
      await capture(page, 'flow-admin-last-month');

      // The link alone brings the same view back.
      const link = page.url();
      await page.goto('/admin/dashboard');
      await page.goto(link);
      expect(await page.getByLabel('From', { exact: true }).inputValue()).toBe(first);
      await page.getByText('No bugs resolved in this range').waitFor();
      await page.getByRole('button', { name: 'All time' }).click();
      await page.waitForURL((url) => !url.searchParams.has('from'));
      await page.getByTestId('flow-cycle-count').filter({ hasText: 'over 3 bugs resolved' }).waitFor();
    });
  });

  it('an auditor sees the same page, read-only', async () => {
    const session = await openPage(e2e, { user: auditor });
    try {
      const { page } = session;
      await page.goto('/auditor/dashboard');
      await page.getByRole('complementary', { name: 'Sidebar' }).getByRole('link', { name: 'Flow' }).click();
      await page.waitForURL('**/auditor/flow');
      await page.getByRole('heading', { level: 1, name: 'Flow' }).waitFor();
      await page.getByTestId('flow-cycle-count').filter({ hasText: 'over 3 bugs resolved' }).waitFor();
      await page
        .getByRole('region', { name: 'Cycle time by severity' })
        .getByRole('row', { name: /^Critical/ })
        .waitFor();
      for (const name of charts)
        await page.getByRole('region', { name, exact: true }).locator('svg[role="img"]').waitFor();
      const main = page.getByRole('main');
      expect(await main.getByRole('button', { name: /Edit|Delete|Update|Create/ }).count()).toBe(0);
      await capture(page, 'flow-auditor');
    } finally {
      await session.context.close();
    }
  });

  it('a tester opening /admin/flow is sent home, and the API refuses the metrics', async () => {
    const session = await openPage(e2e, { user: tester });
    try {
      const { page } = session;
      await page.goto('/admin/flow');
      await page.waitForURL('**/tester/dashboard');
      expect(await page.getByRole('heading', { level: 1, name: 'Flow' }).count()).toBe(0);
      expect((await http(e2e.url).get('/api/metrics', tester.token)).status).toBe(403);
    } finally {
      await session.context.close();
    }
  });
  // Last: it adds a year of bugs the other tests do not expect.
  it('reads well with a year of data: weekly flow, day-long cycle times, 52 weeks of bars', async () => {
    const before = (await http(e2e.url).get('/api/metrics', admin.token)).body as Metrics;
    const closed = await appendYearOfBugs(e2e, admin.id, developerIds);
    const total = before.cycleTime.count + closed;
    await eventually(async () => {
      const now = await http(e2e.url).get('/api/metrics', admin.token);
      return now.body.cycleTime.count === total ? true : null;
    }, 300);
    const session = await openPage(e2e, { user: admin });
    try {
      const { page } = session;
      await page.goto('/admin/flow');
      await page
        .getByTestId('flow-cycle-count')
        .filter({ hasText: `over ${total} bugs resolved` })
        .waitFor();
      await page.getByText('Bugs in each status at the end of each week.').waitFor();
      for (const name of charts)
        await page.getByRole('region', { name, exact: true }).locator('svg[role="img"]').waitFor();
      const scatter = page.getByRole('region', { name: 'Cycle time per bug', exact: true });
      expect(await scatter.locator('svg[role="img"]').getAttribute('aria-label')).toContain('cycle time in days');
      expect(await scatter.locator('svg[role="img"] circle').count()).toBe(total);
      await capture(page, 'flow-admin-year');
    } finally {
      await session.context.close();
    }
  });
});
