import { deflateSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  capture,
  type E2E,
  http,
  lateFrames,
  openPage,
  registerUser,
  type Session,
  startE2E,
  type TestUser,
  toast,
} from './harness.js';

/** A real PNG (the server checks magic bytes), big enough to see as a thumbnail. */
function solidPng(width: number, height: number, rgb: [number, number, number]): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf: Buffer) => {
    let c = 0xffffffff;
    for (const byte of buf) c = crcTable[(c ^ byte) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([length, body, sum]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3).map((_, i) => rgb[i % 3]!)]);
  const pixels = Buffer.concat(
    Array.from({ length: height }, (_, y) => (y % 20 < 10 ? row : row.map((v, i) => (i === 0 ? 0 : 255 - v)))),
  );
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(pixels)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const chatName = 'Release 2.4 triage';

/** Opens a chat from the list (the list is the left pane; on phones, the only pane). */
async function openChat(page: Page, name: string) {
  await page
    .getByRole('list', { name: 'Chat list' })
    .getByRole('button', { name: new RegExp(name) })
    .click();
  await page.getByTestId('chat-title').filter({ hasText: name }).waitFor();
}

/**
 * Waits for a text in the open conversation: first for live delivery (SSE), then, if
 * that does not come, by reloading and re-opening the chat. Says which one happened.
 */
async function waitForMessage(page: Page, text: string, chat: string): Promise<'live' | 'reload'> {
  const locator = page.getByTestId('message-scroller').getByText(text, { exact: false }).first();
  try {
    await locator.waitFor({ timeout: 20_000 });
    return 'live';
  } catch {
    await page.reload();
    await openChat(page, chat);
    await locator.waitFor({ timeout: 15_000 });
    return 'reload';
  }
}

