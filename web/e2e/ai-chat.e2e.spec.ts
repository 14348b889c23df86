import path from 'node:path';
import { aiAssistantTexts } from '@bugtrail/domain/vocabulary';
import { type FakeProvider, startFakeOpenAi } from '@bugtrail/testing/ai-providers';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type E2E,
  http,
  openPage,
  registerUser,
  type Session,
  screenshotDir,
  startE2E,
  type TestUser,
  toast,
} from './harness.js';

/**
 * The AI assistant in the web chat, end to end: the real product (projector's reactor,
 * read-api's live stream, the built web app) talks to a fake OpenAI-compatible server on
 * 127.0.0.1 (testing/src/ai-providers.ts), the only stand-in. One user asks in the UI; the
 * other watches the answer grow live and sees it land as markdown, and stops a slow one.
 * Every wait is for a text or an element, never for a time.
 */

const chatName = 'Release helper';

/** The conversation's answer bubbles being written (drafts) and posted (AI messages). */
const draftItems = (page: Page) => page.getByTestId('message-scroller').locator('li[data-draft="true"]');
const messageItem = (page: Page, id: string) =>
  page.getByTestId('message-scroller').locator(`li[data-message-id="${id}"]:not([data-draft])`);

/** Every distinct text the page's drafts show, in order, gathered by the page itself as they change. */
async function recordDraftTexts(page: Page) {
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { draftTexts: string[] }).draftTexts = seen;
    const note = () => {
      for (const bubble of document.querySelectorAll('[data-testid="ai-draft"]')) {
        const text = (bubble.textContent ?? '').trim();
        if (text && seen.at(-1) !== text) seen.push(text);
      }
    };
    new MutationObserver(note).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  return () => page.evaluate(() => (window as unknown as { draftTexts: string[] }).draftTexts);
}

/** No sideways scroll: neither the page nor the conversation is wider than the window. */
async function expectNoSidewaysScroll(page: Page) {
  const widths = await page.evaluate(() => {
    const scroller = document.querySelector('[data-testid="message-scroller"]');
    return {
      page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
      conversation: scroller ? scroller.scrollWidth - scroller.clientWidth : 0,
    };
  });
  expect(widths).toEqual({ page: 0, conversation: 0 });
}

/** The open chat at 1280 and 390 px, light and dark: ai-chat-<name>-<theme>-<width>.png. */
async function captureChat(page: Page, name: string) {
  const size = page.viewportSize() ?? { width: 1280, height: 860 };
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme });
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 860 });
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
      await expectNoSidewaysScroll(page);
      await page.screenshot({ path: path.join(screenshotDir, `ai-chat-${name}-${theme}-${width}.png`) });
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize(size);
}

