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
  toast,
} from './harness.js';

/**
 * Offline (issue 16): the service worker opens the app without a network, pages show the
 * last data seen under an honest banner, commands made offline wait and are sent once when
 * the connection returns (their Idempotency-Key makes a repeat act once), and a network
 * failure at start never signs the user out.
 */
const SAVED_OFFLINE = 'Saved offline — it will be sent when you are back online';
const ANSWERS_CACHE = 'bugtrail-answers-v1';

/** Waits until the service worker is active and controls the page (a first visit may need one reload). */
async function installWorker(page: Page) {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  if (!(await page.evaluate(() => navigator.serviceWorker.controller !== null))) await page.reload();
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
}

/** Waits until the page has kept an answer whose URL contains `part`. */
async function waitForSavedAnswer(page: Page, part: string) {
  await page.waitForFunction(
    async ([cacheName, urlPart]) => {
      const cache = await caches.open(cacheName);
      return (await cache.keys()).some((request) => request.url.includes(urlPart));
    },
    [ANSWERS_CACHE, part] as const,
  );
}

const statusChanges = async (url: string, bugId: string, token: string) => {
  const history = await http(url).get(`/api/bugs/${bugId}/history`, token);
  expect(history.status).toBe(200);
  return (history.body.events as { type: string }[]).filter((event) => event.type === 'BugStatusChanged').length;
};

