import { registerAuditor } from '@bugtrail/testing';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  capture,
  createBug,
  type E2E,
  http,
  openPage,
  registerUser,
  startE2E,
  type TestUser,
  toast,
} from './harness.js';

/**
 * Every role's bug page shows everything the bug has: its steps, links, files, code and
 * comments (issue 40: the admin's page showed no steps, links or files while its activity
 * listed the files attached). The admin, who may edit all of it, ticks and adds a step and
 * adds a link in place, and the form beside them still saves (our own change is not taken
 * for someone else's).
 */
const link = 'https://example.com/screenshots/checkout-error.png';
const fileName = 'console.log';

async function seesEverything(page: Page) {
  await page.getByRole('heading', { name: 'Steps to Reproduce' }).waitFor();
  await page.getByText('Add a coupon', { exact: true }).waitFor();
  await page.getByText('Press Pay', { exact: true }).waitFor();
  await page.getByRole('link', { name: link }).waitFor();
  await page.getByRole('list', { name: 'Attached files' }).getByText(fileName).waitFor();
  await page.getByRole('heading', { name: 'Code', exact: true }).waitFor();
  await page
    .getByRole('region', { name: /Comments/ })
    .getByText('Reproduced on staging.')
    .waitFor();
}

describe("every role's bug page shows everything the bug has", () => {
  let e2e: E2E;
  let admin: TestUser;
  let tester: TestUser;
  let developer: TestUser;
  let auditor: TestUser;
  let bug: { _id: string; title: string };

  beforeAll(async () => {
    e2e = await startE2E();
    admin = await registerUser(e2e.url, 'admin', 'Ada Admin');
    tester = await registerUser(e2e.url, 'tester', 'Tess Tester');
    developer = await registerUser(e2e.url, 'developer', 'Devon Developer');
    auditor = await registerAuditor(e2e.url, admin.token, 'Audrey Auditor');
    bug = await createBug(e2e.url, tester.token, {
      title: 'Payment fails after adding a coupon',
      assignedTo: [developer.id],
      checklist: ['Add a coupon', 'Press Pay'],
    });
    const api = http(e2e.url);
    const linked = await api.put(`/api/bugs/${bug._id}`, { attachments: [link] }, tester.token);
    expect(linked.status).toBe(200);
    const form = new FormData();
    form.append('file', new Blob(['TypeError: coupon is undefined\n'], { type: 'text/plain' }), fileName);
    const attached = await fetch(`${e2e.url}/api/bugs/${bug._id}/attachments`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${tester.token}` },
      body: form,
    });
    expect(attached.status).toBe(201);
    const comment = await api.post(
      `/api/bugs/${bug._id}/comments`,
      { body: 'Reproduced on staging.' },
      developer.token,
    );
    expect(comment.status).toBe(201);
  });
  afterAll(async () => {
    await e2e?.close();
  });

  for (const [who, path] of [
    ['tester', '/tester/bug/'],
    ['developer', '/developer/assigned-bugs/'],
    ['auditor', '/auditor/bugs/'],
    ['admin', '/admin/bugs/'],
  ] as const) {
    it(`the ${who} sees the steps, links, files, code and comments`, async () => {
      const user = { tester, developer, auditor, admin }[who];
      const { context, page } = await openPage(e2e, { user });
      try {
        await page.goto(`${path}${bug._id}`);
        await page.getByRole('heading', { level: 1, name: bug.title }).waitFor();
        await seesEverything(page);
      } finally {
        await context.close();
      }
    });
  }

  it('the admin ticks and adds a step and adds a link in place, and the form still saves', async () => {
    const session = await openPage(e2e, { user: admin });
    const { page } = session;
    try {
      await page.goto(`/admin/bugs/${bug._id}`);
      await page.getByRole('heading', { level: 1, name: bug.title }).waitFor();
      await page.getByRole('checkbox', { name: 'Tick Add a coupon' }).check();
      await toast(session, 'Checklist updated');
      await page.getByRole('checkbox', { name: 'Untick Add a coupon' }).waitFor();
      await page.getByLabel('New step').fill('Try a second coupon');
      await page.getByRole('button', { name: 'Add step' }).click();
      await toast(session, 'Step added');
      await page.getByText('Try a second coupon', { exact: true }).waitFor();
      await page.getByLabel('New link').fill('https://example.com/har/checkout.har');
      await page.getByRole('button', { name: 'Add link' }).click();
      await toast(session, 'Link added');
      await page.getByRole('link', { name: 'https://example.com/har/checkout.har' }).waitFor();
      // The form's save after our own changes is not stale: it saves, no "changed meanwhile".
      await page.getByLabel('Module').fill('Payments');
      await page.getByRole('button', { name: 'Update Bug' }).click();
      await toast(session, 'Bug Updated Successfully');
      expect(await page.getByRole('dialog', { name: 'This bug changed meanwhile' }).count()).toBe(0);
      await capture(page, 'admin-bug-everything');
      const stored = await http(e2e.url).get(`/api/bugs/${bug._id}`, admin.token);
      expect(stored.body).toMatchObject({
        module: 'Payments',
        attachments: [link, 'https://example.com/har/checkout.har'],
      });
      expect(
        stored.body.checklist.map((item: { text: string; completed: boolean }) => [item.text, item.completed]),
      ).toEqual([
        ['Add a coupon', true],
        ['Press Pay', false],
        ['Try a second coupon', false],
      ]);
      expect(stored.body.files.map((file: { name: string }) => file.name)).toEqual([fileName]);
    } finally {
      await session.context.close();
    }
  });
});
