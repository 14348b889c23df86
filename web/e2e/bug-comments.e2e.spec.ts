import path from 'node:path';
import { registerAuditor } from '@bugtrail/testing';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  capture,
  createBug,
  type E2E,
  http,
  lateFrames,
  openPage,
  registerUser,
  type Session,
  screenshotDir,
  seriousViolations,
  startE2E,
  type TestUser,
} from './harness.js';

/**
 * Comments on bugs (issue 15): the reporter writes markdown and picks a mention with the
 * keyboard; the assigned developer's open page shows it live; the author edits it; an
 * admin deletes someone's comment; an auditor reads without a composer. Markup in a
 * comment stays text, a half-written comment holds the page, and the server's refusal
 * shows under the composer.
 */

type StoredComment = {
  _id: string;
  author: { _id: string; name: string };
  body: string;
  mentions: string[];
  editedAt: string | null;
  isDeleted: boolean;
};

const FIRST = '**Repro** on [the docs](https://example.com/docs) <script>window.__pwned = 1</script>';

/** Loaded: no skeleton or spinner left on the page. */
async function settle(page: Page) {
  await page.waitForFunction(
    () => !document.querySelector('[role="status"][aria-label="Loading"], [aria-busy="true"]'),
  );
}

/** No sideways scrolling at the page's width. */
async function scrollsSideways(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth + 1);
}

