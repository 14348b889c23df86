import type { ConsoleMessage } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBug, type E2E, http, openPage, registerUser, type Session, startE2E, type TestUser } from './harness.js';

/**
 * Every page of the web app under the product's real Content-Security-Policy (api.md,
 * "Security headers": nothing inline, nothing from elsewhere): no page may trip it, not
 * at load, not while it shows data, images, charts or a toast.
 */
type Violation = { page: string; directive: string; blocked: string; source: string; sample: string };

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

/** A browser profile that reports every CSP violation and every console complaint about the policy. */
async function watchedPage(e2e: E2E, user?: TestUser) {
  const session = await openPage(e2e, user ? { user } : {});
  const violations: Violation[] = [];
  const complaints: string[] = [];
  await session.context.exposeBinding('__reportViolation', (_source, violation: Violation) => {
    violations.push(violation);
  });
  await session.context.addInitScript(() => {
    const report = (window as unknown as { __reportViolation(v: unknown): void }).__reportViolation;
    document.addEventListener(
      'securitypolicyviolation',
      (event) =>
        report({
          page: location.pathname + location.search,
          directive: event.violatedDirective,
          blocked: event.blockedURI,
          source: `${event.sourceFile}:${event.lineNumber}`,
          sample: event.sample,
        }),
      true,
    );
  });
  const isAboutPolicy = (text: string) => /content.security.policy|refused to (apply|execute|load|connect)/i.test(text);
  session.page.on('console', (message: ConsoleMessage) => {
    if (message.type() === 'error' && isAboutPolicy(message.text())) complaints.push(message.text());
  });
  session.page.on('pageerror', (error) => {
    if (isAboutPolicy(error.message)) complaints.push(error.message);
  });
  return { ...session, violations, complaints };
}

type Watched = Awaited<ReturnType<typeof watchedPage>>;

/** Opens a page, waits for its heading and a moment for late work (charts, images, live stream). */
async function visit(session: Watched, path: string) {
  const answer = await session.page.goto(path);
  expect(answer?.headers()['content-security-policy']).toContain("script-src 'self'");
  await session.page.locator('h1').first().waitFor();
  await session.page.waitForLoadState('load');
  await session.page.waitForTimeout(400);
}

function expectClean(session: Watched) {
  const seen = session.violations.map((v) => `${v.directive} refused ${v.blocked} from ${v.source} on ${v.page}`);
  expect([...new Set(seen)]).toEqual([]);
  expect([...new Set(session.complaints)]).toEqual([]);
}

describe('the web app under its Content-Security-Policy', () => {
  let e2e: E2E;
  let admin: TestUser;
  let tester: TestUser;
  let developer: TestUser;
  let bugId: string;
  let chatId: string;
  const sessions: Session[] = [];
  const watch = async (user?: TestUser) => {
    const session = await watchedPage(e2e, user);
    sessions.push(session);
    return session;
  };

  beforeAll(async () => {
    e2e = await startE2E();
    [admin, tester, developer] = await Promise.all([
      registerUser(e2e.url, 'admin', 'Ada Admin'),
      registerUser(e2e.url, 'tester', 'Tina Tester'),
      registerUser(e2e.url, 'developer', 'Dana Developer'),
    ]);
    const api = http(e2e.url);
    // Profile photos, so avatars are real images from /uploads.
    for (const user of [tester, developer]) {
      const form = new FormData();
      form.append('image', new Blob([PNG], { type: 'image/png' }), 'me.png');
      const stored = await fetch(`${e2e.url}/api/auth/upload-image`, { method: 'POST', body: form });
      expect(stored.status).toBe(201);
      const { imageURL } = (await stored.json()) as { imageURL: string };
      expect((await api.put(`/api/users/${user.id}`, { profileImageURL: imageURL }, user.token)).status).toBe(200);
    }
    const bug = await createBug(e2e.url, tester.token, {
      title: 'Checkout button unresponsive on Safari',
      assignedTo: [developer.id],
      checklist: ['Add two items', 'Press Checkout'],
    });
    bugId = bug._id;
    await createBug(e2e.url, tester.token, { title: 'Search ignores accents', assignedTo: [developer.id] });
    const chat = await api.post(
      '/api/chats',
      {
        name: 'Release triage',
        type: 'team',
        participants: [developer.id],
        aiAssistant: { enabled: false, model: 'gpt-3.5-turbo', systemPrompt: 'You help triage bugs.' },
      },
      tester.token,
    );
    expect(chat.status).toBe(201);
    chatId = chat.body._id;
    const message = new FormData();
    message.append('content', 'Screenshot of the broken checkout');
    message.append('attachments', new Blob([PNG], { type: 'image/png' }), 'checkout.png');
    const sent = await fetch(`${e2e.url}/api/chats/${chatId}/messages`, {
      method: 'POST',
      body: message,
      headers: { Authorization: `Bearer ${tester.token}` },
    });
    expect(sent.status).toBe(201);
  });
  afterAll(async () => {
    for (const session of sessions) await session.context.close();
    await e2e?.close();
  });

  it('public pages: landing, login (with a toast), signup (with a photo preview)', async () => {
    const session = await watch();
    const { page } = session;
    await visit(session, '/');
    await page.waitForURL('**/landing');
    await visit(session, '/login');
    await page.getByLabel('Email Address').fill('nobody@example.com');
    await page.getByLabel('Password', { exact: true }).fill('wrong password');
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    // The toast is styled by sonner's stylesheet, which now ships in the bundle, not inline.
    const toaster = page.locator('[data-sonner-toast]').first();
    await toaster.waitFor();
    expect(await page.locator('[data-sonner-toaster]').evaluate((el) => getComputedStyle(el).position)).toBe('fixed');
    expect(await toaster.evaluate((el) => getComputedStyle(el).borderRadius)).toBe('8px');
    await visit(session, '/signup');
    await page.locator('#profile-photo').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: PNG });
    const preview = page.getByAltText('Profile preview');
    await preview.waitFor();
    expect(await preview.getAttribute('src')).toMatch(/^blob:/);
    expect(await preview.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    expectClean(session);
  });

  it("tester's pages", async () => {
    const session = await watch(tester);
    for (const path of [
      '/tester/dashboard',
      '/tester/report-bug',
      '/tester/my-bugs',
      '/tester/all-bugs',
      `/tester/bug/${bugId}`,
      `/tester/edit-bug/${bugId}`,
      '/tester/chats',
      `/tester/chats?chat=${chatId}`,
    ])
      await visit(session, path);
    // The chat's image attachment and the avatars load (img-src 'self').
    const images = session.page.locator('img');
    expect(await images.count()).toBeGreaterThan(0);
    for (const img of await images.all())
      expect(await img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0)).toBe(true);
    expectClean(session);
  });

  it("developer's pages", async () => {
    const session = await watch(developer);
    for (const path of [
      '/developer/dashboard',
      '/developer/assigned-bugs',
      `/developer/assigned-bugs/${bugId}`,
      '/developer/update-bugs',
      `/developer/chats?chat=${chatId}`,
    ])
      await visit(session, path);
    expectClean(session);
  });

  it("admin's pages", async () => {
    const session = await watch(admin);
    for (const path of [
      '/admin/dashboard',
      '/admin/bugs',
      `/admin/bugs/${bugId}`,
      '/admin/create-bug',
      '/admin/update-bug',
      '/admin/users',
      '/admin/chats',
    ])
      await visit(session, path);
    expectClean(session);
  });
});