describe('AI chat: the answer streams live to every member (provider: a fake OpenAI-compatible server on 127.0.0.1)', () => {
  let fake: FakeProvider;
  let e2e: E2E;
  let asker: TestUser;
  let watcher: TestUser;
  let tina: Session;
  let dana: Session;
  let chatId: string;

  beforeAll(async () => {
    fake = await startFakeOpenAi({ models: ['gpt-4', 'local-llama-3'] });
    e2e = await startE2E({ env: { AI_BASE_URL: fake.url, AI_API_KEY: fake.apiKey, AI_MODEL: 'test-model' } });
    asker = await registerUser(e2e.url, 'tester', 'Tina Tester');
    watcher = await registerUser(e2e.url, 'developer', 'Dana Developer');
    const created = await http(e2e.url).post(
      '/api/chats',
      {
        name: chatName,
        type: 'ai_assistant',
        participants: [watcher.id],
        aiAssistant: {
          enabled: true,
          model: 'gpt-3.5-turbo',
          systemPrompt: 'You are a helpful assistant in a bug tracking application.',
        },
      },
      asker.token,
    );
    expect(created.status).toBe(201);
    chatId = created.body._id as string;
    tina = await openPage(e2e, { user: asker });
    dana = await openPage(e2e, { user: watcher });
    for (const { page } of [tina, dana]) await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'reduce' });
    await tina.page.goto(`/tester/chats?chat=${chatId}`);
    await dana.page.goto(`/developer/chats?chat=${chatId}`);
    for (const { page } of [tina, dana]) {
      await page.getByTestId('chat-title').filter({ hasText: chatName }).waitFor();
      await page.getByText('Send a message to start the conversation').waitFor();
    }
  });
  afterAll(async () => {
    await tina?.context.close();
    await dana?.context.close();
    await e2e?.close();
    await fake?.close();
  });

  /** Tina asks in the UI, as anyone would. */
  async function ask(question: string) {
    const box = tina.page.getByRole('textbox', { name: 'Message' });
    await box.fill(question);
    await box.press('Enter');
    await tina.page.getByTestId('message-scroller').getByText(question).waitFor();
  }

  it('shows the other member the answer growing in place, then the posted answer as markdown, once', async () => {
    fake.script({
      kind: 'text',
      chunks: [
        'Hello',
        ' there',
        ' **friend**',
        '. Still open for the release:\n\n',
        '- Checkout button *unresponsive* on Safari\n',
        '- Typo on the login page\n\n',
        'Run this first:\n\n```sh\nnpm run build && npm test -- --reporter=verbose --run web/e2e/ai-chat.e2e.spec.ts\n```\n\n',
        'Details in [the release notes](https://example.com/releases/2.4).',
      ],
      delayMs: 400,
    });
    const { page } = dana;
    const draftTexts = await recordDraftTexts(page);
    await ask('What is still open for the release?');

    // The draft: a busy assistant bubble whose text grows, said once to screen readers.
    const draft = draftItems(page).first();
    await draft.filter({ hasText: 'Hello' }).waitFor();
    expect(await draft.getAttribute('aria-busy')).toBe('true');
    expect(await draft.getByText('AI Assistant').count()).toBe(1);
    expect(await draft.getByText('writing…').count()).toBe(1);
    expect(await page.getByText('The assistant is writing').count()).toBe(1);
    const answerId = await draft.getAttribute('data-message-id');
    expect(answerId).toBeTruthy();
    await draft.filter({ hasText: 'Hello there' }).waitFor();

    // The posted answer takes the draft's place: markdown, one bubble, no draft left.
    const answer = messageItem(page, answerId!);
    await answer.locator('strong', { hasText: 'friend' }).waitFor();
    expect(await draftItems(page).count()).toBe(0);
    expect(await page.locator(`[data-message-id="${answerId}"]`).count()).toBe(1);
    expect(await page.getByText('The assistant is writing').count()).toBe(0);
    const html = await answer.getByTestId('ai-answer').innerHTML();
    expect(html).toContain('<strong>friend</strong>');
    expect(html).toMatch(/<ul[^>]*>\s*<li>Checkout button <em>unresponsive<\/em> on Safari<\/li>/);
    expect(html).toMatch(/<pre[^>]*><code[^>]*>npm run build/);
    expect(await answer.getByRole('link', { name: 'the release notes' }).getAttribute('href')).toBe(
      'https://example.com/releases/2.4',
    );

    // It grew in place: a partial text first, a longer one after it.
    const seen = await draftTexts();
    expect(seen.length).toBeGreaterThanOrEqual(2);
    expect(seen[0]).not.toContain('friend');
    expect(seen.some((text) => text.includes('Hello there'))).toBe(true);
    expect(seen.at(-1)!.length).toBeGreaterThan(seen[0]!.length);

    // The asker's page got the same answer.
    await messageItem(tina.page, answerId!).locator('strong', { hasText: 'friend' }).waitFor();
    await captureChat(page, 'answer');
  });

  it('stops a slow answer from the Stop button: the posted text ends with the stopped mark', async () => {
    const chunks = Array.from({ length: 80 }, (_, n) => ` step${n + 1}`);
    fake.script({ kind: 'text', chunks: ['Working through it:', ...chunks], delayMs: 250 });
    const { page } = dana;
    await ask('Walk me through every step, slowly.');

    const draft = draftItems(page).first();
    await draft.filter({ hasText: 'step3' }).waitFor();
    const answerId = await draft.getAttribute('data-message-id');
    await captureChat(page, 'draft');

    // A refused Stop says so and leaves the button to try again.
    const stopRoute = '**/api/chats/*/messages/*/stop';
    await page.route(stopRoute, (route) =>
      route.fulfill({
        status: 403,
        contentType: 'application/json',
        body: JSON.stringify({ message: 'Join the chat to send messages' }),
      }),
    );
    const stop = draft.getByRole('button', { name: 'Stop the answer' });
    await stop.click();
    await toast(dana, 'Join the chat to send messages');
    await page.unroute(stopRoute);
    expect(await stop.isEnabled()).toBe(true);

    // From the keyboard: Enter on Stop; the button is disabled while the answer ends.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(stopRoute, async (route) => {
      await held;
      await route.continue();
    });
    await stop.focus();
    await page.keyboard.press('Enter');
    const stopping = draft.getByRole('button', { name: /Stop/ });
    await stopping.filter({ hasText: 'Stopping…' }).waitFor();
    expect(await stopping.isDisabled()).toBe(true);
    release();

    const answer = messageItem(page, answerId!);
    await answer.getByText('(stopped)').waitFor();
    expect(await draftItems(page).count()).toBe(0);
    const shown = ((await answer.getByTestId('ai-answer').textContent()) ?? '').trim();
    expect(shown.endsWith('(stopped)')).toBe(true);
    expect(shown).toContain('Working through it:');
    expect(shown).not.toContain('step80');

    const listed = await http(e2e.url).get(`/api/chats/${chatId}/messages`, watcher.token);
    const posted = (listed.body.messages as { _id: string; content: string; isAIMessage: boolean }[]).find(
      (m) => m._id === answerId,
    );
    expect(posted?.isAIMessage).toBe(true);
    expect(posted?.content.endsWith(aiAssistantTexts.stoppedMark)).toBe(true);
    expect(posted?.content).not.toContain('step80');
    await page.unroute(stopRoute);
  });

  it('never turns a javascript: link of an answer into a link', async () => {
    fake.script({
      kind: 'text',
      chunks: ['Try [this fix](javascript:alert(document.cookie)) ', 'or [the guide](https://example.com/guide).'],
      delayMs: 100,
    });
    const { page } = dana;
    await ask('Any link for that?');
    const answer = page
      .getByTestId('message-scroller')
      .locator('li[data-message-id]:not([data-draft])')
      .filter({ hasText: 'the guide' });
    await answer.waitFor();
    expect(await answer.getByRole('link', { name: 'the guide' }).getAttribute('href')).toBe(
      'https://example.com/guide',
    );
    expect(await answer.getByText('this fix').count()).toBe(1);
    expect(await answer.getByRole('link', { name: 'this fix' }).count()).toBe(0);
    expect(await page.locator('a[href^="javascript:" i], [href*="alert(" i]').count()).toBe(0);
  });
  it("offers the endpoint's own models in the picker beside the spec's four", async () => {
    const session = await openPage(e2e, { user: asker });
    await session.page.goto('/tester/chats');
    await session.page.getByRole('button', { name: 'Create New Chat' }).last().click();
    const dialog = session.page.getByRole('dialog', { name: 'Create New Chat' });
    const picker = dialog.getByLabel('AI Model');
    await picker.locator('option', { hasText: 'local-llama-3' }).waitFor({ state: 'attached' });
    expect(await picker.locator('option').allTextContents()).toEqual([
      'gpt-3.5-turbo',
      'gpt-4',
      'claude-3-sonnet',
      'claude-3-opus',
      'local-llama-3 (AI endpoint)',
    ]);
    await session.context.close();
  });
});
