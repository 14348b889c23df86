import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2E, openPage, registerUser, screenshotDir, startE2E } from './harness.js';

/** Every script and stylesheet a first visit fetches, gzip-sized as a CDN would serve them. */
async function firstLoad(page: Page, url: string, ready: () => Promise<unknown>) {
  const assets = new Map<string, number>();
  const pending: Promise<void>[] = [];
  page.on('response', (response) => {
    const file = new URL(response.url()).pathname;
    if (!/\.(js|css)$/.test(file)) return;
    pending.push(
      response.body().then((body) => {
        assets.set(file, gzipSync(body).length);
      }),
    );
  });
  await page.goto(url);
  await ready();
  await Promise.all(pending);
  const total = [...assets.values()].reduce((sum, size) => sum + size, 0);
  return { files: [...assets.keys()], kB: Math.round((total / 1024) * 10) / 10 };
}

describe('bundle budgets (gzip, first load)', () => {
  let e2e: E2E;
  beforeAll(async () => {
    e2e = await startE2E();
  });
  afterAll(async () => {
    await e2e?.close();
  });

  it('keeps the landing page free of app code and within its budgets', async () => {
    const visitor = await openPage(e2e);
    const landing = await firstLoad(visitor.page, '/landing', () => visitor.page.getByText('Most Popular').waitFor());
    await visitor.context.close();

    const admin = await registerUser(e2e.url, 'admin', 'Budget Admin');
    const session = await openPage(e2e, { user: admin });
    const app = await firstLoad(session.page, '/admin/dashboard', () =>
      session.page.getByText('Bug Status Distribution').waitFor(),
    );
    await session.context.close();

    await writeFile(
      path.join(screenshotDir, 'bundle-sizes.json'),
      `${JSON.stringify({ landingKb: landing.kB, appFirstLoadKb: app.kB, landing: landing.files, app: app.files }, null, 2)}\n`,
    );
    console.log(`bundle (gzip): landing ${landing.kB} kB, app first load ${app.kB} kB`);
    expect(landing.files.some((file) => /app-layout|dashboard|charts/.test(file))).toBe(false);
    // 150 kB until issue 16; the offline layer (Idempotency-Key on every command, the
    // server-reachable state, the service worker's registration) and the theme toggle run
    // on every page, the landing page included: 155 kB. React and the router are ~100 kB of it.
    // 156 kB since issue 34: the lists' search parameters are read in the route tree every page
    // loads (validateSearch, loaderDeps: the list-search module). The loaders themselves are
    // split into chunks of their own (vite.config.ts): measured 155.5 kB with every data route's.
    // 158 kB since issue 36: four more routes in that tree (the board, milestones, a milestone,
    // labels), their search parameters read without their components (board-search.ts): 157.0 kB.
    // 159 kB since issue 38: the timesheet, flow-by-project and automations routes in the tree and
    // the admin nav: 158.1 kB measured.
    expect(landing.kB).toBeLessThanOrEqual(159);
    expect(app.kB).toBeLessThanOrEqual(250);
  });
});
