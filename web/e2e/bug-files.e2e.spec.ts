import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  capture,
  createBug,
  type E2E,
  http,
  openPage,
  registerUser,
  type Session,
  startE2E,
  type TestUser,
  toast,
} from './harness.js';

/**
 * Issue 16: files on the bug page. The reporter drops an image (previewed as a thumbnail
 * and in a larger view) and picks a log with the file picker; a refused type says why;
 * the assigned developer sees and downloads the files but has no drop zone or remove
 * button; the reporter removes a file.
 */

/** Draws a small "screenshot" in the page and drops it on the drop zone as a user's drag would. */
async function dropScreenshot(page: Page, name: string) {
  await page.evaluate(async (fileName) => {
    const canvas = document.createElement('canvas');
    canvas.width = 640;
    canvas.height = 400;
    const g = canvas.getContext('2d')!;
    g.fillStyle = '#f1f5f9';
    g.fillRect(0, 0, 640, 400);
    g.fillStyle = '#4f46e5';
    g.fillRect(0, 0, 640, 56);
    g.fillStyle = '#ffffff';
    g.font = 'bold 24px sans-serif';
    g.fillText('Checkout', 24, 36);
    g.fillStyle = '#e11d48';
    g.fillRect(170, 150, 300, 110);
    g.fillStyle = '#ffffff';
    g.font = 'bold 22px sans-serif';
    g.fillText('Payment failed', 240, 212);
    const blob = await new Promise<Blob>((resolve) => canvas.toBlob((b) => resolve(b!), 'image/png'));
    const data = new DataTransfer();
    data.items.add(new File([blob], fileName, { type: 'image/png' }));
    const zone = document.querySelector('[data-testid="bug-files-dropzone"]')!;
    for (const type of ['dragenter', 'dragover', 'drop']) {
      zone.dispatchEvent(new DragEvent(type, { dataTransfer: data, bubbles: true, cancelable: true }));
    }
  }, name);
}

const files = (page: Page) => page.getByRole('list', { name: 'Attached files' });

/** Whether the image element has decoded real pixels (a blob: URL the page made from the bytes). */
const isShown = (page: Page, testId: string) =>
  page
    .getByTestId(testId)
    .first()
    .evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0 && img.src.startsWith('blob:'));

describe('bug files on the bug page', () => {
  let e2e: E2E;
  let tester: TestUser;
  let developer: TestUser;
  let otherTester: TestUser;
  let bug: { _id: string; title: string };
  let testerSession: Session;
  let developerSession: Session;

  beforeAll(async () => {
    e2e = await startE2E();
    await registerUser(e2e.url, 'admin', 'Ada Admin');
    tester = await registerUser(e2e.url, 'tester', 'Tess Tester');
    developer = await registerUser(e2e.url, 'developer', 'Devon Developer');
    otherTester = await registerUser(e2e.url, 'tester', 'Otto Other');
    bug = await createBug(e2e.url, tester.token, {
      title: 'Payment fails after adding a coupon',
      assignedTo: [developer.id],
      checklist: ['Add a coupon', 'Press Pay'],
    });
    testerSession = await openPage(e2e, { user: tester });
    developerSession = await openPage(e2e, { user: developer });
  });
  afterAll(async () => {
    await testerSession?.context.close();
    await developerSession?.context.close();
    await e2e?.close();
  });

  it('the reporter drops an image (previewed) and picks a log; a refused type says why', async () => {
    const { page } = testerSession;
    await page.goto(`/tester/bug/${bug._id}`);
    await page.getByRole('region', { name: 'Files' }).waitFor();
    await page.getByText('Drag files here, or').waitFor();

    await dropScreenshot(page, 'checkout-error.png');
    await toast(testerSession, 'File attached');
    await files(page).getByText('checkout-error.png').waitFor();
    await page.getByTestId('bug-file-thumbnail').first().waitFor();
    await expect.poll(() => isShown(page, 'bug-file-thumbnail')).toBe(true);

    await page.getByLabel('Attach files').setInputFiles([
      { name: 'console.log', mimeType: 'text/plain', buffer: Buffer.from('TypeError: coupon is undefined\n') },
      {
        name: 'setup.png',
        mimeType: 'image/png',
        buffer: Buffer.from('MZ\u0090\u0000\u0003\u0000\u0000\u0000\u0004\u0000'),
      },
    ]);
    await files(page).getByText('console.log').waitFor();
    await page.getByText('File type not allowed: images, PDF, text, logs and zip files only (setup.png)').waitFor();
    expect(await files(page).getByText('setup.png').count()).toBe(0);
    await files(page).getByText('Text · 31 B').waitFor();

    // The larger preview, from the same bytes.
    await page.getByRole('button', { name: 'Preview checkout-error.png' }).click();
    const dialog = page.getByRole('dialog', { name: 'checkout-error.png' });
    await dialog.waitFor();
    await expect.poll(() => isShown(page, 'bug-file-preview')).toBe(true);
    await capture(page, 'bug-files-preview');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });

    await page.getByRole('button', { name: 'Dismiss setup.png' }).click();
    await capture(page, 'bug-files');
  });

  it('the assigned developer sees and downloads the files, with nothing to add or remove', async () => {
    const { page } = developerSession;
    await page.goto(`/developer/assigned-bugs/${bug._id}`);
    await files(page).getByText('checkout-error.png').waitFor();
    await expect.poll(() => isShown(page, 'bug-file-thumbnail')).toBe(true);
    expect(await page.getByTestId('bug-files-dropzone').count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Remove / }).count()).toBe(0);

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download console.log' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('console.log');

    // Another tester reaches neither the page's files nor the bytes.
    const bugAnswer = await http(e2e.url).get(`/api/bugs/${bug._id}`, tester.token);
    const url = (bugAnswer.body.files as { url: string }[])[0]!.url;
    expect((await http(e2e.url).get(url, otherTester.token)).status).toBe(403);
    expect((await http(e2e.url).get(url)).status).toBe(401);
  });

  it('the reporter removes a file after confirming', async () => {
    const { page } = testerSession;
    await page.goto(`/tester/bug/${bug._id}`);
    await files(page).getByText('console.log').waitFor();
    await page.getByRole('button', { name: 'Remove console.log' }).click();
    const confirm = page.getByRole('dialog', { name: 'Remove file?' });
    await confirm.getByRole('button', { name: 'Remove' }).click();
    await toast(testerSession, 'File removed');
    await files(page).getByText('console.log').waitFor({ state: 'detached' });
    await files(page).getByText('checkout-error.png').waitFor();
    // The activity names what happened to the file.
    await page.getByText('removed the file console.log').first().waitFor();
  });
});
