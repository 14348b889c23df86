import { registerAuditor } from '@bugtrail/testing';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capture, createBug, type E2E, http, openPage, registerUser, startE2E, type TestUser } from './harness.js';

/**
 * A bug whose title, module, description, step, link, comment and a chat message are each
 * one long word (the title 100 characters and the module 50, the most they may be; the rest
 * 300) (issue 40: it stretched the admin bug grid to 20,324 px at 1280) does not make any page of
 * any role scroll sideways, at 1280 or 390 (api.md "Web conventions"). At 1280 no card,
 * list or table scrolls sideways inside the page either.
 */
const word = (letter: string, length = 300) => `${letter}${'x'.repeat(length - 1)}`;
// As long as the form lets them be: a title of 100 characters, a module of 50.
const title = word('T', 100);
const module = word('M', 50);

type Visit = { path: string; open?: (page: Page) => Promise<void> };

/** Loaded: the page's heading is there (a phone may hide a pane's) and nothing says Loading any more. */
async function settle(page: Page) {
  await page.locator('h1').first().waitFor({ state: 'attached' });
  await page.waitForFunction(
    () => !document.querySelector('[role="status"][aria-label="Loading"], [aria-busy="true"]'),
  );
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

/**
 * What scrolls sideways: the page itself, any element reaching past the viewport that no
 * ancestor clips, and (when `inner`) any element whose own content scrolls sideways.
 */
function sidewaysScrollers(page: Page, inner: boolean) {
  return page.evaluate((inner) => {
    const found: string[] = [];
    const root = document.documentElement;
    if (root.scrollWidth > root.clientWidth) found.push(`the page: ${root.scrollWidth} > ${root.clientWidth}`);
    const name = (element: Element) =>
      `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''}.${String(element.className).slice(0, 60)} "${(element.textContent ?? '').trim().slice(0, 40)}"`;
    const clips = (element: Element) => {
      for (let parent = element.parentElement; parent && parent !== document.body; parent = parent.parentElement) {
        if (getComputedStyle(parent).overflowX !== 'visible') return true;
      }
      return false;
    };
    for (const element of document.body.querySelectorAll('*')) {
      const style = getComputedStyle(element);
      if (style.display === 'none' || style.position === 'fixed') continue;
      const box = element.getBoundingClientRect();
      if (box.width <= 1) continue;
      if (box.right > root.clientWidth + 1 && !clips(element)) {
        found.push(`${name(element)} reaches ${Math.round(box.right)} px`);
      }
      if (
        inner &&
        ['auto', 'scroll'].includes(style.overflowX) &&
        element.scrollWidth > element.clientWidth + 1 &&
        element.clientWidth > 0
      ) {
        found.push(`${name(element)} scrolls ${element.scrollWidth} > ${element.clientWidth}`);
      }
    }
    return found.slice(0, 8);
  }, inner);
}

describe('a 300-character word in a bug makes nothing scroll sideways', () => {
  let e2e: E2E;
  let admin: TestUser;
  let tester: TestUser;
  let developer: TestUser;
  let auditor: TestUser;
  let bugId: string;
  let bugNumber: number;

  beforeAll(async () => {
    e2e = await startE2E();
    admin = await registerUser(e2e.url, 'admin', 'Ada Admin');
    tester = await registerUser(e2e.url, 'tester', 'Tess Tester');
    developer = await registerUser(e2e.url, 'developer', 'Devon Developer');
    auditor = await registerAuditor(e2e.url, admin.token, 'Audrey Auditor');
    const api = http(e2e.url);
    const bug = await createBug(e2e.url, tester.token, {
      title,
      module,
      assignedTo: [developer.id],
      checklist: [word('S'), 'Add a regression test'],
    });
    bugId = bug._id;
    bugNumber = bug.number;
    await createBug(e2e.url, tester.token, { title: 'Export drops the last row', assignedTo: [developer.id] });
    const ok = (answer: { status: number; body: unknown }) => {
      if (answer.status >= 300) throw new Error(`${answer.status} ${JSON.stringify(answer.body)}`);
    };
    ok(
      await api.put(
        `/api/bugs/${bugId}`,
        { description: `Steps: ${word('D')}`, attachments: [`https://example.com/${word('L')}`] },
        tester.token,
      ),
    );
    ok(await api.put(`/api/bugs/${bugId}/status`, { status: 'In Progress' }, developer.token));
    ok(await api.post(`/api/bugs/${bugId}/comments`, { body: `See ${word('C')}` }, developer.token));
    const chat = await api.post(
      '/api/chats',
      { name: 'Release triage', participants: [tester.id, developer.id] },
      admin.token,
    );
    ok(chat);
    ok(await api.post(`/api/chats/${chat.body._id}/messages`, { content: `Look: ${word('W')}` }, admin.token));
  });
  afterAll(async () => {
    await e2e?.close();
  });

  const openChat = async (page: Page) => {
    await page
      .getByRole('button', { name: /Release triage/ })
      .first()
      .click();
    await page.getByTestId('message-text').first().waitFor();
  };
  const openTable = async (page: Page) => {
    await page.getByRole('button', { name: /Table/ }).first().click();
    await page.getByRole('table').first().waitFor();
  };
  const openCards = async (page: Page) => {
    await page.getByRole('button', { name: /Cards/ }).first().click();
    await page.getByRole('table').waitFor({ state: 'detached' });
  };

  const visits = (): { who: string; user: () => TestUser; pages: Visit[] }[] => [
    {
      who: 'admin',
      user: () => admin,
      pages: [
        { path: '/admin/dashboard' },
        { path: '/admin/bugs' },
        { path: '/admin/bugs', open: openTable },
        { path: '/admin/bugs', open: openCards },
        { path: `/admin/bugs/${bugId}` },
        { path: `/bugs/${bugNumber}` },
        { path: '/admin/users' },
        { path: '/admin/flow' },
        { path: '/admin/chats', open: openChat },
      ],
    },
    {
      who: 'tester',
      user: () => tester,
      pages: [
        { path: '/tester/dashboard' },
        { path: '/tester/my-bugs' },
        { path: '/tester/my-bugs', open: openTable },
        { path: '/tester/all-bugs' },
        { path: '/tester/all-bugs', open: openCards },
        { path: `/tester/bug/${bugId}` },
        { path: '/tester/chats', open: openChat },
      ],
    },
    {
      who: 'developer',
      user: () => developer,
      pages: [
        { path: '/developer/dashboard' },
        { path: '/developer/assigned-bugs' },
        { path: '/developer/assigned-bugs', open: openTable },
        { path: '/developer/assigned-bugs', open: openCards },
        { path: `/developer/assigned-bugs/${bugId}` },
        { path: '/developer/update-bugs' },
        { path: '/developer/chats', open: openChat },
      ],
    },
    {
      who: 'auditor',
      user: () => auditor,
      pages: [
        { path: '/auditor/dashboard' },
        { path: '/auditor/bugs' },
        { path: '/auditor/bugs', open: openTable },
        { path: '/auditor/bugs', open: openCards },
        { path: `/auditor/bugs/${bugId}` },
        { path: '/auditor/flow' },
      ],
    },
  ];

  for (const who of ['admin', 'tester', 'developer', 'auditor']) {
    it(`every list and page of the ${who}, at 1280 and 390`, async () => {
      const group = visits().find((entry) => entry.who === who)!;
      const { context, page } = await openPage(e2e, { user: group.user() });
      const found: string[] = [];
      try {
        for (const width of [1280, 390]) {
          await page.setViewportSize({ width, height: width === 390 ? 844 : 860 });
          for (const [index, visit] of group.pages.entries()) {
            await page.goto(visit.path);
            await settle(page);
            await visit.open?.(page);
            await settle(page);
            for (const line of await sidewaysScrollers(page, width === 1280))
              found.push(`${visit.path} @${width}: ${line}`);
            if (width === 1280) await capture(page, `wide-words-${who}-${index}`);
          }
        }
      } finally {
        await context.close();
      }
      expect(found, found.join('\n')).toEqual([]);
    }, 300_000);
  }
});
