import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBug, type E2E, http, openPage, registerUser, type Session, startE2E, type TestUser } from './harness.js';

/**
 * The bug page's Activity (issue 12): the timeline in plain words, time travel with the
 * slider and `?at=` (the bug as it was, read-only, under a banner), two moments
 * compared, new events arriving live, and a deleted bug's history for an admin. All
 * under the product's Content-Security-Policy.
 */

const shots = '/tmp/shots';

/**
 * The page at 1280 and 390 px, full length, as /tmp/shots/activity-<name>-<width>.png,
 * and the Activity alone at 390 (…-390-activity.png), where a phone shows it.
 */
async function shoot(page: Page, name: string) {
  const size = page.viewportSize() ?? { width: 1280, height: 860 };
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 860 });
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    await page.waitForTimeout(150);
    // At 1280 nothing scrolls sideways (api.md "Web conventions").
    if (width === 1280) {
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    }
    await page.screenshot({ path: path.join(shots, `activity-${name}-${width}.png`), fullPage: true });
    if (width === 390) {
      await page
        .getByRole('region', { name: 'Activity' })
        .screenshot({ path: path.join(shots, `activity-${name}-390-activity.png`) });
    }
  }
  await page.setViewportSize(size);
}

/** Collects Content-Security-Policy violations of a browser profile. */
async function watchPolicy(session: Session): Promise<string[]> {
  const violations: string[] = [];
  await session.context.exposeBinding('__reportViolation', (_source, text: string) => {
    violations.push(text);
  });
  await session.context.addInitScript(() => {
    const report = (window as unknown as { __reportViolation(v: string): void }).__reportViolation;
    document.addEventListener('securitypolicyviolation', (event) =>
      report(`${location.pathname}: ${event.violatedDirective} ${event.blockedURI} ${event.sample}`),
    );
  });
  return violations;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('bug activity: timeline, time travel, compare', () => {
  let e2e: E2E;
  let admin: TestUser;
  let developer: TestUser;
  let tester: TestUser;
  let bug: { _id: string; title: string };
  let adminSession: Session;
  let violations: string[] = [];
  const description = 'Clicking checkout does nothing on Safari after adding two items.';
  const moments: string[] = [];

  beforeAll(async () => {
    await mkdir(shots, { recursive: true });
    e2e = await startE2E();
    admin = await registerUser(e2e.url, 'admin', 'Ada Admin');
    developer = await registerUser(e2e.url, 'developer', 'Dana Developer');
    tester = await registerUser(e2e.url, 'tester', 'Ravi Tester');
    const api = http(e2e.url);
    bug = await createBug(e2e.url, tester.token, {
      title: 'Checkout button does nothing',
      priority: 'Medium',
      assignedTo: [developer.id],
      checklist: ['Repro on Safari', 'Add two items to the cart'],
    });
    const ok = (answer: { status: number; body: unknown }) => {
      if (answer.status >= 300) throw new Error(`${answer.status} ${JSON.stringify(answer.body)}`);
      return answer.body as { bug: { checklist: { _id: string; text: string }[] } };
    };
    const edited = ok(await api.put(`/api/bugs/${bug._id}`, { description, priority: 'High' }, tester.token)).bug;
    await pause(20);
    ok(await api.put(`/api/bugs/${bug._id}/status`, { status: 'In Progress' }, developer.token));
    // A whole second before the tick, so the date-time picker (to the second) can land in between.
    await pause(1500);
    ok(
      await api.put(
        `/api/bugs/${bug._id}/checklist`,
        { checklist: edited.checklist.map((item, i) => ({ _id: item._id, text: item.text, completed: i === 0 })) },
        developer.token,
      ),
    );
    const history = await api.get(`/api/bugs/${bug._id}/history`, admin.token);
    for (const event of history.body.events as { at: string }[])
      if (!moments.includes(event.at)) moments.push(event.at);
    adminSession = await openPage(e2e, { user: admin });
    violations = await watchPolicy(adminSession);
  });
  afterAll(async () => {
    await adminSession?.context.close();
    await e2e?.close();
  });

  it('tells the story in plain words, newest first, with faces and exact times on hover', async () => {
    const { page } = adminSession;
    await page.goto(`/admin/bugs/${bug._id}`);
    const activity = page.getByRole('region', { name: 'Activity' });
    await activity.waitFor();
    const rows = activity.locator('ol > li');
    await rows.first().waitFor();
    expect(await rows.allTextContents()).toEqual([
      expect.stringContaining("Dana Developer ticked 'Repro on Safari'"),
      expect.stringContaining('Dana Developer changed Status from Pending to In Progress'),
      expect.stringContaining('Ravi Tester edited Description and Priority'),
      expect.stringContaining('Ravi Tester reported the bug and assigned Dana Developer, with 2 steps'),
    ]);
    // The edit shows each field, old value then new; the description as a word diff.
    const edit = rows.nth(2);
    expect(await edit.locator('dt').allTextContents()).toEqual(['Description', 'Priority']);
    expect((await edit.locator('ins').allTextContents()).join(' ')).toContain('checkout');
    expect((await edit.locator('del').allTextContents()).join(' ')).toContain('button');
    expect(((await edit.locator('dd').nth(1).textContent()) ?? '').replace(/\s+/g, ' ')).toMatch(/Medium.*High/);
    // Relative time in the row, the exact time on hover, a face for the actor.
    const time = rows.first().locator('time');
    expect(await time.textContent()).toMatch(/just now|ago/);
    expect(await time.getAttribute('title')).toMatch(/^\d{2} \w{3} \d{4}, \d{2}:\d{2}:\d{2}$/);
    expect(await rows.first().getByRole('img', { name: 'Dana Developer' }).count()).toBe(1);
    // The integrity of the chain, once the history carries it.
    const answer = await http(e2e.url).get(`/api/bugs/${bug._id}/history`, admin.token);
    if (answer.body.integrity) {
      await activity.getByText(`History intact: ${answer.body.integrity.events} events, chain verified`).waitFor();
    }
    await shoot(page, 'timeline');
  });

  it('scrubs back to an earlier moment: the bug as it was, read-only, under a banner, in the URL', async () => {
    const { page } = adminSession;
    const slider = page.getByRole('slider', { name: 'Time travel' });
    // Every step waits for what it needs on screen (an event), never for time: under a loaded
    // machine the history, the moment and the page each arrive later, not differently.
    const sliderAt = (spoken: string) =>
      page.locator(`input[type="range"][aria-valuetext*="${spoken}"]:enabled`).waitFor();
    const settled = () => page.getByRole('status', { name: 'Loading that moment' }).waitFor({ state: 'detached' });
    await sliderAt('Now: ');
    await slider.focus();
    await page.keyboard.press('Home');
    await page.waitForURL((url) => url.searchParams.get('at') === moments[0]);
    const banner = page.getByRole('status').filter({ hasText: 'Viewing as of' });
    await banner.waitFor();
    await page.getByRole('heading', { level: 1, name: bug.title }).waitFor();
    // As reported: Open (Pending in the admin's words), Medium, the first description, nothing ticked.
    const header = page.locator('h1').locator('xpath=..');
    await header.getByText('Medium', { exact: true }).waitFor();
    await settled();
    await header.getByText('Pending', { exact: true }).waitFor();
    await page.getByText('0 of 2 completed').waitFor();
    expect(await page.getByText(description, { exact: true }).count()).toBe(0);
    // Read-only: no form, no Update.
    expect(await page.getByRole('button', { name: 'Update Bug' }).count()).toBe(0);
    expect(await page.getByLabel('Title', { exact: true }).count()).toBe(0);
    await shoot(page, 'as-of');

    // One stop on: the edit (High, the new description), still before the status change.
    await sliderAt('(1 of ');
    await slider.focus();
    await page.keyboard.press('ArrowRight');
    await page.waitForURL((url) => url.searchParams.get('at') === moments[1]);
    await header.getByText('High', { exact: true }).waitFor();
    await settled();
    await header.getByText('Pending', { exact: true }).waitFor();
    await page.getByText(description, { exact: true }).waitFor();

    // The URL alone brings the moment back.
    await page.reload();
    await page.getByRole('status').filter({ hasText: 'Viewing as of' }).waitFor();
    await header.getByText('High', { exact: true }).waitFor();

    // The date-time picker goes anywhere, e.g. after the status change.
    const picker = page.getByLabel('Show the bug as of');
    const afterStatus = new Date(Math.ceil(Date.parse(moments[2]!) / 1000) * 1000);
    const local = new Date(afterStatus.getTime() - afterStatus.getTimezoneOffset() * 60_000).toISOString().slice(0, 19);
    await picker.fill(local);
    await header.getByText('In Progress', { exact: true }).waitFor();
    await page.getByText('0 of 2 completed').waitFor();

    await page.getByRole('button', { name: 'Back to now' }).first().click();
    await page.getByLabel('Title', { exact: true }).waitFor();
    expect(new URL(page.url()).searchParams.has('at')).toBe(false);
    expect(await page.getByRole('status').filter({ hasText: 'Viewing as of' }).count()).toBe(0);
  });

  it('compares two moments: the fields that differ, old value then new', async () => {
    const { page } = adminSession;
    await page.getByRole('button', { name: 'Compare two moments' }).click();
    const compare = page.getByRole('region', { name: 'What changed between two moments' });
    await compare.waitFor();
    await compare.getByLabel('First moment').selectOption(moments[0]!);
    await compare.getByLabel('Second moment').selectOption(moments.at(-1)!);
    await compare.getByText('4 fields differ').waitFor();
    expect(await compare.locator('dt').allTextContents()).toEqual(['Description', 'Priority', 'Status', 'Checklist']);
    const status = compare.locator('dd').nth(2);
    expect(((await status.textContent()) ?? '').replace(/\s+/g, ' ')).toMatch(/Pending.*to.*In Progress/);
    await shoot(page, 'compare');

    await compare.getByLabel('First moment').selectOption(moments[2]!);
    await compare.getByLabel('Second moment').selectOption(moments[3]!);
    await compare.getByText('1 field differs').waitFor();
    expect(await compare.locator('dt').allTextContents()).toEqual(['Checklist']);
  });

  it('shows new events as they happen, without a reload', async () => {
    const { page } = adminSession;
    await page.locator('[data-live-status="live"]').waitFor({ timeout: 30_000 });
    let reloads = 0;
    page.on('load', () => {
      reloads += 1;
    });
    const answer = await http(e2e.url).put(`/api/bugs/${bug._id}/status`, { status: 'Closed' }, developer.token);
    expect(answer.status).toBe(200);
    const rows = page.getByRole('region', { name: 'Activity' }).locator('ol > li');
    await rows
      .first()
      .filter({ hasText: 'Dana Developer changed Status from In Progress to Resolved' })
      .waitFor({ timeout: 30_000 });
    expect(reloads).toBe(0);
  });

  it('gives the tester and the developer the same story, in their words, naming the field', async () => {
    const testerSession = await openPage(e2e, { user: tester });
    await testerSession.page.goto(`/tester/bug/${bug._id}`);
    const activity = testerSession.page.getByRole('region', { name: 'Activity' });
    await activity.getByText('Dana Developer changed Status from Open to In Progress').waitFor();
    await testerSession.context.close();

    const developerSession = await openPage(e2e, { user: developer, width: 390, height: 844 });
    const { page } = developerSession;
    await page.goto(`/developer/assigned-bugs/${bug._id}?at=${encodeURIComponent(moments[0]!)}`);
    await page.getByRole('status').filter({ hasText: 'Viewing as of' }).waitFor();
    await page.getByRole('heading', { level: 1, name: bug.title }).waitFor();
    // Read-only: the developer's Update Status action is not offered for another moment.
    expect(await page.getByRole('link', { name: 'Update Status' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Back to now' }).first().click();
    await page.getByRole('link', { name: 'Update Status' }).waitFor();
    // Every role's row names the field, old then new (api.md "Audit trail").
    await page
      .getByRole('region', { name: 'Activity' })
      .getByText('Dana Developer changed Status from Pending to In Progress')
      .waitFor();
    await developerSession.context.close();
  });

  it('says in red where the history was tampered with', async () => {
    const { page } = adminSession;
    const other = await createBug(e2e.url, tester.token, {
      title: 'Export drops the last row',
      assignedTo: [developer.id],
    });
    await http(e2e.url).put(`/api/bugs/${other._id}/status`, { status: 'In Progress' }, developer.token);
    const history = await http(e2e.url).get(`/api/bugs/${other._id}/history`, admin.token);
    if (!history.body.integrity) return; // the hash chain has not landed in this build
    const revision = (history.body.events as { type: string; revision: number }[]).find(
      (event) => event.type === 'BugStatusChanged',
    )!.revision;
    await e2e.product.db.query(
      `update eventstore.events set data = jsonb_set(data, '{to}', '"Closed"')
        where stream_id = $1 and stream_revision = $2`,
      [`bug-${other._id}`, revision],
    );
    await page.goto(`/admin/bugs/${other._id}`);
    const activity = page.getByRole('region', { name: 'Activity' });
    const broken = activity.getByText(`History broken at revision ${revision}`);
    await broken.waitFor();
    expect(await broken.evaluate((el) => getComputedStyle(el).color)).toMatch(/^(rgb|oklch)\(/);
    expect(await broken.evaluate((el) => el.className)).toContain('text-rose-700');
    const row = activity.locator(`[data-revision="${revision}"]`);
    await row.getByText('This event does not match its recorded hash').waitFor();
    await shoot(page, 'tampered');
  });

  it("keeps a deleted bug's history readable for an admin", async () => {
    const { page } = adminSession;
    const answer = await http(e2e.url).delete(`/api/bugs/${bug._id}`, admin.token);
    expect(answer.status).toBe(200);
    await page.goto(`/admin/bugs/${bug._id}`);
    await page.getByRole('alert').filter({ hasText: 'This bug was deleted by Ada Admin' }).waitFor();
    await page.getByRole('heading', { level: 1, name: bug.title }).waitFor();
    const activity = page.getByRole('region', { name: 'Activity' });
    await activity.getByText('Ada Admin deleted the bug').waitFor();
    await shoot(page, 'deleted');
    // Time travel works there too.
    await page.getByRole('slider', { name: 'Time travel' }).focus();
    await page.keyboard.press('Home');
    await page.getByRole('status').filter({ hasText: 'Viewing as of' }).waitFor();
    // The bug as it was renders after the banner: wait for it (isVisible does not wait).
    await page.locator('h1').locator('xpath=..').getByText('Pending', { exact: true }).waitFor();
    // A bug that never existed still says so.
    await page.goto('/admin/bugs/no-such-bug');
    await page.getByRole('alert').filter({ hasText: 'Bug not found' }).waitFor();
  });

  it('tripped no Content-Security-Policy rule on the way', () => {
    expect(violations).toEqual([]);
  });
});
