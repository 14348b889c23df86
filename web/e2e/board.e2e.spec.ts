import { mkdir } from 'node:fs/promises';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type E2E,
  http,
  noSideScroll,
  openPage,
  registerUser,
  type Session,
  seriousViolations,
  startE2E,
  type TestUser,
  toast,
} from './harness.js';

/**
 * The board and labels in the browser (api.md "Board", "Labels"): an admin makes labels and puts
 * one on a bug; on a project's board a card is dragged to another column with the mouse and
 * moved with its keyboard Move menu, and a second browser on the same board sees both moves
 * live; a move the server refuses springs back with its message; axe finds nothing serious at
 * 1280 and 390 px.
 */
const shots = '/tmp/shots';

/** The cards of one column (its list, lanes off) by key, top to bottom. */
async function columnKeys(page: Page, status: string): Promise<string[]> {
  return page
    .getByRole('list', { name: status, exact: true })
    .locator('[data-bug-card]')
    .evaluateAll((cards) => cards.map((card) => card.getAttribute('data-bug-card') ?? ''));
}

/**
 * How long until `check` holds, in ms (it must hold within 10 s at all): the other browser's view
 * of a move is asserted to arrive within a second of the move being stored, and a miss says by how much.
 */
async function msUntil(since: number, check: () => Promise<boolean>): Promise<number> {
  await expect.poll(check, { timeout: 10_000, interval: 25 }).toBe(true);
  return Date.now() - since;
}

/** When the server answered a PUT on the bug's `what` (its state: the column; or its rank), as seen by the page. */
async function answered(page: Page, bugId: string, what: 'state' | 'rank', status = 200): Promise<number> {
  const response = await page.waitForResponse(
    (r) => r.url().endsWith(`/api/bugs/${bugId}/${what}`) && r.request().method() === 'PUT',
  );
  expect(response.status()).toBe(status);
  return Date.now();
}

const card = (page: Page, key: string) => page.locator(`[data-bug-card="${key}"]`);

/** Drags with the mouse as a person does: press, a small move (dnd-kit waits for 5 px), then on in steps. */
async function drag(page: Page, from: Locator, to: Locator, options: { toTop?: boolean } = {}) {
  const a = await from.boundingBox();
  const b = await to.boundingBox();
  if (!a || !b) throw new Error('nothing to drag, or nowhere to drop');
  const start = { x: a.x + a.width / 2, y: a.y + 12 };
  const end = { x: b.x + b.width / 2, y: options.toTop ? b.y + 8 : b.y + b.height / 2 };
  await page.mouse.move(start.x, start.y);
  await page.mouse.down();
  await page.mouse.move(start.x + 8, start.y + 8, { steps: 4 });
  await page.mouse.move(end.x, end.y, { steps: 20 });
  // One more small move where it lands: the drop target is worked out on moves.
  await page.mouse.move(end.x + 2, end.y + 2, { steps: 2 });
  await page.mouse.up();
}

