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
      // The pages still open are visited routes too: check them before the browser goes.
      await Promise.allSettled([...routeWatchers].map((flush) => flush()));
      await browser.close();
      await product.stop();
      if (routeFindings.length > 0) {
        throw new Error(`axe found serious or critical violations:\n${routeFindings.join('\n')}`);
      }
    },
  };
}

/**
 * Every distinct route a test file visits gets one axe scan (serious and critical
 * findings fail the file when its product closes): a route is its path with ids and
 * numbers as `:id`. Module state, so once per route per test file. `E2E_AXE=off` skips
 * the scans (to measure what they cost).
 */
const checkedRoutes = new Set<string>();
const routeFindings: string[] = [];
const routeWatchers = new Set<() => Promise<void>>();
const isRouteCheckOn = process.env.E2E_AXE !== 'off';

/** `/admin/bugs/5f0c…` → `/admin/bugs/:id`; the query and hash are not part of the route. */
export function routeOf(url: string): string {
  const { pathname } = new URL(url);
  return pathname
    .split('/')
    .map((part) => (/^[0-9a-f-]{8,}$/i.test(part) || /^\d+$/.test(part) ? ':id' : part))
    .join('/');
}

/** A route is checked once it has been still for this long (a test passing through is not on it). */
const ROUTE_SETTLE_MS = 500;

/** Only the product's own pages: another origin's (the identity provider's sign-in page) is not ours to fix. */
function watchRoutes(page: Page, productUrl: string) {
  const origin = new URL(productUrl).origin;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<void> = Promise.resolve();
  const check = async () => {
    timer = undefined;
    if (page.isClosed()) return;
    const url = page.url();
    if (!url.startsWith('http') || new URL(url).origin !== origin) return;
    const route = routeOf(url);
    if (checkedRoutes.has(route)) return;
    try {
      // Loaded: nothing says Loading any more, and no transition is halfway (a colour caught
      // mid-fade is no finding). Not waited for long: a page may stay busy.
      await page
        .waitForFunction(
          () =>
            !document.querySelector('[role="status"][aria-label="Loading"], [aria-busy="true"]') &&
            !document
              .getAnimations()
              .some(
                (a) => a.playState === 'running' && a.effect?.getComputedTiming().endTime !== Number.POSITIVE_INFINITY,
              ),
          { timeout: 3000 },
        )
        .catch(() => undefined);
      const findings = await seriousViolations(page, route, { emulate: false });
      // The test moved on while axe ran: the findings may mix two pages; check it another time.
      if (page.isClosed() || routeOf(page.url()) !== route || checkedRoutes.has(route)) return;
      checkedRoutes.add(route);
      routeFindings.push(...findings);
    } catch {
      // The page navigated or closed under axe: the route stays unchecked for a later visit.
    }
  };
  const schedule = () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      running = running.then(check);
    }, ROUTE_SETTLE_MS);
  };
  const flush = async () => {
    if (timer) {
      clearTimeout(timer);
      running = running.then(check);
    }
    await running;
  };
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) schedule();
  });
  page.on('close', () => {
    if (timer) clearTimeout(timer);
    routeWatchers.delete(flush);
  });
  routeWatchers.add(flush);
  return flush;
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
  // Every wait is for something on the page; this only ends one that would never come. Long
  // enough that a loaded machine (CI runs two browser test files at once) is slower, not red.
  context.setDefaultTimeout(30_000);
  if (options.user) {
    const token = options.user.token;
    await context.addInitScript((value) => {
      if (!window.localStorage.getItem('token')) window.localStorage.setItem('token', value);
    }, token);
  }
  const page = await context.newPage();
  if (isRouteCheckOn) {
    const flush = watchRoutes(page, e2e.url);
    // Closing the profile first checks the route the test ended on.
    const close = context.close.bind(context);
    context.close = async (...args: Parameters<BrowserContext['close']>) => {
      await flush().catch(() => undefined);
      return close(...args);
    };
  }
  return { context, page };
}