describe('comments on bugs', () => {
  let e2e: E2E;
  let admin: TestUser;
  let tester: TestUser;
  let developer: TestUser;
  let outsider: TestUser;
  let bug: { _id: string; title: string; number: number };
  let developerSession: Session;

  const comments = async () => {
    const answer = await http(e2e.url).get(`/api/bugs/${bug._id}/comments`, admin.token);
    expect(answer.status).toBe(200);
    return answer.body.comments as StoredComment[];
  };

  beforeAll(async () => {
    e2e = await startE2E();
    admin = await registerUser(e2e.url, 'admin', 'Ada Admin');
    tester = await registerUser(e2e.url, 'tester', 'Tess Tester');
    developer = await registerUser(e2e.url, 'developer', 'Dana Developer');
    outsider = await registerUser(e2e.url, 'developer', 'Lee Developer');
    bug = await createBug(e2e.url, tester.token, {
      title: 'Invoice totals round the wrong way',
      assignedTo: [developer.id],
      checklist: ['Open an invoice with 3 lines'],
    });
    // The assigned developer keeps the bug open all along: everything below should reach it live.
    developerSession = await openPage(e2e, { user: developer });
    await developerSession.page.goto(`/developer/assigned-bugs/${bug._id}`);
    await developerSession.page.getByRole('heading', { level: 2, name: 'Comments' }).waitFor();
    await developerSession.page.locator('[data-live-status="live"]').waitFor({ timeout: 30_000 });
  });
  afterAll(async () => {
    await developerSession?.context.close();
    await e2e?.close();
  });

  it('lets the reporter write markdown with a mention picked by keyboard, and the developer sees it live', async () => {
    await developerSession.page.getByText('No comments yet').waitFor();
    const session = await openPage(e2e, { user: tester });
    const { page } = session;
    await page.goto(`/tester/bug/${bug._id}`);
    await page.getByRole('heading', { level: 1, name: bug.title }).waitFor();
    await page.getByRole('heading', { level: 2, name: 'Comments' }).waitFor();
    const box = page.getByRole('textbox', { name: 'Add a comment' });
    const send = page.getByRole('button', { name: 'Comment', exact: true });
    expect(await send.isDisabled()).toBe(true);

    await box.click();
    await box.pressSequentially(`${FIRST} cc @`);
    const list = page.getByRole('listbox', { name: 'People to mention' });
    await list.waitFor();
    // Only people who may see the bug: its assignee, admins and auditors (not the writer, not another developer).
    const offered = await list.getByRole('option').allTextContents();
    // Each option reads: initials (the avatar), name, email where the viewer may see it, why they may see it.
    expect(offered.some((text) => /Dana Developer.*Assignee$/.test(text))).toBe(true);
    expect(offered.some((text) => /Ada Admin.*Admin$/.test(text))).toBe(true);
    expect(offered.some((text) => text.includes('Lee Developer') || text.includes('Tess Tester'))).toBe(false);
    expect(await list.getByRole('option', { selected: true }).textContent()).toContain('Dana Developer');
    await page.keyboard.press('ArrowDown');
    expect(await list.getByRole('option', { selected: true }).textContent()).toContain('Ada Admin');
    const activeId = await box.getAttribute('aria-activedescendant');
    expect(await list.getByRole('option', { selected: true }).getAttribute('id')).toBe(activeId);
    await page.keyboard.press('ArrowUp');
    await box.pressSequentially('Dan');
    expect(await list.getByRole('option').allTextContents()).toEqual([expect.stringContaining('Dana Developer')]);
    await page.keyboard.press('Enter');
    await list.waitFor({ state: 'hidden' });
    expect(await box.inputValue()).toBe(`${FIRST} cc @Dana Developer `);

    // A second mention, picked with Tab and then erased: it must not be sent.
    await box.pressSequentially('and @Ad');
    await list.waitFor();
    await page.keyboard.press('Tab');
    expect(await box.inputValue()).toBe(`${FIRST} cc @Dana Developer and @Ada Admin `);
    for (let i = 0; i < 'and @Ada Admin '.length; i++) await page.keyboard.press('Backspace');
    // Escape closes the list and leaves the text alone.
    await box.pressSequentially('please look @');
    await list.waitFor();
    await page.keyboard.press('Escape');
    await list.waitFor({ state: 'hidden' });
    for (let i = 0; i < ' @'.length; i++) await page.keyboard.press('Backspace');
    await box.pressSequentially('.');
    expect(await send.isDisabled()).toBe(false);

    await page.keyboard.press('Control+Enter');
    const posted = page.locator('li[data-comment-id]').filter({ hasText: 'Repro' });
    await posted.waitFor();
    expect(await box.inputValue()).toBe('');
    const body = posted.getByTestId('comment-body');
    expect(await body.locator('strong').textContent()).toBe('Repro');
    const link = body.getByRole('link', { name: 'the docs' });
    expect(await link.getAttribute('href')).toBe('https://example.com/docs');
    expect(await link.getAttribute('rel')).toBe('noopener noreferrer nofollow');
    // The script tag is text on the page, not an element, and never ran.
    expect(await body.textContent()).toContain('<script>window.__pwned = 1</script>');
    expect(await body.locator('script').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(await body.locator(`[data-mention="${developer.id}"]`).textContent()).toBe('@Dana Developer');
    expect(await posted.locator('time').getAttribute('datetime')).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(await posted.locator('time').getAttribute('title')).toMatch(/\d{2}:\d{2}:\d{2}/);

    const [stored] = await comments();
    expect(stored).toMatchObject({
      author: { _id: tester.id, name: 'Tess Tester' },
      body: `${FIRST} cc @Dana Developer please look.`,
      mentions: [developer.id],
      isDeleted: false,
      editedAt: null,
    });

    // No error toast anywhere, and the developer's page, open since before, gets the comment without a reload.
    expect(await page.locator('[data-sonner-toast][data-type="error"]').count()).toBe(0);
    const seen = developerSession.page.locator('li[data-comment-id]').filter({ hasText: 'Repro' });
    await seen.waitFor({ timeout: 30_000 });
    expect(await seen.locator(`[data-mention="${developer.id}"]`).getAttribute('class')).toContain('bg-amber-100');
    expect(await developerSession.page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBe(
      undefined,
    );
    await session.context.close();
  });

  it('shows the server’s refusal under the composer and keeps the text', async () => {
    const session = await openPage(e2e, { user: tester });
    const { page } = session;
    await page.goto(`/tester/bug/${bug._id}`);
    const box = page.getByRole('textbox', { name: 'Add a comment' });
    await box.waitFor();
    // Someone who may not see the bug, slipped into the request: the server names them.
    await page.route(`**/api/bugs/${bug._id}/comments`, async (route) => {
      if (route.request().method() !== 'POST') return route.continue();
      const sent = route.request().postDataJSON() as { body: string; mentions: string[] };
      return route.continue({ postData: JSON.stringify({ ...sent, mentions: [...sent.mentions, outsider.id] }) });
    });
    await box.fill('Lee, can you look?');
    await page.getByRole('button', { name: 'Comment', exact: true }).click();
    const refusal = page.getByRole('alert').filter({ hasText: 'Lee Developer' });
    await refusal.waitFor();
    expect(await box.inputValue()).toBe('Lee, can you look?');
    expect(await box.getAttribute('aria-invalid')).toBe('true');
    await page.unroute(`**/api/bugs/${bug._id}/comments`);
    expect((await comments()).length).toBe(1);

    // Leaving with the half-written comment asks first; staying keeps it.
    await page.getByRole('link', { name: 'Back to My Reported Bugs' }).click();
    const leave = page.getByRole('dialog', { name: 'Discard unsaved changes?' });
    await leave.waitFor();
    await leave.getByRole('button', { name: 'Cancel' }).click();
    await leave.waitFor({ state: 'hidden' });
    expect(new URL(page.url()).pathname).toBe(`/tester/bug/${bug._id}`);
    expect(await box.inputValue()).toBe('Lee, can you look?');
    await session.context.close();
  });

  it('lets the author edit a comment, which then reads (edited) everywhere', async () => {
    const session = await openPage(e2e, { user: tester });
    const { page } = session;
    await page.goto(`/tester/bug/${bug._id}`);
    const mine = page.locator('li[data-comment-id]').filter({ hasText: 'Repro' });
    await mine.waitFor();
    await mine.getByRole('button', { name: 'Edit comment' }).click();
    const editBox = mine.getByRole('textbox', { name: 'Edit comment' });
    await editBox.waitFor();
    expect(await editBox.inputValue()).toBe(`${FIRST} cc @Dana Developer please look.`);
    await editBox.fill('**Repro** with 3 invoice lines: totals are off by one cent. cc @Dana Developer');
    await mine.getByRole('button', { name: 'Save' }).click();
    await mine.getByText('(edited)').waitFor();
    await editBox.waitFor({ state: 'hidden' });
    expect(await mine.getByTestId('comment-body').textContent()).toContain('off by one cent');
    const [stored] = await comments();
    expect(stored?.editedAt).not.toBeNull();
    // The mention still stands in the edited text, so it is kept.
    expect(stored?.mentions).toEqual([developer.id]);

    await developerSession.page
      .locator('li[data-comment-id]')
      .filter({ hasText: 'off by one cent' })
      .getByText('(edited)')
      .waitFor({ timeout: 30_000 });
    await session.context.close();
  });

  it('lets the developer reply, and an admin delete someone else’s comment', async () => {
    const { page } = developerSession;
    // Not the author, not an admin: no way to edit or delete the reporter's comment.
    const reporters = page.locator('li[data-comment-id]').filter({ hasText: 'off by one cent' });
    expect(await reporters.getByRole('button', { name: 'Edit comment' }).count()).toBe(0);
    expect(await reporters.getByRole('button', { name: 'Delete comment' }).count()).toBe(0);
    await page
      .getByRole('textbox', { name: 'Add a comment' })
      .fill('Found it: `Math.round` on floats.\n\n- [x] Reproduced\n- [ ] Fix `roundHalfEven`\n\n> the totals are off');
    await page.getByRole('button', { name: 'Comment', exact: true }).click();
    const reply = page.locator('li[data-comment-id]').filter({ hasText: 'Found it' });
    await reply.waitFor();
    expect(await reply.locator('code').first().textContent()).toBe('Math.round');

    const session = await openPage(e2e, { user: admin });
    const adminPage = session.page;
    await adminPage.goto(`/admin/bugs/${bug._id}`);
    await adminPage.getByRole('heading', { level: 1, name: bug.title }).waitFor();
    const target = adminPage.locator('li[data-comment-id]').filter({ hasText: 'off by one cent' });
    await target.waitFor();
    // An admin may delete anyone's comment but edit only their own.
    expect(await target.getByRole('button', { name: 'Edit comment' }).count()).toBe(0);
    await target.getByRole('button', { name: 'Delete comment' }).click();
    const confirm = adminPage.getByRole('dialog', { name: 'Delete comment' });
    await confirm.waitFor();
    expect(await confirm.textContent()).toContain('Tess Tester’s comment');
    await confirm.getByRole('button', { name: 'Delete comment' }).click();
    await confirm.waitFor({ state: 'hidden' });
    const gone = adminPage.locator('li[data-comment-id]').filter({ hasText: 'Comment deleted' });
    await gone.waitFor();
    expect(await gone.textContent()).not.toContain('off by one cent');

    const stored = await comments();
    expect(stored.map((c) => [c.author.name, c.isDeleted, c.body])).toEqual([
      ['Tess Tester', true, ''],
      ['Dana Developer', false, expect.stringContaining('Found it')],
    ]);
    // The developer's page follows, live.
    await page.locator('li[data-comment-id]').filter({ hasText: 'Comment deleted' }).waitFor({ timeout: 30_000 });
    await session.context.close();
  });

  it('shows an auditor the discussion with no composer and no actions', async () => {
    const auditor = await registerAuditor(e2e.url, admin.token, 'Otto Auditor');
    const refused = await http(e2e.url).post(
      `/api/bugs/${bug._id}/comments`,
      { body: 'Auditors may not write', mentions: [] },
      auditor.token,
    );
    expect(refused.status).toBe(403);
    const session = await openPage(e2e, { user: auditor });
    const { page } = session;
    await page.goto(`/auditor/bugs/${bug._id}`);
    await page.getByRole('heading', { level: 2, name: 'Comments' }).waitFor();
    await page.locator('li[data-comment-id]').filter({ hasText: 'Found it' }).waitFor();
    await page.getByText('Comment deleted').waitFor();
    expect(await page.getByRole('textbox', { name: 'Add a comment' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /Edit comment|Delete comment|^Comment$/ }).count()).toBe(0);
    await session.context.close();
  });

  it('looks right in light and dark, at 1280 and 390 px, with no sideways scroll', async () => {
    // One more from the reporter, through the API: a bare link, a long unbroken word, markup as text.
    const verified = await http(e2e.url).post(
      `/api/bugs/${bug._id}/comments`,
      {
        body: '**Verified** on staging: https://staging.example.com/invoices/42?lines=3&currency=EUR thanks @Dana Developer!\n\n<b>not bold</b> ~~old workaround~~ InvoiceTotalsRoundingAcrossCurrenciesAndTaxRatesIsNowConsistentEverywhere',
        mentions: [developer.id],
      },
      tester.token,
    );
    expect(verified.status).toBe(201);
    const session = await openPage(e2e, { user: tester });
    const { page } = session;
    await page.goto(`/tester/bug/${bug._id}`);
    const latest = page.locator('li[data-comment-id]').filter({ hasText: 'Verified' });
    await latest.locator('strong').waitFor();
    expect(await latest.getByRole('link', { name: /staging\.example\.com/ }).getAttribute('rel')).toBe(
      'noopener noreferrer nofollow',
    );
    expect(await latest.getByTestId('comment-body').textContent()).toContain('<b>not bold</b>');
    await settle(page);
    const box = page.getByRole('textbox', { name: 'Add a comment' });
    await box.click();
    await box.pressSequentially('Thanks @');
    await page.getByRole('listbox', { name: 'People to mention' }).waitFor();
    const section = page.getByRole('region', { name: 'Comments' });

    for (const theme of ['light', 'dark'] as const) {
      if (theme === 'dark') {
        await page.emulateMedia({ colorScheme: 'dark' });
        await page.waitForFunction(() => document.documentElement.classList.contains('dark'));
      }
      expect(await seriousViolations(page, 'comments')).toEqual([]);
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: 860 });
        expect(await scrollsSideways(page)).toBe(false);
        await section.screenshot({ path: path.join(screenshotDir, `bug-comments-section-${theme}-${width}.png`) });
      }
      await page.setViewportSize({ width: 1280, height: 860 });
      await capture(page, theme === 'light' ? 'bug-comments' : 'bug-comments-dark');
    }
    await session.context.close();
  });

  it('keeps what is typed right after a picked mention after it, however late the next frame comes', async () => {
    const session = await openPage(e2e, { user: tester });
    const { page } = session;
    const { nextFrame } = await lateFrames(page);
    await page.goto(`/tester/bug/${bug._id}`);
    await page.getByRole('heading', { level: 2, name: 'Comments' }).waitFor();
    await settle(page);
    const box = page.getByRole('textbox', { name: 'Add a comment' });
    await box.click();
    await box.pressSequentially('cc @Dan');
    await page.getByRole('listbox', { name: 'People to mention' }).waitFor();
    await page.keyboard.press('Enter');
    // A key typed before the next frame, then the rest after it.
    await box.pressSequentially('n');
    await nextFrame();
    await box.pressSequentially('ow');
    expect(await box.inputValue()).toBe('cc @Dana Developer now');
    await session.context.close();
  });
});
