import { AxeBuilder } from '@axe-core/playwright';
import { registerAuditor } from '@bugtrail/testing';
import type { Page } from 'playwright-core';
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
 * The notification bell (api.md "People", issue 15): a developer's bell rings live when a
 * tester reports a bug assigned to them and when an admin mentions them in a comment; the
 * panel opens the bug and marks it read; "Mark all as read" clears it, on the server too.
 * Whoever acts gets no notification of their own; the auditor has the bell, empty.
 */
type NotificationList = { notifications: { _id: string; text: string; readAt: string | null }[]; unread: number };

const bellOf = (page: Page) => page.getByRole('button', { name: /^Notifications/ });
const panelOf = (page: Page) => page.getByRole('dialog', { name: 'Notifications' });

/** Waits for the bell's accessible name to become `name` (the live stream moves it; no reload). */
const bellNamed = (page: Page, name: string) =>
  page.getByRole('button', { name, exact: true }).waitFor({ timeout: 30_000 });

const whereFocusIs = (page: Page) =>
  page.evaluate(() => {
    const active = document.activeElement;
    return {
      label: active?.getAttribute('aria-label') ?? null,
      isInPanel: !!active?.closest('[role="dialog"][aria-label="Notifications"]'),
    };
  });

/** axe-core on the header, the bell's panel included: the serious and critical violations. */
async function headerViolations(page: Page): Promise<string[]> {
  // Reduced motion: no colour is caught halfway through a transition (a theme switch, a hover).
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  const results = await new AxeBuilder({ page })
    .include('header')
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

const isReadPost = (url: string, method: string) => method === 'POST' && url.endsWith('/api/notifications/read');

describe('notifications: the bell rings live, opens the bug, and clears', () => {
  let e2e: E2E;
  let admin: TestUser;
  let tester: TestUser;
  let developer: TestUser;
  let auditor: TestUser;
  const readList = async (user: TestUser) => {
    const answer = await http(e2e.url).get<NotificationList>('/api/notifications', user.token);
    expect(answer.status).toBe(200);
    return answer.body;
  };

  beforeAll(async () => {
    e2e = await startE2E();
    admin = await registerUser(e2e.url, 'admin', 'Ada Admin');
    tester = await registerUser(e2e.url, 'tester', 'Tess Tester');
    developer = await registerUser(e2e.url, 'developer', 'Dev Developer');
    auditor = await registerAuditor(e2e.url, admin.token, 'Audrey Auditor');
  });
  afterAll(async () => {
    await e2e?.close();
  });

  it('rings for the assignee without a reload, leads to the bug, and marks read', async () => {
    const session: Session = await openPage(e2e, { user: developer });
    const { page } = session;
    try {
      await page.emulateMedia({ colorScheme: 'light' });
      await page.goto('/developer/dashboard');
      await page.getByRole('heading', { level: 1 }).waitFor();
      await page.locator('[data-live-status="live"]').waitFor({ timeout: 30_000 });
      await bellNamed(page, 'Notifications');
      expect(await page.getByTestId('notification-badge').count()).toBe(0);
      let reloads = 0;
      page.on('load', () => {
        reloads += 1;
      });

      // A tester reports a bug assigned to the developer, over the API.
      const bug = await createBug(e2e.url, tester.token, {
        title: 'Checkout button overlaps the total',
        assignedTo: [developer.id],
      });
      await bellNamed(page, 'Notifications, 1 unread');
      expect(await page.getByTestId('notification-badge').textContent()).toBe('1');
      expect(reloads).toBe(0);

      // The actor never hears of their own act.
      const testerList = await readList(tester);
      expect(testerList.unread).toBe(0);
      expect(testerList.notifications).toEqual([]);

      // The panel: focus inside, the notification unread (bold, a dot), its time exact in <time>.
      const bell = bellOf(page);
      await bell.click();
      const panel = panelOf(page);
      await panel.waitFor();
      const item = panel.getByRole('link').filter({ hasText: bug.title });
      await item.waitFor();
      expect((await whereFocusIs(page)).isInPanel).toBe(true);
      expect(await item.textContent()).toContain(bug.title);
      expect(await item.getAttribute('href')).toBe(`/developer/assigned-bugs/${bug._id}`);
      expect(await item.locator('[data-unread]').count()).toBe(1);
      const dateTime = await item.locator('time').getAttribute('datetime');
      expect(Number.isNaN(Date.parse(dateTime ?? ''))).toBe(false);
      const weight = await item.evaluate(
        (link) => getComputedStyle(link.querySelector('time')!.previousElementSibling!).fontWeight,
      );
      expect(Number(weight)).toBeGreaterThanOrEqual(600);

      // Photographed open, light then dark, at 1280 and 390 px; axe finds nothing serious in either.
      await capture(page, 'notifications');
      expect(await headerViolations(page)).toEqual([]);
      await page.emulateMedia({ colorScheme: 'dark' });
      await capture(page, 'notifications-dark');
      expect(await headerViolations(page)).toEqual([]);
      await page.emulateMedia({ colorScheme: 'light' });

      // At 390 px the panel spans the width under the header, and nothing scrolls sideways.
      await page.setViewportSize({ width: 390, height: 844 });
      const box = await panel.boundingBox();
      const header = await page.locator('header').boundingBox();
      expect(box?.x).toBe(0);
      expect(box?.width).toBe(390);
      // Its top border lies on the header's bottom border.
      expect(Math.abs((box?.y ?? 0) - ((header?.y ?? 0) + (header?.height ?? 0) - 1))).toBeLessThanOrEqual(1);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await page.setViewportSize({ width: 1280, height: 860 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

      // Escape closes it and gives focus back to the bell; so does a click outside.
      await page.keyboard.press('Escape');
      await panel.waitFor({ state: 'detached' });
      expect(await whereFocusIs(page)).toEqual({ label: 'Notifications, 1 unread', isInPanel: false });
      await bell.click();
      await panel.waitFor();
      await page.getByRole('heading', { level: 1 }).click();
      await panel.waitFor({ state: 'detached' });

      // Opening it marks it read and lands on the developer's bug page.
      await bell.click();
      const marked = page.waitForResponse((response) => isReadPost(response.url(), response.request().method()));
      await item.click();
      expect((await marked).status()).toBe(200);
      await page.waitForURL(`**/developer/assigned-bugs/${bug._id}`);
      await page.getByRole('heading', { level: 1, name: bug.title }).waitFor();
      await bellNamed(page, 'Notifications');
      expect(await page.getByTestId('notification-badge').count()).toBe(0);
      expect((await readList(developer)).unread).toBe(0);

      // An admin mentions the developer in a comment: one notification (api.md: one per person per event).
      const comment = await http(e2e.url).post(
        `/api/bugs/${bug._id}/comments`,
        { body: 'Please look @Dev', mentions: [developer.id] },
        admin.token,
      );
      expect(comment.status).toBe(201);
      await bellNamed(page, 'Notifications, 1 unread');
      expect(await page.getByTestId('notification-badge').textContent()).toBe('1');

      await bell.click();
      await panel.waitFor();
      await panel.getByRole('link').filter({ hasText: 'Ada Admin' }).first().waitFor();
      const markedAll = page.waitForResponse((response) => isReadPost(response.url(), response.request().method()));
      await panel.getByRole('button', { name: 'Mark all as read' }).click();
      expect((await markedAll).status()).toBe(200);
      await bellNamed(page, 'Notifications');
      expect(await panel.locator('[data-unread]').count()).toBe(0);
      const after = await readList(developer);
      expect(after.unread).toBe(0);
      expect(after.notifications.length).toBe(2);
      expect(after.notifications.every((notification) => notification.readAt !== null)).toBe(true);
      expect(reloads).toBe(0);
    } finally {
      await session.context.close();
    }
  });

  it("gives the auditor a bell too, with nothing in it: you're all caught up", async () => {
    const { context, page } = await openPage(e2e, { user: auditor });
    try {
      await page.emulateMedia({ colorScheme: 'light' });
      await page.goto('/auditor/dashboard');
      await page.getByRole('heading', { level: 1 }).waitFor();
      await bellNamed(page, 'Notifications');
      await bellOf(page).click();
      const panel = panelOf(page);
      await panel.getByText("You're all caught up").waitFor();
      expect(await panel.getByRole('button', { name: 'Mark all as read' }).isDisabled()).toBe(true);
      await capture(page, 'notifications-empty');
    } finally {
      await context.close();
    }
  });
});
