import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capture, createBug, type E2E, openPage, registerUser, startE2E, type TestUser } from './harness.js';

/**
 * Appearance and the rough edges around it: the theme (a toggle that applies at once and
 * is remembered; the system's preference when nothing is stored), reduced motion, visible
 * focus, one title per tab, a 404 inside the layout, the favicon and the landing page's
 * links, each of which goes somewhere.
 */
const themeOf = (page: Page) =>
  page.evaluate(() => (document.documentElement.classList.contains('dark') ? 'dark' : 'light'));

/** The page's background as the eye sees it: dark or light by its luminance. */
const backgroundOf = (page: Page) =>
  page.evaluate(() => {
    const probe = document.createElement('div');
    probe.style.color = getComputedStyle(document.body).backgroundColor;
    document.body.append(probe);
    // Canvas turns any CSS colour (oklch included) into sRGB bytes.
    const canvas = document.createElement('canvas');
    const context = canvas.getContext('2d');
    if (!context) throw new Error('no canvas');
    context.fillStyle = getComputedStyle(probe).color;
    probe.remove();
    context.fillRect(0, 0, 1, 1);
    const [r = 0, g = 0, b = 0] = context.getImageData(0, 0, 1, 1).data;
    return 0.2126 * r + 0.7152 * g + 0.0722 * b < 128 ? 'dark' : 'light';
  });

const storedTheme = (page: Page) => page.evaluate(() => localStorage.getItem('theme'));

/** Waits for the tab's title to become `title` (it is set after the route renders). */
async function titleBecomes(page: Page, title: string) {
  await page.waitForFunction((expected) => document.title === expected, title);
  return page.title();
}

