import { existsSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { registerBenchUser, startServerProcess } from './server-process.js';
import type { BenchRow, BenchSuite } from './types.js';

const CHROMIUM = '/usr/bin/chromium';

/**
 * Production bundle sizes as a first visit fetches them: every script and stylesheet
 * of the landing page, and of the app shell (admin dashboard), gzip-sized.
 */
export function bundleSuite(root: string): BenchSuite {
  return {
    name: 'bundle',
    async run(ctx) {
      if (!existsSync(CHROMIUM)) {
        return [{ suite: 'bundle', name: 'skipped: Debian chromium is not installed', value: Number.NaN, unit: '' }];
      }
      const { chromium } = await import('playwright-core');
      const database = await ctx.createDatabase();
      const server = await startServerProcess(root, database.url);
      const browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: [
          '--no-sandbox',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
          '--disable-gpu',
        ],
      });
      try {
        const { token } = await registerBenchUser(server.url, 'admin', 1);
        const measure = async (path: string, readyText: string, withToken: boolean) => {
          const context = await browser.newContext();
          if (withToken) await context.addInitScript(`window.localStorage.setItem('token', ${JSON.stringify(token)})`);
          const page = await context.newPage();
          const sizes: Promise<number>[] = [];
          page.on('response', (response) => {
            if (/\.(js|css)$/.test(new URL(response.url()).pathname)) {
              sizes.push(response.body().then((body) => gzipSync(body).length));
            }
          });
          await page.goto(server.url + path);
          await page.getByText(readyText).first().waitFor({ timeout: 30_000 });
          const total = (await Promise.all(sizes)).reduce((a, b) => a + b, 0);
          await context.close();
          return Math.round((total / 1024) * 10) / 10;
        };
        const landing = await measure('/landing', 'Most Popular', false);
        const app = await measure('/admin/dashboard', 'Bug Status Distribution', true);
        const rows: BenchRow[] = [
          {
            suite: 'bundle',
            name: 'landing page first load (gzip)',
            value: landing,
            unit: 'kB',
            target: '≤ 155 kB',
            met: landing <= 155,
          },
          {
            suite: 'bundle',
            name: 'app first load, /admin/dashboard (gzip)',
            value: app,
            unit: 'kB',
            target: '≤ 250 kB',
            met: app <= 250,
          },
        ];
        return rows;
      } finally {
        await browser.close();
        await server.stop();
        await database.drop();
      }
    },
  };
}
