import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AxeBuilder } from '@axe-core/playwright';
import { adminUrl, http, registerUser, TEST_INVITE_CODE, type TestUser } from '@bugtrail/testing';
import { type ProductProcess, startProductProcess } from '@bugtrail/testing/process';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';

/**
 * The real product (`bugtrail start` in its own process, on a fresh database) serving
 * the built web app, driven by headless Chromium. No server code loads into the test
 * process: web/ never imports the servers. Build first: `npm run build`.
 */
const here = path.dirname(fileURLToPath(import.meta.url));
export const webDir = path.resolve(here, '../dist');
export const screenshotDir = path.resolve(here, '../../screenshots');
export { http, registerUser, TEST_INVITE_CODE, type TestUser };

/** `product.db` is a pool on the product's database, to look at what it stored. */
export type E2E = { product: ProductProcess; browser: Browser; url: string; close(): Promise<void> };

/** `env`: more environment for the product (names in platform/src/config.ts), e.g. single sign-on's. */
export async function startE2E(options: { env?: Record<string, string> } = {}): Promise<E2E> {
  if (!existsSync(path.join(webDir, 'index.html'))) {
    throw new Error(`web/dist is missing: run "npm run build" before the e2e suite`);
  }
  await mkdir(screenshotDir, { recursive: true });
  const product = await startProductProcess({
    adminDatabaseUrl: adminUrl(),
    ...(options.env ? { env: options.env } : {}),
  });
  const browser = await chromium
    .launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-gpu',
      ],
    })
    .catch(async (error: unknown) => {
      await product.stop();
      throw error;
    });
  return {
    product,
    browser,
    url: product.url,
    async close() {
      await browser.close();
      await product.stop();
    },
  };
}

export type Session = { context: BrowserContext; page: Page };

/** A fresh browser profile; with a user, already logged in (token in local storage). */
export async function openPage(
  e2e: E2E,
  options: { user?: TestUser; width?: number; height?: number } = {},
): Promise<Session> {
  const context = await e2e.browser.newContext({
    baseURL: e2e.url,
    viewport: { width: options.width ?? 1280, height: options.height ?? 860 },
    acceptDownloads: true,
  });
  context.setDefaultTimeout(15_000);
  if (options.user) {
    const token = options.user.token;
    await context.addInitScript((value) => {
      if (!window.localStorage.getItem('token')) window.localStorage.setItem('token', value);
    }, token);
  }
  const page = await context.newPage();
  return { context, page };
}

/** Waits for a toast (sonner) with the given text to show. */
export function toast(session: { page: Page }, text: string) {
  return session.page.locator('[data-sonner-toast]').filter({ hasText: text }).first().waitFor();
}

/** The page at 1280 and 390 px, full length, as <name>-1280.png and <name>-390.png. */
export async function capture(page: Page, name: string) {
  const size = page.viewportSize() ?? { width: 1280, height: 860 };
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 860 });
    await page.evaluate(() => window.scrollTo(0, 0));
    // Charts measure their container after a resize; give layout a frame to settle.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    await page.waitForTimeout(150);
    await page.screenshot({ path: path.join(screenshotDir, `${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize(size);
}

/** Whether the bug endpoints exist yet (they are built by another team in parallel). */
export async function hasBugApi(url: string, token: string): Promise<boolean> {
  const answer = await http(url).get('/api/bugs?limit=1', token);
  return answer.status === 200;
}

let bugCounter = 0;
export async function createBug(
  url: string,
  token: string,
  fields: {
    title?: string;
    assignedTo: string[];
    priority?: string;
    severity?: string;
    module?: string;
    checklist?: string[];
  },
) {
  bugCounter += 1;
  const answer = await http(url).post(
    '/api/bugs',
    {
      title: fields.title ?? `Checkout button unresponsive ${bugCounter}`,
      description: 'Clicking the button does nothing on Safari 17 after adding two items.',
      priority: fields.priority ?? 'High',
      severity: fields.severity ?? 'Major',
      status: 'Open',
      module: fields.module ?? 'Checkout',
      dueDate: null,
      assignedTo: fields.assignedTo,
      checklist: (fields.checklist ?? []).map((text) => ({ text, completed: false })),
      attachments: [],
    },
    token,
  );
  if (answer.status !== 201) throw new Error(`create bug failed: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body.bug as { _id: string; title: string; description: string; number: number };
}

/** True when the page does not scroll sideways at its current width. */
export const noSideScroll = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);

/**
 * Serious and critical WCAG 2.1 AA findings on the page (or only inside `include`), one
 * line each. Under reduced motion: no colour is caught halfway through a transition (a
 * theme switch, a hover).
 */
export async function seriousViolations(page: Page, label: string, options: { include?: string } = {}) {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  const builder = new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']);
  const results = await (options.include ? builder.include(options.include) : builder).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${label}: ${violation.id} ${violation.nodes.map((node) => `${node.target.join(' ')} ${node.failureSummary ?? ''}`).join('; ')}`,
    );
}
