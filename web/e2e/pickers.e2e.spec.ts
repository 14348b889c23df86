import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capture, type E2E, openPage, registerUser, startE2E, type TestUser } from './harness.js';

/**
 * Two people with one name (issue 40): every picker names them with their email beside,
 * visible at 1280 and at 390 px, so the right one is chosen.
 */
describe('pickers tell two people with one name apart', () => {
  let e2e: E2E;
  let admin: TestUser;
  let first: TestUser;
  let second: TestUser;

  beforeAll(async () => {
    e2e = await startE2E();
    admin = await registerUser(e2e.url, 'admin', 'Ada Admin');
    first = await registerUser(e2e.url, 'developer', 'Sam Rivera');
    second = await registerUser(e2e.url, 'developer', 'Sam Rivera');
  });
  afterAll(async () => {
    await e2e?.close();
  });

  for (const width of [1280, 390]) {
    it(`shows each email beside the name in the assign picker, the filters and the chat picker at ${width} px`, async () => {
      const { context, page } = await openPage(e2e, { user: admin, width });
      try {
        await page.goto('/admin/create-bug');
        const one = page.getByRole('checkbox', { name: new RegExp(first.email) });
        const two = page.getByRole('checkbox', { name: new RegExp(second.email) });
        await one.waitFor({ state: 'attached' });
        expect(await page.getByText(first.email, { exact: true }).first().isVisible()).toBe(true);
        expect(await page.getByText(second.email, { exact: true }).first().isVisible()).toBe(true);
        expect(await two.count()).toBe(1);
        await capture(page, `picker-assign-same-names-${width}`);

        await page.goto('/admin/bugs');
        await page.locator('summary', { hasText: 'Assignee:' }).click();
        const assignee = page.getByRole('group', { name: 'Assignee' });
        await assignee.getByText(`Sam Rivera (${second.email})`).waitFor();
        expect(await assignee.getByText(`Sam Rivera (${first.email})`).isVisible()).toBe(true);

        await page.goto('/admin/chats');
        await page.getByRole('button', { name: 'Create New Chat' }).last().click();
        const dialog = page.getByRole('dialog');
        await dialog.getByText(first.email, { exact: true }).waitFor();
        expect(await dialog.getByText(second.email, { exact: true }).isVisible()).toBe(true);
        await capture(page, `picker-chat-same-names-${width}`);
      } finally {
        await context.close();
      }
    });
  }
});