describe('appearance: theme, motion, focus, titles, 404, favicon, landing links', () => {
  let e2e: E2E;
  let admin: TestUser;
  let tester: TestUser;
  let bug: { _id: string; title: string };

  beforeAll(async () => {
    e2e = await startE2E();
    admin = await registerUser(e2e.url, 'admin', 'Ada Admin');
    tester = await registerUser(e2e.url, 'tester', 'Tess Tester');
    const developer = await registerUser(e2e.url, 'developer', 'Devon Developer');
    bug = await createBug(e2e.url, tester.token, { title: 'Search box loses focus', assignedTo: [developer.id] });
  });
  afterAll(async () => {
    await e2e?.close();
  });

  it('switches the theme at once from the header and keeps it over a reload', async () => {
    const { context, page } = await openPage(e2e, { user: admin });
    try {
      await page.emulateMedia({ colorScheme: 'light' });
      await page.goto('/admin/dashboard');
      await page.getByRole('heading', { level: 1 }).waitFor();
      expect(await themeOf(page)).toBe('light');
      expect(await backgroundOf(page)).toBe('light');

      await page.getByRole('button', { name: 'Theme: light' }).click();
      await page.getByRole('button', { name: 'Theme: dark' }).waitFor();
      expect(await themeOf(page)).toBe('dark');
      expect(await backgroundOf(page)).toBe('dark');
      expect(await storedTheme(page)).toBe('dark');
      await capture(page, 'appearance-dashboard-dark');

      await page.reload();
      await page.getByRole('button', { name: 'Theme: dark' }).waitFor();
      expect(await themeOf(page)).toBe('dark');
      expect(await backgroundOf(page)).toBe('dark');

      // Back to light, still without a Save.
      await page.getByRole('button', { name: 'Theme: dark' }).click();
      expect(await themeOf(page)).toBe('light');
      expect(await storedTheme(page)).toBe('light');
    } finally {
      await context.close();
    }
  });

  it('follows the system when nothing is stored, live, and again after choosing System on the profile', async () => {
    const { context, page } = await openPage(e2e, { user: admin });
    try {
      await page.emulateMedia({ colorScheme: 'dark' });
      await page.goto('/profile');
      await page.getByRole('heading', { name: 'Appearance' }).waitFor();
      expect(await storedTheme(page)).toBeNull();
      expect(await themeOf(page)).toBe('dark');
      expect(await backgroundOf(page)).toBe('dark');
      expect(await page.getByRole('radio', { name: 'System' }).isChecked()).toBe(true);

      await page.emulateMedia({ colorScheme: 'light' });
      await page.getByRole('button', { name: 'Theme: light' }).waitFor();
      expect(await themeOf(page)).toBe('light');

      // A choice beats the system...
      await page.getByText('Dark', { exact: true }).click();
      expect(await page.getByRole('radio', { name: 'Dark' }).isChecked()).toBe(true);
      expect(await themeOf(page)).toBe('dark');
      expect(await storedTheme(page)).toBe('dark');
      await capture(page, 'appearance-profile-dark');

      // ...until System is chosen again: nothing stored, the system rules.
      await page.getByText('System', { exact: true }).click();
      expect(await storedTheme(page)).toBeNull();
      expect(await themeOf(page)).toBe('light');
      await page.emulateMedia({ colorScheme: 'dark' });
      await page.getByRole('button', { name: 'Theme: dark' }).waitFor();
      await page.reload();
      await page.getByRole('heading', { name: 'Appearance' }).waitFor();
      expect(await themeOf(page)).toBe('dark');
    } finally {
      await context.close();
    }
  });

  it('offers the theme on the landing, login and signup pages too', async () => {
    const { context, page } = await openPage(e2e);
    try {
      await page.emulateMedia({ colorScheme: 'light' });
      for (const path of ['/landing', '/login', '/signup']) {
        await page.goto(path);
        await page.getByRole('button', { name: /Theme/ }).click();
        expect(await themeOf(page), path).toBe('dark');
        expect(await backgroundOf(page), path).toBe('dark');
        await capture(page, `appearance${path.replace('/', '-')}-dark`);
        await page.getByRole('button', { name: /Theme/ }).click();
        expect(await themeOf(page), path).toBe('light');
        await capture(page, `appearance${path.replace('/', '-')}-light`);
      }
      // A toast in the dark theme wears the app's palette.
      await page.getByRole('button', { name: /Theme/ }).click();
      await page.goto('/login');
      await page.getByLabel('Email Address').fill('nobody@example.com');
      await page.getByLabel('Password', { exact: true }).fill('wrong password');
      await page.getByRole('button', { name: 'Login', exact: true }).click();
      await page.locator('[data-sonner-toast]').first().waitFor();
      await capture(page, 'appearance-login-toast-dark');
    } finally {
      await context.close();
    }
  });

  it('ends animations at once and scrolls without smoothing when reduced motion is asked for', async () => {
    const { context, page } = await openPage(e2e);
    try {
      await page.goto('/login');
      await page.getByRole('heading', { level: 1 }).waitFor();
      const motion = () =>
        page.evaluate(() => {
          const probe = document.createElement('span');
          probe.className = 'animate-spin';
          document.body.append(probe);
          const style = getComputedStyle(probe);
          const answer = {
            scroll: getComputedStyle(document.documentElement).scrollBehavior,
            iterations: style.animationIterationCount,
          };
          probe.remove();
          return answer;
        });
      await page.emulateMedia({ reducedMotion: 'no-preference' });
      expect(await motion()).toEqual({ scroll: 'smooth', iterations: 'infinite' });
      await page.emulateMedia({ reducedMotion: 'reduce' });
      expect(await motion()).toEqual({ scroll: 'auto', iterations: '1' });
    } finally {
      await context.close();
    }
  });

  it('shows where the keyboard is, in both themes', async () => {
    const { context, page } = await openPage(e2e);
    try {
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        await page.goto('/login');
        await page.getByRole('heading', { level: 1 }).waitFor();
        await page.keyboard.press('Tab');
        const focus = await page.evaluate(() => {
          const element = document.activeElement;
          if (!element || element === document.body) return null;
          const style = getComputedStyle(element);
          return { style: style.outlineStyle, width: style.outlineWidth, color: style.outlineColor };
        });
        expect(focus, scheme).not.toBeNull();
        expect(focus?.style, scheme).toBe('solid');
        expect(focus?.width, scheme).toBe('2px');
        expect(focus?.color, scheme).not.toMatch(/transparent|rgba\(0, 0, 0, 0\)/);
      }
    } finally {
      await context.close();
    }
  });

  it('gives every page its own title', async () => {
    const { context, page } = await openPage(e2e, { user: admin });
    const visitor = await openPage(e2e);
    try {
      const seen: string[] = [];
      for (const [path, title] of [
        ['/admin/dashboard', 'Dashboard — Bugtrail'],
        ['/admin/bugs', 'Manage Bugs — Bugtrail'],
        [`/admin/bugs/${bug._id}`, `${bug.title} — Bugtrail`],
        ['/admin/users', 'Team Members — Bugtrail'],
        ['/admin/flow', 'Flow — Bugtrail'],
        ['/admin/chats', 'Chats — Bugtrail'],
        ['/admin/create-bug', 'Create Bug — Bugtrail'],
        ['/profile', 'Profile — Bugtrail'],
        ['/profile/security', 'Security — Bugtrail'],
      ] as const) {
        await page.goto(path);
        seen.push(await titleBecomes(page, title));
      }
      // In-app navigation changes it too, without a reload.
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Team Members' }).click();
      seen.push(await titleBecomes(page, 'Team Members — Bugtrail'));

      const testerSession = await openPage(e2e, { user: tester });
      try {
        await testerSession.page.goto('/tester/all-bugs');
        seen.push(await titleBecomes(testerSession.page, 'All Bugs — Bugtrail'));
        await testerSession.page.goto(`/tester/bug/${bug._id}`);
        await titleBecomes(testerSession.page, `${bug.title} — Bugtrail`);
      } finally {
        await testerSession.context.close();
      }

      for (const [path, title] of [
        ['/login', 'Log in — Bugtrail'],
        ['/signup', 'Sign up — Bugtrail'],
        ['/landing', 'Bug tracking for development teams — Bugtrail'],
      ] as const) {
        await visitor.page.goto(path);
        seen.push(await titleBecomes(visitor.page, title));
      }
      const pages = seen.filter((title) => title !== 'Team Members — Bugtrail');
      expect(new Set(pages).size).toBe(pages.length);
    } finally {
      await context.close();
      await visitor.context.close();
    }
  });

  it('shows an unknown address as a 404 inside the layout when signed in, and as a clean page otherwise', async () => {
    const signedIn = await openPage(e2e, { user: admin });
    const visitor = await openPage(e2e);
    try {
      for (const path of ['/no-such-page', '/admin/no-such-page']) {
        await signedIn.page.goto(path);
        await signedIn.page.getByRole('heading', { name: 'Page not found' }).waitFor();
        expect(await signedIn.page.getByRole('complementary', { name: 'Sidebar' }).isVisible(), path).toBe(true);
        expect(await signedIn.page.getByRole('navigation', { name: 'Main' }).isVisible(), path).toBe(true);
        await titleBecomes(signedIn.page, 'Page not found — Bugtrail');
      }
      await capture(signedIn.page, 'appearance-not-found-signed-in');
      // The layout works from there: its sidebar leads back into the app.
      await signedIn.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboard' }).click();
      await signedIn.page.waitForURL('**/admin/dashboard');

      await visitor.page.goto('/no-such-page');
      await visitor.page.getByRole('heading', { name: 'Page not found' }).waitFor();
      expect(await visitor.page.getByRole('navigation', { name: 'Main' }).count()).toBe(0);
      expect(await visitor.page.getByRole('link', { name: 'Go home' }).isVisible()).toBe(true);
      await capture(visitor.page, 'appearance-not-found-visitor');
    } finally {
      await signedIn.context.close();
      await visitor.context.close();
    }
  });

  it('serves the favicon the page names, and /favicon.ico', async () => {
    const { context, page } = await openPage(e2e);
    try {
      await page.goto('/landing');
      const icons = await page
        .locator('link[rel="icon"]')
        .evaluateAll((links) => links.map((link) => (link as HTMLLinkElement).href));
      expect(icons.length).toBeGreaterThan(0);
      for (const icon of [...icons, `${e2e.url}/favicon.ico`]) {
        const answer = await fetch(icon);
        expect(answer.status, icon).toBe(200);
        expect(answer.headers.get('content-type'), icon).toMatch(/^image\//);
      }
    } finally {
      await context.close();
    }
  });

  it('sends every landing link somewhere: no "#" or empty link, anchors that exist, pages that answer', async () => {
    const { context, page } = await openPage(e2e);
    try {
      await page.goto('/landing');
      await page.getByText('Most Popular').waitFor();
      const links = await page.locator('a').evaluateAll((anchors) =>
        anchors.map((anchor) => ({
          text: anchor.textContent?.trim() || anchor.ariaLabel,
          href: anchor.getAttribute('href'),
        })),
      );
      expect(links.length).toBeGreaterThan(20);
      for (const { text, href } of links) {
        expect(href, `${text}`).toBeTruthy();
        expect(href, `${text}`).not.toBe('#');
        if (!href) continue;
        if (href.startsWith('#')) {
          expect(await page.locator(href).count(), `${text} → ${href}`).toBe(1);
        } else if (href.startsWith('/')) {
          const answer = await fetch(`${e2e.url}${href}`, { headers: { accept: 'text/html' } });
          expect(answer.status, `${text} → ${href}`).toBe(200);
        } else {
          expect(href, `${text}`).toMatch(/^(https:|mailto:|tel:)/);
        }
      }
      // The pricing buttons are links now: to the signup, or to the contact section.
      const pricing = page.locator('#pricing');
      expect(await pricing.getByRole('link', { name: 'Get Started' }).count()).toBe(2);
      for (const link of await pricing.getByRole('link', { name: 'Get Started' }).all()) {
        expect(await link.getAttribute('href')).toBe('/signup');
      }
      expect(await pricing.getByRole('link', { name: 'Contact Sales' }).getAttribute('href')).toBe('#contact');
      await pricing.getByRole('link', { name: 'Get Started' }).first().click();
      await page.waitForURL('**/signup');
    } finally {
      await context.close();
    }
  });
});
