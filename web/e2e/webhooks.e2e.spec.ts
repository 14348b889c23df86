import { startWebhookReceiver, type WebhookReceiver } from '@bugtrail/testing/webhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  capture,
  type E2E,
  http,
  noSideScroll,
  openPage,
  registerUser,
  seriousViolations,
  startE2E,
  toast,
} from './harness.js';

/**
 * The admin's Webhooks page (issue 20): add a webhook for a receiver on 127.0.0.1 (opened with
 * WEBHOOK_ALLOW_HOSTS), copy its secret, and watch deliveries arrive in its log while a tester
 * reports a bug and the admin pings it; the receiver verifies each with `standardwebhooks`.
 */
describe('admin: webhooks', () => {
  let e2e: E2E;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    e2e = await startE2E({ env: { WEBHOOK_ALLOW_HOSTS: '127.0.0.1' } });
  });
  afterAll(async () => {
    await e2e?.close();
    await receiver?.close();
  });

  it('adds a webhook, shows its secret once, and its log fills live as bugs change', async () => {
    const admin = await registerUser(e2e.url, 'admin', 'Hook Admin');
    const tester = await registerUser(e2e.url, 'tester', 'Tina Tester');
    const developer = await registerUser(e2e.url, 'developer', 'Dev Dana');
    const session = await openPage(e2e, { user: admin });
    const { page } = session;
    await page.goto('/admin/webhooks');
    await page.getByRole('heading', { level: 1, name: 'Webhooks' }).waitFor();
    await page.getByText('No webhooks yet').waitFor();

    // A private address is refused under the field.
    await page.getByLabel('Payload URL').fill('http://10.0.0.5/hook');
    await page.getByRole('button', { name: 'Add webhook' }).click();
    await page.getByText('Webhook URL must be a public address').waitFor();

    await page.getByLabel('Payload URL').fill(`${receiver.url}/bugtrail`);
    await page.getByLabel('Description (optional)').fill('CI receiver');
    await page.getByRole('button', { name: 'Add webhook' }).click();
    const secret = await page.getByLabel('Signing secret').inputValue();
    expect(secret).toMatch(/^whsec_/);
    receiver.useSecret(secret);
    await page.getByRole('button', { name: 'Show deliveries' }).click();
    await page.getByText('Nothing sent yet.').waitFor();

    // A tester reports a bug elsewhere: the delivery shows up in the open log by itself.
    const reported = await http(e2e.url).post(
      '/api/bugs',
      {
        title: 'Webhook e2e bug',
        description: 'Reported while the admin watches the delivery log',
        priority: 'Low',
        severity: 'Minor',
        assignedTo: [developer.id],
      },
      tester.token,
    );
    expect(reported.status).toBe(201);
    const log = page.getByRole('table', { name: 'Deliveries' });
    await log.getByText('bug.reported').waitFor({ timeout: 15_000 });
    await log.getByText('bug.assigned').waitFor({ timeout: 15_000 });
    expect(await log.getByRole('row').nth(1).textContent()).toContain('200');
    expect(receiver.received[0]?.verified).toMatchObject({
      type: 'bug.reported',
      data: { bug: { title: 'Webhook e2e bug' } },
    });

    await page.getByRole('button', { name: 'Ping' }).click();
    await toast(session, 'Ping sent');
    await log.getByText('ping').waitFor({ timeout: 15_000 });
    expect(receiver.received.some((m) => m.verified?.type === 'ping')).toBe(true);
    expect(await noSideScroll(page)).toBe(true);
    expect(await seriousViolations(page, 'webhooks page')).toEqual([]);
    await capture(page, 'admin-webhooks');
    // Toasts slide in from the side: let them go before measuring the phone layout.
    await page.locator('[data-sonner-toast]').first().waitFor({ state: 'detached' });
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await noSideScroll(page)).toBe(true);
    await page.setViewportSize({ width: 1280, height: 860 });

    // Switched off, and the page says so; the secret never shows again.
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('button', { name: 'Switch off' }).click();
    await page.getByText('Switched off', { exact: true }).waitFor();
    await page.reload();
    await page.getByText('Switched off', { exact: true }).waitFor();
    expect(await page.content()).not.toContain(secret);
    await session.context.close();
  });
});
