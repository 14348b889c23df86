import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  capture,
  createBug,
  type E2E,
  http,
  noSideScroll,
  openPage,
  registerUser,
  seriousViolations,
  startE2E,
  type TestUser,
  toast,
} from './harness.js';

/**
 * Triage suggestions on the report form (issue 14): while a tester types a title like one
 * of their earlier bugs, the form shows it as a likely duplicate and suggests a severity,
 * a priority and a developer; one click applies each, and the report's BugReported event
 * records in its metadata which kinds were shown and which were taken.
 */
describe('triage suggestions on the report form', () => {
  let e2e: E2E;
  let tester: TestUser;
  let dana: TestUser;
  let earlier: { _id: string; number: number };

  beforeAll(async () => {
    e2e = await startE2E();
    tester = await registerUser(e2e.url, 'tester', 'Tess Triage');
    dana = await registerUser(e2e.url, 'developer', 'Dana Developer');
    earlier = await createBug(e2e.url, tester.token, {
      title: 'Login button unresponsive on Safari 17',
      severity: 'Major',
      priority: 'High',
      assignedTo: [dana.id],
    });
    await createBug(e2e.url, tester.token, {
      title: 'Login button does not respond on Safari',
      severity: 'Major',
      priority: 'High',
      assignedTo: [dana.id],
    });
    const third = await createBug(e2e.url, tester.token, {
      title: 'Safari: login button unresponsive after update',
      severity: 'Major',
      priority: 'Medium',
      assignedTo: [dana.id],
    });
    for (const bug of [earlier, third]) {
      const closed = await http(e2e.url).put(`/api/bugs/${bug._id}/status`, { status: 'Closed' }, dana.token);
      expect(closed.status).toBe(200);
    }
  });
  afterAll(async () => {
    await e2e?.close();
  });

  it('shows the duplicate and a severity while the tester types, applies it, and records shown and taken', async () => {
    const session = await openPage(e2e, { user: tester });
    const { page } = session;
    try {
      await page.goto('/tester/report-bug');
      await page.getByLabel('Title').fill('Login button unresponsive on Safari');
      await page.getByLabel('Description').fill('Tapping Log in does nothing; the spinner never appears.');

      const panel = page.getByRole('region', { name: 'Suggestions' });
      const duplicateName = /#\d+ Login button unresponsive on Safari 17/;
      const duplicate = panel.getByRole('link', { name: duplicateName });
      await duplicate.waitFor();
      expect(await duplicate.getAttribute('href')).toBe(`/tester/bug/${earlier._id}`);
      expect(await duplicate.textContent()).toContain(`#${earlier.number} `);
      // "#31 Login button unresponsive on Safari — Closed — 0.82"
      const row = panel.getByRole('listitem').filter({ has: page.getByRole('link', { name: duplicateName }) });
      expect(await row.textContent()).toMatch(
        /Login button unresponsive on Safari 17 \(opens in a new tab\) — Closed — similarity 0\.\d\d/,
      );
      await panel.getByText('All 3 most similar bugs were Major').waitFor();
      await panel.getByText(/most similar bugs had High priority/).waitFor();
      await panel.getByText('Closed 2 similar bugs; 1 open now').waitFor();
      // Screen readers hear one polite sentence when the suggestions change.
      const status = panel.getByRole('status');
      expect(await status.getAttribute('aria-live')).toBe('polite');
      expect(await status.textContent()).toMatch(
        /^Suggestions: 3 likely duplicates, severity Major, priority High, 1 developer\.$/,
      );

      expect(
        await seriousViolations(page, 'suggestions panel', { include: '[data-testid="triage-suggestions"]' }),
      ).toEqual([]);

      // Screenshots: light and dark, 1280 and 390, no sideways scroll at either.
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: 844 });
        expect(await noSideScroll(page), `no side scroll at ${width}`).toBe(true);
      }
      await page.setViewportSize({ width: 1280, height: 860 });
      await capture(page, 'triage-form-light');
      await page.emulateMedia({ colorScheme: 'dark' });
      expect(
        await seriousViolations(page, 'suggestions panel', { include: '[data-testid="triage-suggestions"]' }),
      ).toEqual([]);
      await capture(page, 'triage-form-dark');
      await page.emulateMedia({ colorScheme: 'light' });

      // One click each: the severity select takes the value, the developer is ticked.
      expect(await page.getByLabel('Severity').inputValue()).toBe('Minor');
      await panel.getByRole('button', { name: 'Apply Major' }).click();
      expect(await page.getByLabel('Severity').inputValue()).toBe('Major');
      await panel.getByRole('button', { name: 'Major applied' }).waitFor();
      await panel.getByRole('button', { name: 'Assign Dana Developer' }).click();
      await panel.getByRole('button', { name: 'Dana Developer assigned' }).waitFor();
      expect(await page.getByRole('checkbox', { name: /Dana Developer/ }).isChecked()).toBe(true);

      await page.getByRole('button', { name: 'Report Bug' }).click();
      await toast(session, 'Bug Reported Successfully');
      await page.waitForURL('**/tester/bug/**');

      const stored = await e2e.product.db.query<{ metadata: Record<string, unknown>; data: Record<string, unknown> }>(
        `select metadata, data from eventstore.events where type = 'BugReported' and data->>'title' = $1`,
        ['Login button unresponsive on Safari'],
      );
      expect(stored.rows).toHaveLength(1);
      expect(stored.rows[0]!.data).toMatchObject({ severity: 'Major', priority: 'Medium' });
      expect(stored.rows[0]!.metadata.suggestions).toEqual({
        shown: ['duplicates', 'severity', 'priority', 'assignees'],
        // Priority was shown, not taken.
        taken: ['severity', 'assignees'],
      });
    } finally {
      await session.context.close();
    }
  });

  it('shows on the admin dashboard how often each kind was shown and taken', async () => {
    const admin = await registerUser(e2e.url, 'admin', 'Ada Admin');
    const { context, page } = await openPage(e2e, { user: admin });
    try {
      await page.goto('/admin/dashboard');
      const card = page.getByRole('table', { name: 'How often each kind of suggestion was shown and taken' });
      await card.waitFor();
      await page.getByText('1 report made with suggestions').waitFor();
      const row = (name: string) => card.getByRole('row', { name: new RegExp(`^${name}`) });
      expect(await row('Severity').textContent()).toBe('Severity11 (100%)');
      expect(await row('Priority').textContent()).toBe('Priority10 (0%)');
      expect(await row('Developers').textContent()).toBe('Developers11 (100%)');
      expect(await row('Likely duplicates').textContent()).toBe('Likely duplicates1—');
    } finally {
      await context.close();
    }
  });
});