describe('board and labels', () => {
  let e2e: E2E;
  let admin: TestUser;
  let tester: TestUser;
  let dev: TestUser;
  let projectId: string;
  const bugs: { _id: string; key: string }[] = [];

  beforeAll(async () => {
    await mkdir(shots, { recursive: true });
    e2e = await startE2E();
    admin = await registerUser(e2e.url, 'admin', 'Ada Admin');
    tester = await registerUser(e2e.url, 'tester', 'Tess Tester');
    dev = await registerUser(e2e.url, 'developer', 'Dev Dana');
    const api = http(e2e.url);
    const web = await api.post('/api/projects', { key: 'WEB', name: 'Web app' }, admin.token);
    expect(web.status).toBe(201);
    projectId = web.body._id;
    const titles = [
      'Checkout button unresponsive on Safari',
      'Export drops the last row',
      'Avatar upload spins forever',
    ];
    for (const [i, title] of titles.entries()) {
      const made = await api.post(
        '/api/bugs',
        {
          title,
          description: 'Seen on the staging server since the last deploy.',
          priority: ['High', 'Medium', 'Low'][i],
          severity: 'Major',
          assignedTo: [dev.id],
          projectId,
        },
        tester.token,
      );
      expect(made.status).toBe(201);
      bugs.push({ _id: made.body.bug._id, key: made.body.bug.key });
    }
  });
  afterAll(async () => {
    await e2e?.close();
  });

  it('lets an admin create, recolour and refuse a duplicate label, and label a bug from its page', async () => {
    const session = await openPage(e2e, { user: admin });
    const { page } = session;
    await page.goto('/admin/dashboard');
    await page.getByRole('navigation').getByRole('link', { name: 'Labels' }).first().click();
    await page.waitForURL('**/admin/labels');
    await page.getByRole('heading', { level: 1, name: 'Labels' }).waitFor();
    await page.getByText('No labels yet').waitFor();

    await page.getByLabel('Name', { exact: true }).fill('frontend');
    await page.getByLabel('Colour (hex)').fill('#fbca04');
    await page.getByRole('button', { name: 'Create label' }).click();
    await toast(session, 'Label frontend created');
    const list = page.getByRole('list', { name: 'Labels' });
    await list.getByText('frontend', { exact: true }).waitFor();

    await page.getByLabel('Name', { exact: true }).fill('backend');
    await page.getByRole('button', { name: 'Use #5319e7' }).click();
    await page.getByRole('button', { name: 'Create label' }).click();
    await list.getByText('backend', { exact: true }).waitFor();

    // A name in use, in any case, is refused under the field.
    await page.getByLabel('Name', { exact: true }).fill('Frontend');
    await page.getByRole('button', { name: 'Create label' }).click();
    await page.getByRole('alert').getByText('Label already exists').waitFor();

    // Recolour one in place.
    await page.getByRole('button', { name: 'Edit backend' }).click();
    await list.getByLabel('Colour (hex)').fill('#0e8a16');
    await page.getByRole('button', { name: 'Save label' }).click();
    await toast(session, 'Label saved');
    await list.getByText('#0e8a16').waitFor();
    await page.getByRole('heading', { level: 1, name: 'Labels' }).click();
    await page.setViewportSize({ width: 1280, height: 860 });
    await page.screenshot({ path: `${shots}/labels-admin-1280.png`, fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await noSideScroll(page)).toBe(true);
    await page.screenshot({ path: `${shots}/labels-admin-390.png`, fullPage: true });
    await page.setViewportSize({ width: 1280, height: 860 });

    // The bug's page: its labels, and the picker (saved when it closes).
    const target = bugs[1];
    if (!target) throw new Error('no bug');
    await page.goto(`/bugs/${target.key}`);
    await page.waitForURL(`**/admin/bugs/${target._id}`);
    await page.getByRole('button', { name: 'Add labels' }).click();
    await page.getByRole('checkbox', { name: /backend/ }).check();
    await page.screenshot({ path: `${shots}/bug-label-picker-1280.png` });
    expect(await seriousViolations(page, 'label-picker')).toEqual([]);
    await page.getByRole('button', { name: 'Done' }).click();
    await toast(session, 'Labels updated');
    await page.getByRole('list', { name: 'Labels' }).getByText('backend').waitFor();
    await page.getByRole('button', { name: 'Edit labels' }).waitFor();
    await page.screenshot({ path: `${shots}/bug-labels-1280.png` });
    await session.context.close();

    // The other label goes on the first bug through the API, for the board below.
    const labels = (await http(e2e.url).get('/api/labels', admin.token)).body.labels as { _id: string; name: string }[];
    const frontend = labels.find((l) => l.name === 'frontend');
    const put = await http(e2e.url).put(`/api/bugs/${bugs[0]?._id}/labels`, { labelIds: [frontend?._id] }, admin.token);
    expect(put.status).toBe(200);
    expect(put.body.bug.labels.map((l: { name: string }) => l.name)).toEqual(['frontend']);
  });

  it('moves cards by mouse and by the Move menu; another browser sees both moves live', async () => {
    const [first, second, third] = bugs;
    if (!first || !second || !third) throw new Error('no bugs');
    const mover: Session = await openPage(e2e, { user: admin });
    const watcher: Session = await openPage(e2e, { user: dev });
    const { page } = mover;

    await page.goto('/projects/WEB');
    await page.getByRole('navigation', { name: 'Project views' }).getByRole('link', { name: 'Board' }).click();
    await page.waitForURL('**/projects/WEB/board');
    await watcher.page.goto('/projects/WEB/board');
    for (const p of [page, watcher.page]) {
      await p.getByRole('list', { name: 'Pending', exact: true }).locator(`[data-bug-card="${third.key}"]`).waitFor();
      await p.locator('[data-live-status="live"]').waitFor();
    }
    // Newest on top; the column's heading counts its bugs in the viewer's words (an admin's and a
    // developer's Pending and Resolved); labels show on cards.
    expect(await columnKeys(page, 'Pending')).toEqual([third.key, second.key, first.key]);
    await page.getByRole('heading', { level: 2, name: /^Pending\W+3 bugs$/ }).waitFor();
    await card(page, first.key).getByText('frontend').waitFor();
    await card(page, second.key).getByText('backend').waitFor();

    // The mouse: the top card to In Progress (empty).
    let answer = answered(page, third._id, 'state');
    await drag(page, card(page, third.key), page.getByRole('list', { name: 'In Progress', exact: true }).locator('..'));
    let stored = await answer;
    await expect.poll(() => columnKeys(page, 'In Progress')).toEqual([third.key]);
    expect(
      await msUntil(stored, async () => (await columnKeys(watcher.page, 'In Progress')).includes(third.key)),
    ).toBeLessThan(1000);
    expect(await columnKeys(page, 'Pending')).toEqual([second.key, first.key]);
    const saved = await http(e2e.url).get(`/api/bugs/${third._id}`, admin.token);
    expect(saved.body.status).toBe('In Progress');

    // The mouse again: within a column, the bottom card to the top (a new rank, no status change).
    answer = answered(page, first._id, 'rank');
    await drag(page, card(page, first.key), card(page, second.key), { toTop: true });
    stored = await answer;
    await expect.poll(() => columnKeys(page, 'Pending')).toEqual([first.key, second.key]);
    expect(
      await msUntil(
        stored,
        async () => (await columnKeys(watcher.page, 'Pending')).join() === `${first.key},${second.key}`,
      ),
    ).toBeLessThan(1000);

    // The keyboard: the Move menu of a card, to Closed.
    const moveButton = page.getByRole('button', { name: `Move ${second.key}` });
    await moveButton.focus();
    await page.keyboard.press('Enter');
    const menu = page.getByRole('menu', { name: `Move ${second.key}` });
    await menu.waitFor();
    expect(await menu.getByRole('menuitem').allTextContents()).toEqual([
      'Move to In Progress',
      'Move to Resolved',
      'Move up',
    ]);
    answer = answered(page, second._id, 'state');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    stored = await answer;
    await expect.poll(() => columnKeys(page, 'Resolved')).toEqual([second.key]);
    expect(
      await msUntil(stored, async () => (await columnKeys(watcher.page, 'Resolved')).includes(second.key)),
    ).toBeLessThan(1000);
    // The focus stays with the card, on its Move button, in its new column.
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label')))
      .toBe(`Move ${second.key}`);
    await page.getByRole('heading', { level: 2, name: /^Resolved\W+1 bug$/ }).waitFor();

    // The keyboard inside a column: Move up.
    await page.getByRole('button', { name: `Move ${first.key}` }).click();
    answer = answered(page, first._id, 'rank');
    await page.getByRole('menuitem', { name: 'Move to In Progress' }).click();
    await expect.poll(() => columnKeys(page, 'In Progress')).toEqual([first.key, third.key]);
    await answer;
    await page.getByRole('button', { name: `Move ${third.key}` }).click();
    answer = answered(page, third._id, 'rank');
    await page.getByRole('menuitem', { name: 'Move up' }).click();
    stored = await answer;
    await expect.poll(() => columnKeys(page, 'In Progress')).toEqual([third.key, first.key]);
    expect(
      await msUntil(
        stored,
        async () => (await columnKeys(watcher.page, 'In Progress')).join() === `${third.key},${first.key}`,
      ),
    ).toBeLessThan(1000);

    // dnd-kit's own keyboard way: Space picks the card up by its grip, arrows move it, Space drops it.
    answer = answered(page, first._id, 'rank');
    await page.getByRole('button', { name: `Drag ${first.key}` }).focus();
    await page.keyboard.press('Space');
    await page.locator(`[aria-label="Drag ${first.key}"][aria-pressed="true"]`).waitFor();
    // Picked up where it was (dnd-kit listens for the arrows from the next tick on).
    await page.getByText(/is over In Progress, position 2 of 2/).waitFor();
    await page.keyboard.press('ArrowUp');
    await page.getByText(/is over In Progress, position 1 of 2/).waitFor({ timeout: 5000 });
    await page.keyboard.press('Space');
    stored = await answer;
    await expect.poll(() => columnKeys(page, 'In Progress')).toEqual([first.key, third.key]);
    expect(
      await msUntil(
        stored,
        async () => (await columnKeys(watcher.page, 'In Progress')).join() === `${first.key},${third.key}`,
      ),
    ).toBeLessThan(1000);

    // Filters as in lists: by label.
    await page.getByText('Label:').click();
    await page.getByRole('checkbox', { name: 'frontend' }).check();
    await page.waitForURL(/label=/);
    await expect.poll(() => columnKeys(page, 'In Progress')).toEqual([first.key]);
    expect(await columnKeys(page, 'Resolved')).toEqual([]);
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect.poll(() => columnKeys(page, 'In Progress')).toEqual([first.key, third.key]);

    // Swimlanes by assignee.
    await page.getByRole('button', { name: 'Swimlanes by assignee' }).click();
    await page.getByRole('heading', { level: 2, name: /Dev Dana/ }).waitFor();
    await page.getByRole('list', { name: 'In Progress, Dev Dana' }).locator(`[data-bug-card="${first.key}"]`).waitFor();
    await page.screenshot({ path: `${shots}/board-swimlanes-1280.png`, fullPage: true });
    await page.getByRole('button', { name: 'Swimlanes by assignee' }).click();
    await page.getByRole('list', { name: 'In Progress', exact: true }).waitFor();

    // axe at both widths; photographs; nothing scrolls the page sideways.
    await page.mouse.move(0, 0);
    expect(await seriousViolations(page, 'board-1280')).toEqual([]);
    expect(await noSideScroll(page)).toBe(true);
    await page.screenshot({ path: `${shots}/board-1280.png`, fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('heading', { level: 2, name: /^Pending/ }).waitFor();
    await page.screenshot({ path: `${shots}/board-390.png`, fullPage: true });
    expect(await seriousViolations(page, 'board-390')).toEqual([]);
    expect(await noSideScroll(page)).toBe(true);
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: `${shots}/board-390-dark.png`, fullPage: true });
    await page.setViewportSize({ width: 1280, height: 860 });
    expect(await seriousViolations(page, 'board-1280-dark')).toEqual([]);
    await page.screenshot({ path: `${shots}/board-1280-dark.png`, fullPage: true });
    await mover.context.close();
    await watcher.context.close();
  });

  it('puts a refused move back and says why', async () => {
    const [first] = bugs;
    if (!first) throw new Error('no bug');
    // Testers report; they do not change a bug's status (api.md "Who sees what").
    const { page, context } = await openPage(e2e, { user: tester });
    await page.goto('/projects/WEB/board');
    await card(page, first.key).waitFor();
    const before = await columnKeys(page, 'In Progress');
    expect(before).toContain(first.key);
    const refused = answered(page, first._id, 'state', 403);
    await drag(page, card(page, first.key), page.getByRole('list', { name: 'Closed', exact: true }).locator('..'));
    await refused;
    await toast({ page }, "You don't have permission to change the status of this bug");
    await expect.poll(() => columnKeys(page, 'In Progress')).toEqual(before);
    expect(await columnKeys(page, 'Closed')).not.toContain(first.key);
    const stored = await http(e2e.url).get(`/api/bugs/${first._id}`, tester.token);
    expect(stored.body.status).toBe('In Progress');
    await page.screenshot({ path: `${shots}/board-refused-1280.png` });

    // The lists filter by label too (by name or id; the chips show on the rows).
    await page.goto('/projects/WEB?label=frontend&view=table');
    await page.getByRole('cell', { name: first.key, exact: true }).waitFor();
    await page.getByRole('row').filter({ hasText: first.key }).getByText('frontend').waitFor();
    await page.locator('details[title="Label: frontend"]').waitFor();
    expect(await page.getByRole('cell', { name: bugs[1]?.key ?? '', exact: true }).count()).toBe(0);
    await context.close();
  });

  it('springs a blocked bug back from Resolved with the blockers named; an admin may close it anyway', async () => {
    const [first] = bugs;
    if (!first) throw new Error('no bug');
    const api = http(e2e.url);
    const blocker = await api.post(
      '/api/bugs',
      {
        title: 'Payment provider sandbox is down',
        description: 'Nothing can be paid for on staging.',
        priority: 'High',
        severity: 'Critical',
        assignedTo: [dev.id],
        projectId,
      },
      tester.token,
    );
    expect(blocker.status).toBe(201);
    const blockerKey: string = blocker.body.bug.key;
    const related = await api.post(
      `/api/bugs/${first._id}/relations`,
      { type: 'blocked_by', bugId: blocker.body.bug._id },
      admin.token,
    );
    expect(related.status).toBe(201);

    // The assigned developer: refused, the card goes back, the toast names the blocker.
    const developer = await openPage(e2e, { user: dev });
    await developer.page.goto('/projects/WEB/board');
    await card(developer.page, first.key).getByText('Blocked').waitFor();
    const before = await columnKeys(developer.page, 'In Progress');
    expect(before).toContain(first.key);
    const refused = answered(developer.page, first._id, 'state', 409);
    await drag(
      developer.page,
      card(developer.page, first.key),
      developer.page.getByRole('list', { name: 'Resolved', exact: true }).locator('..'),
    );
    await refused;
    await toast(developer, `Blocked by ${blockerKey}: close it first`);
    await expect.poll(() => columnKeys(developer.page, 'In Progress')).toEqual(before);
    expect(await columnKeys(developer.page, 'Resolved')).not.toContain(first.key);
    expect(await developer.page.getByRole('button', { name: 'Close anyway' }).count()).toBe(0);
    await developer.page.screenshot({ path: `${shots}/board-blocked-1280.png` });
    await developer.context.close();

    // An admin is offered "Close anyway", which sends the move again with override.
    const mover = await openPage(e2e, { user: admin });
    await mover.page.goto('/projects/WEB/board');
    await card(mover.page, first.key).waitFor();
    const again = answered(mover.page, first._id, 'state', 409);
    await drag(
      mover.page,
      card(mover.page, first.key),
      mover.page.getByRole('list', { name: 'Resolved', exact: true }).locator('..'),
    );
    await again;
    await toast(mover, `Blocked by ${blockerKey}: close it first`);
    await expect.poll(() => columnKeys(mover.page, 'Resolved')).not.toContain(first.key);
    const overridden = answered(mover.page, first._id, 'state');
    await mover.page.getByRole('button', { name: 'Close anyway' }).click();
    await overridden;
    await expect.poll(() => columnKeys(mover.page, 'Resolved')).toContain(first.key);
    expect((await api.get(`/api/bugs/${first._id}`, admin.token)).body.status).toBe('Closed');
    await mover.context.close();
  });
});
