import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  capture,
  createBug,
  type E2E,
  noSideScroll,
  openPage,
  registerUser,
  seriousViolations,
  startE2E,
} from './harness.js';

const SECRET = 'e2e-github-secret';

/**
 * Commits and pull requests on the bug page (issue 20): GitHub's signed webhooks, sent as
 * GitHub sends them, link a pull request and a fixing commit; the admin's bug page shows
 * both in its Code card, the bug as Resolved, and its Activity says who did what.
 */
describe('bug page: code links', () => {
  let e2e: E2E;

  beforeAll(async () => {
    e2e = await startE2E({ env: { GITHUB_WEBHOOK_SECRET: SECRET } });
  });
  afterAll(async () => {
    await e2e?.close();
  });

  const github = async (event: string, payload: unknown) => {
    const body = JSON.stringify(payload);
    const answer = await fetch(`${e2e.url}/api/integrations/github`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-github-event': event,
        'x-hub-signature-256': `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`,
      },
      body,
    });
    expect(answer.status).toBe(200);
  };

  it('shows the linked pull request and the commit that closed the bug', async () => {
    const admin = await registerUser(e2e.url, 'admin', 'Ada Admin');
    const developer = await registerUser(e2e.url, 'developer', 'Dee Dev');
    const bug = await createBug(e2e.url, admin.token, {
      title: 'Export drops the last row',
      assignedTo: [developer.id],
    });
    const repository = { full_name: 'acme/shop', default_branch: 'main' };
    await github('pull_request', {
      action: 'opened',
      repository,
      pull_request: {
        number: 314,
        title: 'Keep the last row of the export',
        body: `Fixes #${bug.number}`,
        html_url: 'https://github.com/acme/shop/pull/314',
        state: 'open',
        merged: false,
      },
    });
    const sha = 'c0ffee0123456789abcdef0123456789abcdef01';
    await github('push', {
      ref: 'refs/heads/main',
      repository,
      commits: [
        {
          id: sha,
          message: `Keep the last row of the export\n\nFixes #${bug.number}`,
          timestamp: '2026-11-27T09:15:00Z',
          url: `https://github.com/acme/shop/commit/${sha}`,
          author: { name: 'Dee Dev', email: developer.email },
        },
      ],
    });

    const { page } = await openPage(e2e, { user: admin });
    await page.goto(`/admin/bugs/${bug._id}`);
    await page.getByRole('heading', { level: 2, name: 'Code' }).waitFor();
    const requests = page.getByRole('list', { name: 'Pull requests' });
    await expect.poll(async () => (await requests.textContent()) ?? '').toContain('acme/shop#314');
    expect(await requests.textContent()).toContain('Keep the last row of the export');
    const commits = page.getByRole('list', { name: 'Commits' });
    expect(await commits.textContent()).toContain('c0ffee0');
    expect(await commits.getByRole('link', { name: 'c0ffee0' }).getAttribute('href')).toBe(
      `https://github.com/acme/shop/commit/${sha}`,
    );
    // Closed by the commit, in the developer's name (matched by email).
    expect(await page.getByLabel('Status').inputValue()).toBe('Resolved');
    await page
      .getByText(/Dee Dev\s*changed Status from Pending to Resolved/)
      .first()
      .waitFor();
    await page
      .getByText(/linked commit c0ffee0/)
      .first()
      .waitFor();
    expect(await noSideScroll(page)).toBe(true);
    expect(await seriousViolations(page, 'bug page with code links')).toEqual([]);
    await capture(page, 'bug-code-links');
  });
});
