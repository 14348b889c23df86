import { randomUUID } from 'node:crypto';
import { registerUser, type TestUser } from '@bugtrail/testing';
import { appendAndSettle, startTestSystem, type TestSystem } from '@bugtrail/testing/system';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { event, reportBug } from '../../../cli/src/demo/bug-events.js';
import { neutralise } from './xlsx.js';

async function download(t: TestSystem, path: string, token: string) {
  const response = await fetch(t.url + path, { headers: { authorization: `Bearer ${token}` } });
  return { response, body: Buffer.from(await response.arrayBuffer()) };
}

async function sheetRows(body: Buffer): Promise<unknown[][]> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(body as unknown as ArrayBuffer);
  const sheet = workbook.worksheets[0]!;
  const rows: unknown[][] = [];
  sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return rows;
}

describe('exports (xlsx)', () => {
  let t: TestSystem;
  let admin: TestUser;
  let tester: TestUser;
  let dev: TestUser;
  const bugId = randomUUID();
  const deletedId = randomUUID();
  const closedId = randomUUID();

  beforeAll(async () => {
    t = await startTestSystem();
    admin = await registerUser(t.url, 'admin', 'Ada Admin');
    tester = await registerUser(t.url, 'tester', '=Tess HYPERLINK');
    dev = await registerUser(t.url, 'developer', 'Dev Uno');
    await appendAndSettle(
      t,
      `bug-${bugId}`,
      reportBug(
        {
          bugId,
          number: 42,
          reporterId: tester.id,
          title: '=cmd|calc!A1 looks harmless',
          description: '-2+3 is shown as a formula\nsecond line',
          priority: 'High',
          severity: 'Critical',
          dueDate: '2031-01-02T00:00:00.000Z',
          assigneeIds: [dev.id],
          module: 'Checkout',
        },
        { at: '2030-05-06T07:08:09.000Z' },
      ),
    );
    await appendAndSettle(t, `bug-${closedId}`, [
      ...reportBug(
        {
          bugId: closedId,
          number: 43,
          reporterId: tester.id,
          title: 'Fixed one',
          description: 'Closed',
          assigneeIds: [],
        },
        { at: '2030-05-07T09:00:00.000Z' },
      ),
      event(
        'BugStatusChanged',
        { bugId: closedId, from: 'Open', to: 'Closed' },
        { actorId: admin.id, at: '2030-05-07T10:00:00.000Z' },
      ),
    ]);
    await appendAndSettle(t, `bug-${deletedId}`, [
      ...reportBug(
        { bugId: deletedId, reporterId: tester.id, title: 'Gone', description: 'A deleted bug', assigneeIds: [dev.id] },
        { at: '2030-05-06T08:00:00.000Z' },
      ),
      event('BugDeleted', { bugId: deletedId }, { actorId: admin.id, at: '2030-05-06T09:00:00.000Z' }),
    ]);
  });

  afterAll(async () => {
    await t?.close();
  });

  it('neutralises cells that a spreadsheet would read as formulas', () => {
    for (const s of ['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\rx']) expect(neutralise(s)).toBe(`'${s}`);
    for (const s of ['plain', ' =x', '1-2']) expect(neutralise(s)).toBe(s);
    expect(neutralise(5)).toBe(5);
  });

  it('exports bugs: columns, values, neutralised cells, attachment name, no deleted bugs', async () => {
    const { response, body } = await download(t, '/api/reports/export/bugs', admin.token);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="bug_details.xlsx"');
    const rows = await sheetRows(body);
    // The number first (a project key column goes after it later), then what people read; the id last.
    expect(rows[0]).toEqual([
      'Number',
      'Title',
      'Status',
      'Priority',
      'Severity',
      'Module',
      'Reporter',
      'Assignees',
      'Created',
      'Due',
      'Closed',
      'Description',
      'ID',
      'Labels',
    ]);
    const closedRow = rows.find((r) => r[12] === closedId)!;
    const row = rows.find((r) => r[12] === bugId)!;
    expect(rows).toHaveLength(3);
    const [number, title, status, priority, severity, module, reporter, assignees, created, due, closed, description] =
      row;
    expect({ number, title, status, priority, severity, module, reporter, assignees, closed, description }).toEqual({
      number: 42,
      title: "'=cmd|calc!A1 looks harmless",
      status: 'Pending',
      priority: 'High',
      severity: 'Critical',
      module: 'Checkout',
      reporter: "'=Tess HYPERLINK",
      assignees: 'Dev Uno',
      closed: undefined,
      description: "'-2+3 is shown as a formula\nsecond line",
    });
    expect((created as Date).toISOString()).toBe('2030-05-06T07:08:09.000Z');
    expect((due as Date).toISOString()).toBe('2031-01-02T00:00:00.000Z');
    expect(closedRow[2]).toBe('Resolved');
    expect((closedRow[10] as Date).toISOString()).toBe('2030-05-07T10:00:00.000Z');
  });

  it("exports what the list shows: the list's filters, search and order", async () => {
    const list = async (query: string) => {
      const response = await fetch(`${t.url}/api/bugs?${query}`, {
        headers: { authorization: `Bearer ${admin.token}` },
      });
      return ((await response.json()) as { bugs: { _id: string }[] }).bugs.map((b) => b._id);
    };
    const exported = async (query: string) => {
      const { response, body } = await download(t, `/api/reports/export/bugs?${query}`, admin.token);
      expect(response.status).toBe(200);
      return (await sheetRows(body)).slice(1).map((r) => r[12]);
    };
    for (const query of [
      'status=Resolved',
      'priority=High',
      'q=harmless',
      'module=checkout',
      'sort=number',
      'sort=-number',
      // Issue 35: a project by key, any case (the bugs here are from before projects: General's).
      'project=bug',
      'project=NOPE',
      '',
    ]) {
      const shown = await list(query);
      expect(await exported(query), query).toEqual(shown);
    }
    expect(await exported('status=Closed')).toEqual([closedId]);
    expect((await exported('project=bug')).length).toBeGreaterThan(1);
    expect(await exported('project=NOPE')).toEqual([]);
    expect(await exported('status=Open&priority=High')).toEqual([bugId]);
    // A bad filter is the list's 400, not a file.
    const bad = await fetch(`${t.url}/api/reports/export/bugs?priority=Urgent`, {
      headers: { authorization: `Bearer ${admin.token}` },
    });
    expect(bad.status).toBe(400);
  });

  it('exports users with their counts', async () => {
    const { response, body } = await download(t, '/api/reports/export/users', admin.token);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="user_details.xlsx"');
    const rows = await sheetRows(body);
    expect(rows[0]).toEqual(['Name', 'Email', 'Role', 'Reported', 'Assigned', 'Open', 'In Progress', 'Resolved']);
    const byEmail = new Map(rows.slice(1).map((r) => [r[1], r]));
    expect(byEmail.get(tester.email)).toEqual(["'=Tess HYPERLINK", tester.email, 'tester', 2, 0, 0, 0, 0]);
    expect(byEmail.get(dev.email)).toEqual(['Dev Uno', dev.email, 'developer', 0, 1, 1, 0, 0]);
    expect(rows).toHaveLength(4);
  });

  it('is for admins only', async () => {
    for (const user of [tester, dev]) {
      for (const what of ['bugs', 'users']) {
        const { response } = await download(t, `/api/reports/export/${what}`, user.token);
        expect(response.status).toBe(403);
      }
    }
    expect((await fetch(`${t.url}/api/reports/export/bugs`)).status).toBe(401);
  });

  it('streams many rows page by page', async () => {
    const many = 1500; // pages of 1000: the export crosses a page boundary
    const events = [];
    for (let i = 0; i < many; i++) {
      const id = randomUUID();
      events.push({
        id,
        events: reportBug(
          {
            bugId: id,
            reporterId: tester.id,
            title: `Bulk bug ${i}`,
            description: 'Bulk description',
            assigneeIds: [],
          },
          { at: new Date(Date.UTC(2029, 0, 1) + i * 1000).toISOString() },
        ),
      });
    }
    const positions: string[] = [];
    for (let i = 0; i < events.length; i += 16) {
      const chunk = events.slice(i, i + 16);
      const results = await Promise.all(chunk.map((e) => t.system.store.append(`bug-${e.id}`, e.events, 'no_stream')));
      positions.push(...results.map((r) => r.position));
    }
    expect(await t.system.changeFeed.waitFor(positions.sort().at(-1)!, 30_000)).toBe(true);
    const { body } = await download(t, '/api/reports/export/bugs', admin.token);
    const rows = await sheetRows(body);
    expect(rows).toHaveLength(many + 3);
    // The list's order, newest first: the two 2030 bugs, then the bulk bugs (2029, one a second) backwards.
    expect(rows.slice(1, 3).map((r) => r[12])).toEqual([closedId, bugId]);
    expect(rows.slice(3).map((r) => r[1])).toEqual(events.map((_, i) => `Bulk bug ${i}`).reverse());
    expect(new Set(rows.slice(1).map((r) => r[12])).size).toBe(many + 2);
  });
});