describe('chat: two users talk with attachments, mentions and replies; markup stays inert', () => {
  let e2e: E2E;
  let tester: TestUser;
  let developer: TestUser;
  let admin: TestUser;
  let tina: Session;
  let dana: Session;
  const dialogs: string[] = [];
  const arrivals: string[] = [];

  beforeAll(async () => {
    e2e = await startE2E();
    tester = await registerUser(e2e.url, 'tester', 'Tina Tester');
    developer = await registerUser(e2e.url, 'developer', 'Dana Developer');
    admin = await registerUser(e2e.url, 'admin', 'Alex Admin');
    tina = await openPage(e2e, { user: tester });
    dana = await openPage(e2e, { user: developer });
    for (const session of [tina, dana])
      session.page.on('dialog', (dialog) => {
        dialogs.push(dialog.message());
        void dialog.dismiss();
      });
  });
  afterAll(async () => {
    if (arrivals.length) console.info(`chat e2e: messages arrived by ${arrivals.join(', ')}`);
    await tina?.context.close();
    await dana?.context.close();
    await e2e?.close();
  });

  it('shows the empty chat page and creates a team chat with a participant', async () => {
    const { page } = tina;
    await page.goto('/tester/chats');
    await page.getByText('No chats yet. Create one to get started.').waitFor();
    expect(await page.getByText('No chat selected').isVisible()).toBe(true);
    expect(await page.getByText('Select an existing chat or create a new one to start messaging').isVisible()).toBe(
      true,
    );
    await capture(page, 'chat-empty');

    await page.getByRole('button', { name: 'Create New Chat' }).last().click();
    const dialog = page.getByRole('dialog', { name: 'Create New Chat' });
    await dialog.waitFor();
    // Defaults: private, AI off, gpt-3.5-turbo, the default prompt in a 4-row textarea.
    expect(await dialog.getByLabel('Chat Type').inputValue()).toBe('private');
    expect(await dialog.getByLabel('Enable AI Assistant').isChecked()).toBe(false);
    expect(await dialog.getByLabel('AI Model').inputValue()).toBe('gpt-3.5-turbo');
    const prompt = dialog.getByLabel('System Prompt');
    expect(await prompt.inputValue()).toBe('You are a helpful assistant in a bug tracking application.');
    expect(await prompt.getAttribute('rows')).toBe('4');
    expect(await dialog.getByLabel('AI Model').locator('option').allTextContents()).toEqual([
      'gpt-3.5-turbo',
      'gpt-4',
      'claude-3-sonnet',
      'claude-3-opus',
    ]);

    await dialog.getByLabel('Chat Name').fill(`  ${chatName}  `);
    await dialog.getByLabel('Chat Type').selectOption('team');
    await dialog.getByText('Dana Developer').click();
    await capture(page, 'chat-create-dialog');
    await dialog.getByRole('button', { name: 'Create Chat' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByTestId('chat-title').filter({ hasText: chatName }).waitFor();
    await page.getByText('Send a message to start the conversation').waitFor();
    expect(await page.getByRole('list', { name: 'Chat list' }).getByText('No messages yet').isVisible()).toBe(true);
  });

  it('lets the other user see the chat and open it', async () => {
    const { page } = dana;
    await page.goto('/developer/chats');
    await openChat(page, chatName);
    await page.getByText('Send a message to start the conversation').waitFor();
  });

  it('sends a message with a mention and two attachments; it arrives on the other page', async () => {
    const { page } = tina;
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.click();
    await box.pressSequentially('Hi @Da');
    const suggestions = page.getByRole('listbox', { name: 'Mention someone' });
    await suggestions.getByText('Dana Developer').waitFor();
    await box.press('Enter'); // picks the suggestion, does not send
    await suggestions.waitFor({ state: 'detached' });
    await expect.poll(() => box.inputValue()).toBe('Hi @Dana Developer ');
    await box.pressSequentially('please check the crash log');
    expect(await box.inputValue()).toBe('Hi @Dana Developer please check the crash log');
    await box.press('Shift+Enter');
    await box.pressSequentially('and the screenshot.');
    expect(await box.inputValue()).toContain('\nand the screenshot.');

    await page.getByTestId('attachment-input').setInputFiles([
      { name: 'checkout.png', mimeType: 'image/png', buffer: solidPng(240, 150, [141, 81, 255]) },
      {
        name: 'crash.log',
        mimeType: 'text/plain',
        buffer: Buffer.from('TypeError: cannot read properties of undefined\n'),
      },
    ]);
    const pending = page.getByRole('list', { name: 'Files to send' });
    await pending.getByRole('img', { name: 'checkout.png' }).waitFor();
    await pending.getByText('crash.log').waitFor();
    await box.press('Enter');
    expect(await box.inputValue()).toBe('');

    // Optimistic first ('Sending...'), then the server's message with real /uploads/ paths.
    const sent = page.locator('[data-message-id]:not([data-temp])').filter({ hasText: 'please check the crash log' });
    await sent.waitFor();
    expect(await page.locator('[data-temp="true"]').count()).toBe(0);
    const image = sent.getByRole('img', { name: 'checkout.png' });
    await image.waitFor();
    expect(await image.getAttribute('src')).toMatch(/^\/uploads\//);
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(240);
    expect(await sent.getByRole('link', { name: /crash\.log/ }).getAttribute('href')).toMatch(/^\/uploads\//);

    const how = await waitForMessage(dana.page, 'please check the crash log', chatName);
    arrivals.push(how);
    const received = dana.page.locator('[data-message-id]').filter({ hasText: 'please check the crash log' });
    expect(await received.locator(`[data-mention="${developer.id}"]`).textContent()).toBe('@Dana Developer');
    await expect
      .poll(() =>
        received.getByRole('img', { name: 'checkout.png' }).evaluate((img: HTMLImageElement) => img.naturalWidth),
      )
      .toBe(240);
    await received.getByRole('link', { name: /crash\.log/ }).waitFor();
  });

  it('replies with a quote; the reply reaches the first page', async () => {
    const { page } = dana;
    const original = page.locator('[data-message-id]').filter({ hasText: 'please check the crash log' });
    await original.hover();
    await original.getByRole('button', { name: /Reply to Tina Tester/ }).click();
    await page.getByTestId('reply-banner').getByText('Replying to Tina Tester').waitFor();
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('On it, @Tina Tester. Repro steps: https://example.com/issue/42');
    await box.press('Enter');
    const mine = page.locator('[data-message-id]:not([data-temp])').filter({ hasText: 'Repro steps' });
    await mine.getByTestId('reply-quote').getByText('Tina Tester').waitFor();
    expect(await mine.getByRole('link', { name: 'https://example.com/issue/42' }).getAttribute('href')).toBe(
      'https://example.com/issue/42',
    );

    arrivals.push(await waitForMessage(tina.page, 'Repro steps', chatName));
    const got = tina.page.locator('[data-message-id]').filter({ hasText: 'Repro steps' });
    await got.getByTestId('reply-quote').waitFor();
    await capture(tina.page, 'chat-conversation');
  });

  it('shows markup and a javascript: link from a message as inert text', async () => {
    const hostile = [
      'XSS check <img src=x onerror="window.__xss=1;alert(1)">',
      '<script>window.__xss=2;alert(2)</script>',
      '[click me](javascript:window.__xss=3)',
      '<a href="javascript:window.__xss=4">raw anchor</a> <svg onload="window.__xss=5">',
    ].join('\n');
    const answer = await http(e2e.url).get('/api/chats', tester.token);
    const chat = (answer.body as { _id: string; name: string }[]).find((c) => c.name === chatName)!;
    const sent = await http(e2e.url).post(
      `/api/chats/${chat._id}/messages`,
      { content: hostile, mentions: [], replyTo: null },
      tester.token,
    );
    expect(sent.status).toBe(201);

    const { page } = dana;
    arrivals.push(await waitForMessage(page, 'XSS check', chatName));
    const message = page.locator('[data-message-id]').filter({ hasText: 'XSS check' });
    // Every character shows as text...
    const text = (await message.getByTestId('message-text').textContent()) ?? '';
    for (const piece of [
      '<img src=x onerror=',
      '<script>window.__xss=2;alert(2)</script>',
      '[click me](javascript:window.__xss=3)',
      '<svg onload=',
    ]) {
      expect(text).toContain(piece);
    }
    // ...and none of it became an element.
    expect(
      await message
        .getByTestId('message-text')
        .locator('*')
        .evaluateAll((nodes) => nodes.map((n) => n.tagName)),
    ).toEqual(['P']);
    expect(await page.locator('img[src="x"], script:not([src]):has-text("__xss"), svg[onload]').count()).toBe(0);
    expect(await page.locator('a[href^="javascript:" i]').count()).toBe(0);
    await message.getByText('click me', { exact: false }).click();
    await page.waitForTimeout(300);
    expect(await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss)).toBeUndefined();
    expect(dialogs).toEqual([]);
    // The sender's own page renders it the same way.
    arrivals.push(await waitForMessage(tina.page, 'XSS check', chatName));
    expect(await tina.page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss)).toBeUndefined();
  });

  it('shows chat settings: admins get every tab; others read only', async () => {
    const { page } = tina;
    await page.getByRole('button', { name: 'Chat settings' }).click();
    const dialog = page.getByRole('dialog', { name: 'Chat Settings' });
    const tabs = dialog.getByRole('tablist', { name: 'Chat settings' });
    expect(await tabs.getByRole('tab').allTextContents()).toEqual(['General', 'Members', 'AI Assistant', 'Danger']);
    const name = dialog.getByLabel('Chat Name');
    await name.fill('   ');
    expect(await dialog.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
    await name.fill(chatName);
    await tabs.getByRole('tab', { name: 'Members' }).click();
    expect(await dialog.getByLabel('Dana Developer is an admin').isDisabled()).toBe(false);
    await capture(page, 'chat-settings-members');
    await tabs.getByRole('tab', { name: 'Danger' }).click();
    await dialog
      .getByText('Deleting this chat will permanently remove all messages. This action cannot be undone.')
      .waitFor();
    await dialog.getByRole('button', { name: 'Close' }).first().click();

    await dana.page.getByRole('button', { name: 'Chat settings' }).click();
    const other = dana.page.getByRole('dialog', { name: 'Chat Settings' });
    const otherTabs = other.getByRole('tablist', { name: 'Chat settings' });
    expect(await otherTabs.getByRole('tab').allTextContents()).toEqual(['General', 'Members', 'AI Assistant']);
    expect(await other.getByRole('button', { name: 'Save' }).count()).toBe(0);
    await otherTabs.getByRole('tab', { name: 'Members' }).click();
    await other.getByText('Only chat admins can modify participants').waitFor();
    await otherTabs.getByRole('tab', { name: 'AI Assistant' }).click();
    await other.getByText('Only chat admins can modify AI settings').waitFor();
    await dana.page.keyboard.press('Escape');
  });

  it('works as two panes at 390 px', async () => {
    const { page } = dana;
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('button', { name: 'Back to chats' }).click();
    await page.getByRole('list', { name: 'Chat list' }).waitFor();
    await capture(page, 'chat-list');
    await page.setViewportSize({ width: 390, height: 844 });
    await openChat(page, chatName);
    expect(await page.getByRole('list', { name: 'Chat list' }).isVisible()).toBe(false);
    await page.setViewportSize({ width: 1280, height: 860 });
  });

  it('pages back through older messages, keeping the view where it was', async () => {
    const api = http(e2e.url);
    const created = await api.post(
      '/api/chats',
      {
        name: 'History',
        type: 'private',
        participants: [developer.id],
        aiAssistant: {
          enabled: false,
          model: 'gpt-3.5-turbo',
          systemPrompt: 'You are a helpful assistant in a bug tracking application.',
        },
      },
      tester.token,
    );
    expect(created.status).toBe(201);
    const id = created.body._id as string;
    for (let n = 1; n <= 60; n += 1) {
      const answer = await api.post(
        `/api/chats/${id}/messages`,
        { content: `History message ${n}`, mentions: [], replyTo: null },
        tester.token,
      );
      expect(answer.status).toBe(201);
    }
    const { page } = tina;
    await page.goto(`/tester/chats?chat=${id}`);
    await page.getByTestId('chat-title').filter({ hasText: 'History' }).waitFor();
    await page.getByText('History message 60', { exact: true }).waitFor();
    const scroller = page.getByTestId('message-scroller');
    // Page 1 is the newest 50, shown at the bottom.
    expect(await page.locator('[data-message-id]').count()).toBe(50);
    expect(await scroller.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight)).toBeLessThan(50);
    const offsetOf11 = () =>
      scroller.evaluate((el) => {
        const item = [...el.querySelectorAll('[data-message-id]')].find((li) =>
          li.textContent?.includes('History message 11'),
        );
        return item ? item.getBoundingClientRect().top - el.getBoundingClientRect().top : null;
      });
    const before = await scroller.evaluate((el) => {
      el.scrollTop = 0;
      const item = [...el.querySelectorAll('[data-message-id]')].find((li) =>
        li.textContent?.includes('History message 11'),
      );
      return item!.getBoundingClientRect().top - el.getBoundingClientRect().top;
    });
    await page.getByText('History message 1', { exact: true }).waitFor();
    expect(await page.locator('[data-message-id]').count()).toBe(60);
    const after = await offsetOf11();
    expect(Math.abs((after ?? 9999) - before)).toBeLessThan(8);
    await scroller.evaluate((el) => {
      el.scrollTop = 0;
    });
    await page.getByText('Beginning of the conversation').waitFor();
    // Scrolled up, a new message does not yank the view down; the button brings it back.
    await page.getByRole('button', { name: 'Scroll to bottom' }).waitFor();
    await page.getByRole('button', { name: 'Scroll to bottom' }).click();
    await expect
      .poll(() => scroller.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight))
      .toBeLessThan(50);
  });

  it('shows Sending... and takes the message back when the send fails', async () => {
    const { page } = tina;
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/api/chats/*/messages', async (route) => {
      if (route.request().method() !== 'POST') return route.continue();
      await held;
      return route.fulfill({
        status: 400,
        contentType: 'application/json',
        body: JSON.stringify({ message: 'This chat is read-only' }),
      });
    });
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('This one will fail');
    await box.press('Enter');
    const temp = page.locator('[data-temp="true"]').filter({ hasText: 'This one will fail' });
    await temp.getByText('Sending...').waitFor();
    release();
    await toast(tina, 'This chat is read-only');
    await temp.waitFor({ state: 'detached' });
    expect(await box.inputValue()).toBe('This one will fail');
    await page.unroute('**/api/chats/*/messages');
    await page.route('**/api/chats/*/messages', (route) =>
      route.request().method() === 'POST' ? route.abort('connectionrefused') : route.continue(),
    );
    await box.press('Enter');
    await toast(tina, 'Failed to send message');
    expect(await page.locator('[data-temp="true"]').count()).toBe(0);
    await page.unroute('**/api/chats/*/messages');
    await box.fill('');
  });

  it('lists public chats to everyone, with a Join button for non-members', async () => {
    const created = await http(e2e.url).post(
      '/api/chats',
      {
        name: 'Company announcements',
        type: 'public',
        participants: [],
        aiAssistant: {
          enabled: false,
          model: 'gpt-3.5-turbo',
          systemPrompt: 'You are a helpful assistant in a bug tracking application.',
        },
      },
      admin.token,
    );
    expect(created.status).toBe(201);
    const { page } = dana;
    await page.goto('/developer/chats');
    await openChat(page, 'Company announcements');
    expect(await page.getByRole('textbox', { name: 'Message' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Join' }).click();
    await page.getByRole('textbox', { name: 'Message' }).waitFor();
    await page.getByText('Public · 2 members').waitFor();
  });

  it('says once, not as a reply to each message, that no AI provider is set up', async () => {
    const api = http(e2e.url);
    const created = await api.post(
      '/api/chats',
      {
        name: 'Ask the assistant',
        type: 'ai_assistant',
        aiAssistant: { enabled: true, model: 'gpt-3.5-turbo', systemPrompt: 'You help with bugs.' },
      },
      tester.token,
    );
    expect(created.status).toBe(201);
    const id = created.body._id as string;
    expect((await api.get('/api/chats/ai-models', tester.token)).body.configured).toBe(false);
    const { page } = tina;
    await page.goto(`/tester/chats?chat=${id}`);
    await page.getByTestId('chat-title').filter({ hasText: 'Ask the assistant' }).waitFor();
    // A quiet note under the conversation, not a message in it.
    const note = page.getByRole('note').filter({ hasText: 'no AI provider is set up' });
    await note.waitFor();
    expect(await page.getByTestId('message-scroller').getByText('No AI provider is set up').count()).toBe(0);
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('Is #7 fixed yet?');
    await box.press('Enter');
    await page.getByTestId('message-scroller').getByText('Is #7 fixed yet?').waitFor();
    // A later message arrives after whatever the first one caused: still no answer to either.
    expect((await api.post(`/api/chats/${id}/messages`, { content: 'Anyone?' }, tester.token)).status).toBe(201);
    await page.getByTestId('message-scroller').getByText('Anyone?').waitFor();
    const messages = (await api.get(`/api/chats/${id}/messages`, tester.token)).body.messages as {
      content: string;
      isAIMessage?: boolean;
    }[];
    expect(messages.map((m) => m.content).sort()).toEqual(['Anyone?', 'Is #7 fixed yet?']);
    expect(messages.filter((m) => m.isAIMessage)).toEqual([]);
    await capture(page, 'chat-ai-no-provider');
    // The settings say it, with what an administrator sets.
    await page.getByRole('button', { name: 'Chat settings' }).click();
    const dialog = page.getByRole('dialog', { name: 'Chat Settings' });
    await dialog.getByRole('tab', { name: 'AI Assistant' }).click();
    const explained = dialog.getByRole('note').filter({ hasText: 'No AI provider is set up' });
    await explained.waitFor();
    expect(await explained.textContent()).toContain('AI_BASE_URL');
    await capture(page, 'chat-ai-no-provider-settings');
    await page.keyboard.press('Escape');
  });

  it('keeps what is typed right after a picked mention after it, however late the next frame comes', async () => {
    const session = await openPage(e2e, { user: tester });
    const { page } = session;
    const { nextFrame } = await lateFrames(page);
    await page.goto('/tester/chats');
    await openChat(page, chatName);
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.click();
    await box.pressSequentially('cc @Da');
    await page.getByRole('listbox', { name: 'Mention someone' }).getByText('Dana Developer').waitFor();
    await box.press('Enter');
    // A key typed before the next frame, then the rest after it.
    await box.pressSequentially('n');
    await nextFrame();
    await box.pressSequentially('ow');
    expect(await box.inputValue()).toBe('cc @Dana Developer now');
    await session.context.close();
  });

  it('deletes the chat as soon as its exact name is typed', async () => {
    const { page } = tina;
    await openChat(page, chatName);
    await page.getByRole('button', { name: 'Chat settings' }).click();
    const dialog = page.getByRole('dialog', { name: 'Chat Settings' });
    await dialog.getByRole('tab', { name: 'Danger' }).click();
    const confirm = dialog.getByLabel(/to delete this chat/);
    await confirm.fill(chatName.slice(0, -1));
    expect(await dialog.isVisible()).toBe(true);
    await confirm.pressSequentially(chatName.slice(-1));
    await dialog.waitFor({ state: 'detached' });
    await page.getByText('No chat selected').waitFor();
    expect(await page.getByRole('list', { name: 'Chat list' }).getByText(chatName).count()).toBe(0);
  });
});
