import { AxeBuilder } from '@axe-core/playwright';
import { registerAuditor } from '@bugtrail/testing';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  capture,
  createBug,
  type E2E,
  exclusiveAxe,
  http,
  openPage,
  registerUser,
  startE2E,
  type TestUser,
} from './harness.js';

/**
 * axe-core on every page of the app, in the light and the dark theme (the system's
 * preference, nothing stored): no serious or critical violation. Each page is also
 * photographed at 1280 and 390 px as a11y-<theme>-<page>.
 */
type Theme = 'light' | 'dark';
type Visit = { name: string; path: string; open?: (page: Page) => Promise<void> };

const serious = new Set(['serious', 'critical']);

/** Loaded: the page's heading is there and nothing says Loading any more. */
async function settle(page: Page) {
  await page.locator('h1').first().waitFor();
  await page.waitForFunction(
    () => !document.querySelector('[role="status"][aria-label="Loading"], [aria-busy="true"]'),
  );
  // Two frames: charts measure their box and draw after layout.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

/** The serious and critical violations on the page, one line each: rule, impact, the first elements. */
async function scan(page: Page, label: string): Promise<string[]> {
  const results = await exclusiveAxe(page, () =>
    new AxeBuilder({ page })
      // Experimental in axe, so off unless asked: a control's name must contain its visible words (WCAG 2.5.3).
      .options({ rules: { 'label-content-name-mismatch': { enabled: true } } })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
      .analyze(),
  );
  return results.violations
    .filter((violation) => serious.has(violation.impact ?? ''))
    .map((violation) => {
      const nodes = violation.nodes
        .slice(0, 6)
        .map(
          (node) => `${node.target.join(' ')}: ${[...node.any, ...node.all].map((check) => check.message).join('; ')}`,
        );
      return `${label}: ${violation.id} (${violation.impact}) ${violation.help}\n    ${nodes.join('\n    ')}`;
    });
}

describe('accessibility: axe finds no serious or critical violation, light or dark', () => {
  let e2e: E2E;
  let admin: TestUser;
  let tester: TestUser;
  let developer: TestUser;
  let auditor: TestUser;
  let bugId: string;
  const chatName = 'Release triage';

  beforeAll(async () => {
    e2e = await startE2E();
    admin = await registerUser(e2e.url, 'admin', 'Ada Admin');
    tester = await registerUser(e2e.url, 'tester', 'Tess Tester');
    developer = await registerUser(e2e.url, 'developer', 'Devon Developer');
    auditor = await registerAuditor(e2e.url, admin.token, 'Audrey Auditor');
    const bug = await createBug(e2e.url, tester.token, {
      title: 'Checkout button unresponsive on Safari',
      assignedTo: [developer.id],
      checklist: ['Reproduce on Safari 17', 'Add a regression test'],
    });
    bugId = bug._id;
    await createBug(e2e.url, tester.token, { title: 'Export drops the last row', assignedTo: [developer.id] });
    await http(e2e.url).put(`/api/bugs/${bugId}/status`, { status: 'In Progress' }, developer.token);
    const chat = await http(e2e.url).post(
      '/api/chats',
      { name: chatName, participants: [tester.id, developer.id] },
      admin.token,
    );
    expect(chat.status).toBe(201);
    await http(e2e.url).post(
      `/api/chats/${chat.body._id}/messages`,
      { content: 'Can we ship 2.4 today?' },
      admin.token,
    );
  });
  afterAll(async () => {
    await e2e?.close();
  });

  const openChat = async (page: Page) => {
    await page
      .getByRole('button', { name: new RegExp(chatName) })
      .first()
      .click();
    await page.getByTestId('message-text').getByText('Can we ship 2.4 today?').waitFor();
  };

  const openDialog = (opener: (page: Page) => Promise<void>) => async (page: Page) => {
    await opener(page);
    await page.getByRole('dialog').first().waitFor();
  };
  const openPalette = openDialog((page) => page.getByRole('button', { name: 'Search bugs and pages' }).click());
  const openTable = async (page: Page) => {
    await page.getByRole('button', { name: /Table/ }).first().click();
    await page.getByRole('table').first().waitFor();
  };
  const openAssign = openDialog((page) => page.getByRole('button', { name: 'Assign Developers' }).click());

  const visits = (): { who: string; user: TestUser | null; pages: Visit[] }[] => [
    {
      who: 'visitor',
      user: null,
      pages: [
        { name: 'landing', path: '/landing' },
        { name: 'login', path: '/login' },
        { name: 'signup', path: '/signup' },
        { name: 'not-found-visitor', path: '/no-such-page' },
      ],
    },
    {
      who: 'admin',
      user: admin,
      pages: [
        { name: 'admin-dashboard', path: '/admin/dashboard' },
        { name: 'admin-command-palette', path: '/admin/dashboard', open: openPalette },
        { name: 'admin-bugs', path: '/admin/bugs' },
        { name: 'admin-bugs-table', path: '/admin/bugs', open: openTable },
        { name: 'admin-bug', path: `/admin/bugs/${bugId}` },
        { name: 'admin-assign-developers', path: `/admin/bugs/${bugId}`, open: openAssign },
        { name: 'admin-create-bug', path: '/admin/create-bug' },
        { name: 'admin-users', path: '/admin/users' },
        { name: 'admin-flow', path: '/admin/flow' },
        { name: 'admin-webhooks', path: '/admin/webhooks' },
        { name: 'admin-import', path: '/admin/import' },
        { name: 'admin-chats', path: '/admin/chats', open: openChat },
        { name: 'profile', path: '/profile' },
        { name: 'profile-security', path: '/profile/security' },
        { name: 'projects', path: '/projects' },
        { name: 'project-settings', path: '/projects/BUG/settings' },
        { name: 'not-found', path: '/no-such-page' },
      ],
    },
    {
      who: 'tester',
      user: tester,
      pages: [
        { name: 'tester-dashboard', path: '/tester/dashboard' },
        { name: 'tester-my-bugs', path: '/tester/my-bugs' },
        { name: 'tester-all-bugs', path: '/tester/all-bugs' },
        { name: 'tester-report-bug', path: '/tester/report-bug' },
        { name: 'tester-bug', path: `/tester/bug/${bugId}` },
        { name: 'tester-chats', path: '/tester/chats', open: openChat },
        { name: 'tester-projects', path: '/projects' },
        { name: 'tester-project-settings', path: '/projects/BUG/settings' },
      ],
    },
    {
      who: 'developer',
      user: developer,
      pages: [
        { name: 'developer-dashboard', path: '/developer/dashboard' },
        { name: 'developer-assigned-bugs', path: '/developer/assigned-bugs' },
        { name: 'developer-bug', path: `/developer/assigned-bugs/${bugId}` },
        { name: 'developer-update-bugs', path: '/developer/update-bugs' },
        { name: 'developer-chats', path: '/developer/chats', open: openChat },
      ],
    },
    {
      who: 'auditor',
      user: auditor,
      pages: [
        { name: 'auditor-dashboard', path: '/auditor/dashboard' },
        { name: 'auditor-bugs', path: '/auditor/bugs' },
        { name: 'auditor-bug', path: `/auditor/bugs/${bugId}` },
        { name: 'auditor-flow', path: '/auditor/flow' },
      ],
    },
  ];

  for (const theme of ['light', 'dark'] as const satisfies Theme[]) {
    for (const who of ['visitor', 'admin', 'tester', 'developer', 'auditor']) {
      it(`${theme}: every page of the ${who}`, async () => {
        const group = visits().find((entry) => entry.who === who);
        if (!group) throw new Error(`no pages for ${who}`);
        const session = await openPage(e2e, group.user ? { user: group.user } : {});
        const { page } = session;
        // Reduced motion: no colour is caught halfway through a transition.
        await page.emulateMedia({ colorScheme: theme, reducedMotion: 'reduce' });
        const found: string[] = [];
        try {
          for (const visit of group.pages) {
            await page.goto(visit.path);
            await settle(page);
            await visit.open?.(page);
            expect(await page.evaluate(() => document.documentElement.className), visit.path).toContain(theme);
            found.push(...(await scan(page, `${visit.path} (${theme})`)));
            await capture(page, `a11y-${theme}-${visit.name}`);
          }
        } finally {
          await session.context.close();
        }
        expect(found, found.join('\n')).toEqual([]);
      }, 300_000);
    }
  }
});