describe('offline: the app shell, the last data seen and commands that wait', () => {
  let e2e: E2E;
  let admin: TestUser;
  let tester: TestUser;
  let developer: TestUser;
  let otherDeveloper: TestUser;
  let bug: { _id: string; title: string };
  let reassigned: { _id: string; title: string };
  const sessions: Session[] = [];

  beforeAll(async () => {
    e2e = await startE2E();
    admin = await registerUser(e2e.url, 'admin', 'Ada Admin');
    tester = await registerUser(e2e.url, 'tester', 'Tess Tester');
    developer = await registerUser(e2e.url, 'developer', 'Dev Offline');
    otherDeveloper = await registerUser(e2e.url, 'developer', 'Olly Other');
    bug = await createBug(e2e.url, tester.token, { title: 'Login spinner never stops', assignedTo: [developer.id] });
    reassigned = await createBug(e2e.url, tester.token, {
      title: 'Avatar upload rotates photos',
      assignedTo: [developer.id],
    });
  });
  afterAll(async () => {
    for (const session of sessions) await session.context.close().catch(() => {});
    await e2e?.close();
  });

  it('opens offline with the last bug list seen, queues a status change and sends it once back online', async () => {
    const session = await openPage(e2e, { user: developer });
    sessions.push(session);
    const { page, context } = session;
    await page.goto('/developer/update-bugs');
    await page.getByText(bug.title).waitFor();
    await installWorker(page);
    await page.getByText(bug.title).waitFor();
    await waitForSavedAnswer(page, '/api/auth/profile');
    await waitForSavedAnswer(page, '/api/bugs');

    await context.setOffline(true);
    await page.reload();
    // The shell came from the worker, the list from the last answer seen.
    await page.getByRole('heading', { name: 'Update Bug Status' }).waitFor();
    await page.getByText(bug.title).waitFor();
    const banner = page.getByRole('status').filter({ hasText: 'Showing the last data seen' });
    await banner.waitFor();
    expect(await banner.textContent()).toContain(
      'You are offline. Showing the last data seen; changes will be sent when you are back online.',
    );
    await page.getByRole('status', { name: 'Live updates down: you are offline' }).waitFor();
    expect(await page.locator('[data-live-down="true"]').count()).toBe(1);

    await page.getByRole('button', { name: bug.title }).click();
    const group = page.getByRole('group', { name: 'Set status' });
    await group.getByRole('button', { name: 'In Progress' }).click();
    await toast(session, SAVED_OFFLINE);
    await banner.filter({ hasText: '1 change waiting to be sent.' }).waitFor();
    // The change shows at once and is not rolled back.
    expect(await group.getByRole('button', { name: 'In Progress' }).getAttribute('aria-pressed')).toBe('true');
    // The banner in the screenshots, not the toast over it.
    for (const close of await page.locator('[data-sonner-toast] [data-close-button]').all()) await close.click();
    await page.locator('[data-sonner-toast]').first().waitFor({ state: 'detached' });
    await capture(page, 'offline-banner');
    const before = await http(e2e.url).get(`/api/bugs/${bug._id}`, admin.token);
    expect(before.body.status).toBe('Open');

    await context.setOffline(false);
    await toast(session, 'Sent 1 change made offline');
    await page.getByRole('status').filter({ hasText: 'waiting to be sent' }).waitFor({ state: 'detached' });
    const after = await http(e2e.url).get(`/api/bugs/${bug._id}`, admin.token);
    expect(after.body.status).toBe('In Progress');
    expect(await statusChanges(e2e.url, bug._id, admin.token)).toBe(1);
    // Online again: the indicator no longer says offline (the stream itself comes back on its own backoff).
    await page.getByRole('status', { name: 'Live updates down: you are offline' }).waitFor({ state: 'detached' });
  });

  it('drops a queued command the server refuses on replay, and says which', async () => {
    const session = sessions[0]!;
    const { page, context } = session;
    await page.goto('/developer/update-bugs');
    await page.getByText(reassigned.title).waitFor();
    await waitForSavedAnswer(page, '/api/bugs');
    await context.setOffline(true);
    await page.reload();
    await page.getByRole('button', { name: reassigned.title }).click();
    await page.getByRole('group', { name: 'Set status' }).getByRole('button', { name: 'Resolved' }).click();
    await toast(session, SAVED_OFFLINE);
    // Meanwhile the bug goes to someone else: this developer may no longer change it.
    const moved = await http(e2e.url).put(
      `/api/bugs/${reassigned._id}`,
      { assignedTo: [otherDeveloper.id] },
      tester.token,
    );
    expect(moved.status).toBe(200);

    await context.setOffline(false);
    await page
      .locator('[data-sonner-toast]')
      .filter({ hasText: `Not sent: Status of “${reassigned.title}” to Closed.` })
      .first()
      .waitFor();
    await page.getByRole('status').filter({ hasText: 'waiting to be sent' }).waitFor({ state: 'detached' });
    expect(await page.evaluate(() => localStorage.getItem('bugtrail:offline-queue'))).toBeNull();
    expect(await statusChanges(e2e.url, reassigned._id, admin.token)).toBe(0);
  });

  it('sends a report whose answer was lost on the way back exactly once', async () => {
    const session = await openPage(e2e, { user: tester });
    sessions.push(session);
    const { page } = session;
    const title = 'Search box loses focus after typing';
    await page.goto('/tester/report-bug');
    await page.getByLabel('Title').fill(title);
    await page.getByLabel('Description').fill('Typing a third letter in the search box moves focus to the page.');
    await page.getByText('Dev Offline').click();
    // The server gets the report, but the connection breaks before its answer arrives.
    let isAnswerLost = false;
    await page.route('**/api/bugs', async (route) => {
      if (route.request().method() !== 'POST' || isAnswerLost) return route.fallback();
      isAnswerLost = true;
      await route.fetch();
      await route.abort('connectionreset');
    });
    await page.getByRole('button', { name: 'Report Bug' }).click();
    await toast(session, SAVED_OFFLINE);
    // Online all along: the queue is sent again at once, with the same Idempotency-Key.
    await toast(session, 'Sent 1 change made offline');
    const found = await http(e2e.url).get(`/api/bugs?q=${encodeURIComponent(title)}`, tester.token);
    expect(found.status).toBe(200);
    expect((found.body.bugs as { title: string }[]).filter((b) => b.title === title)).toHaveLength(1);
    await page.unrouteAll({ behavior: 'ignoreErrors' });
  });

  it('keeps the stored token when the server cannot be reached at start', async () => {
    const session = await openPage(e2e, { user: tester });
    sessions.push(session);
    const { page, context } = session;
    await page.goto('/tester/dashboard');
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await installWorker(page);
    // No answer seen before: nothing to fall back on, so the profile fetch fails outright.
    await page.evaluate((name) => caches.delete(name), ANSWERS_CACHE);

    await context.setOffline(true);
    await page.goto('/tester/dashboard');
    await page.waitForURL('**/login');
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBe(tester.token);
    await page.goto('/');
    await page.waitForURL('**/landing');
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBe(tester.token);

    // Back online, the same session opens the app without a new login.
    await context.setOffline(false);
    await page.goto('/');
    await page.waitForURL('**/tester/dashboard');
  });
});