/**
 * A loaded machine (or a busy tab) paints late: from the next navigation on, every animation
 * frame `page` asks for comes `ms` later. `nextFrame` then waits for one such frame (frames run
 * in the order they were asked for, so every earlier one has run by then).
 */
export async function lateFrames(page: Page, ms = 300) {
  await page.addInitScript((delay) => {
    const frame = window.requestAnimationFrame.bind(window);
    window.requestAnimationFrame = (callback) => window.setTimeout(() => frame(callback), delay);
  }, ms);
  return {
    nextFrame: () => page.evaluate(() => new Promise((resolve) => window.requestAnimationFrame(() => resolve(null)))),
  };
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

const axeRuns = new WeakMap<Page, Promise<unknown>>();

/**
 * Runs `run` (an axe analysis) when no other axe run is going on in the page: axe refuses
 * a second run at once, and the route checks run beside the tests' own scans.
 */
export function exclusiveAxe<T>(page: Page, run: () => Promise<T>): Promise<T> {
  const result = (axeRuns.get(page) ?? Promise.resolve()).catch(() => undefined).then(run);
  axeRuns.set(
    page,
    result.catch(() => undefined),
  );
  return result;
}

/**
 * Serious and critical WCAG 2.1 AA findings on the page (or only inside `include`), one
 * line each. Under reduced motion: no colour is caught halfway through a transition (a
 * theme switch, a hover).
 */
export async function seriousViolations(
  page: Page,
  label: string,
  options: { include?: string; emulate?: boolean } = {},
) {
  if (options.emulate !== false) await page.emulateMedia({ reducedMotion: 'reduce' });
  // A transition (a button turning enabled as a query answers, before or during the scan) would
  // show axe a colour halfway: none run while axe looks, and those running end now.
  await page.evaluate(() => {
    // A constructed sheet, not a <style>: the page's Content-Security-Policy refuses inline styles.
    const still = new CSSStyleSheet();
    // Content dimmed while it refreshes (aria-busy) is a moment, not the page: axe sees it as it settles.
    still.replaceSync(
      '*, *::before, *::after { transition: none !important; } [aria-busy="true"] { opacity: 1 !important; }',
    );
    (window as unknown as { __axeStill?: CSSStyleSheet }).__axeStill = still;
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, still];
    for (const animation of document.getAnimations()) {
      // An endless one (a spinner) cannot finish; it changes no colour either.
      if (animation.effect?.getComputedTiming().endTime !== Number.POSITIVE_INFINITY) animation.finish();
    }
    return new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  });
  const builder = new AxeBuilder({ page })
    // Experimental in axe, so off unless asked: a control's name must contain its visible words (WCAG 2.5.3).
    .options({ rules: { 'label-content-name-mismatch': { enabled: true } } })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']);
  const results = await exclusiveAxe(page, () =>
    (options.include ? builder.include(options.include) : builder).analyze(),
  ).finally(() =>
    page
      .evaluate(() => {
        const still = (window as unknown as { __axeStill?: CSSStyleSheet }).__axeStill;
        document.adoptedStyleSheets = document.adoptedStyleSheets.filter((sheet) => sheet !== still);
      })
      .catch(() => undefined),
  );
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${label}: ${violation.id} ${violation.nodes.map((node) => `${node.target.join(' ')} ${node.failureSummary ?? ''}`).join('; ')}`,
    );
}

/**
 * Photographs the page at 1280 and 390 px (full length) into `dir`, and at both widths checks
 * that nothing scrolls sideways and that axe finds nothing serious (the pages' screenshots are looked at).
 */
export async function photographAndScan(page: Page, dir: string, name: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 860 });
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    await page.waitForTimeout(150);
    if (!(await noSideScroll(page))) throw new Error(`${name} at ${width} px scrolls sideways`);
    await page.screenshot({ path: `${dir}/${name}-${width}.png`, fullPage: true });
    const found = await seriousViolations(page, `${name}-${width}`);
    if (found.length > 0) throw new Error(`${name} at ${width} px: ${found.join('\n')}`);
  }
  await page.setViewportSize({ width: 1280, height: 860 });
}
