import {
  countStoredEvents,
  expectRefused,
  http,
  registerAuditor,
  registerUser,
  type TestUser,
} from '@bugtrail/testing';
import { startTestSystem, type TestSystem } from '@bugtrail/testing/system';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Import (api.md "Integrations", docs/import.md) over real HTTP on a real PostgreSQL.
 * IMPORT_TIMEZONE is Europe/Berlin here: the CSVs' times without an offset are read there
 * (UTC+1 in winter), GitHub's carry their own.
 */
describe('POST /api/import', () => {
  let t: TestSystem;
  let api: ReturnType<typeof http>;
  let admin: TestUser;
  let tester: TestUser;
  let developer: TestUser;
  let auditor: TestUser;

  const send = (
    query: string,
    body: string | Uint8Array,
    token: string | null = admin.token,
    headers: Record<string, string> = {},
  ) =>
    fetch(`${t.url}/api/import?${query}`, {
      method: 'POST',
      headers: { 'content-type': 'text/csv', ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
      body,
    });
  const importFile = async (query: string, body: string | Uint8Array, token: string | null = admin.token) => {
    const response = await send(query, body, token);
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : null };
  };
  const byNumber = async (n: number) => (await api.get(`/api/bugs/by-number/${n}`, admin.token)).body;

  beforeAll(async () => {
    t = await startTestSystem({ config: { importTimeZone: 'Europe/Berlin' } });
    api = http(t.url);
    admin = await registerUser(t.url, 'admin', 'Ada Admin');
    tester = await registerUser(t.url, 'tester', 'Tess Tester');
    developer = await registerUser(t.url, 'developer', 'Dan Dev');
    auditor = await registerAuditor(t.url, admin.token, 'Audrey Auditor');
    // Two people of one name: a file naming it matches neither.
    await registerUser(t.url, 'developer', 'Sam Same');
    await registerUser(t.url, 'developer', 'Sam Same');
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('a Redmine CSV with a BOM, a quoted multi-line description and an invalid row', () => {
    const csv = () =>
      '\uFEFF#,Tracker,Status,Priority,Subject,Author,Assignee,Created,Updated,Closed,Description\r\n' +
      `30,Bug,Closed,Urgent,Export drops the last row,tess tester,Someone Else <${developer.email.toUpperCase()}>,` +
      '2021-02-03 11:00,2021-02-05 11:00,2021-02-05 11:00,"First line\r\nsecond line, with a comma and ""quotes"""\r\n' +
      '4,Bug,New,Low,Login is slow,Rita Reporter,Dan Dev,2021-01-10 10:00,,,\r\n' +
      '12,Bug,In Progress,Normal,,Rita Reporter,,2021-01-11 10:00,,,Missing its subject\r\n';
    let firstNumber = 0;

    it('previews on a dry run: the counts, each invalid row, what would be created; nothing appended', async () => {
      // A bug reported before: the import takes the numbers after its.
      const reported = await api.post(
        '/api/bugs',
        {
          title: 'Reported here first',
          description: 'A bug reported the usual way',
          priority: 'Low',
          severity: 'Minor',
          assignedTo: [developer.id],
        },
        tester.token,
      );
      expect(reported.status, JSON.stringify(reported.body)).toBe(201);
      firstNumber = reported.body.bug.number + 1;

      const before = await countStoredEvents(t.system.pool);
      const answer = await importFile('from=redmine&dryRun=true', csv());
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(answer.body).toMatchObject({
        imported: 2,
        skipped: 0,
        errors: [{ row: 4, message: 'Title is required' }],
      });
      expect(answer.body.preview).toEqual([
        {
          row: 2,
          sourceId: '30',
          title: 'Export drops the last row',
          status: 'Closed',
          priority: 'High',
          severity: 'Minor',
          module: null,
          reporter: 'Tess Tester',
          assignees: ['Dan Dev'],
          createdAt: '2021-02-03T10:00:00.000Z',
          statusChangedAt: '2021-02-05T10:00:00.000Z',
        },
        expect.objectContaining({ row: 3, sourceId: '4', reporter: 'Rita Reporter', assignees: ['Dan Dev'] }),
      ]);
      expect(await countStoredEvents(t.system.pool)).toBe(before);
    });

    it('imports nothing while the file has an invalid row, unless skipInvalid=true', async () => {
      const before = await countStoredEvents(t.system.pool);
      const blocked = await importFile('from=redmine', csv());
      expect(blocked.status).toBe(200);
      expect(blocked.body).toEqual({ imported: 0, skipped: 0, errors: [{ row: 4, message: 'Title is required' }] });
      expect(await countStoredEvents(t.system.pool)).toBe(before);

      const answer = await importFile('from=redmine&dryRun=false&skipInvalid=true', csv());
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(answer.body).toEqual({ imported: 2, skipped: 0, errors: [{ row: 4, message: 'Title is required' }] });
    });

    it("numbers the bugs in the source's id order, after the bugs already here", async () => {
      expect(await byNumber(firstNumber)).toMatchObject({ title: 'Login is slow', status: 'Open' });
      expect(await byNumber(firstNumber + 1)).toMatchObject({ title: 'Export drops the last row', status: 'Closed' });
    });

    it('keeps the description as written, its times, and the people matched by email, then name, else by name', async () => {
      const exported = await byNumber(firstNumber + 1);
      expect(exported).toMatchObject({
        description: 'First line\nsecond line, with a comma and "quotes"',
        priority: 'High',
        severity: 'Minor',
        createdAt: '2021-02-03T10:00:00.000Z',
        updatedAt: '2021-02-05T10:00:00.000Z',
        // "tess tester" by name; "Someone Else <DAN'S EMAIL>" by email, whatever the name says.
        createdBy: { _id: tester.id, name: 'Tess Tester' },
      });
      expect(exported.assignedTo.map((u: { _id: string }) => u._id)).toEqual([developer.id]);
      const slow = await byNumber(firstNumber);
      // Nobody here is Rita: she is recorded by name.
      expect(slow.createdBy).toMatchObject({ _id: 'imported:Rita Reporter', name: 'Rita Reporter' });
      expect(slow.assignedTo.map((u: { _id: string }) => u._id)).toEqual([developer.id]);
    });

    it('writes the original times and importedFrom into the history, and time travel sees the bug as it was', async () => {
      const exported = await byNumber(firstNumber + 1);
      const history = await api.get(`/api/bugs/${exported._id}/history`, admin.token);
      expect(history.status).toBe(200);
      expect(
        history.body.events.map((e: { type: string; at: string; metadata: { importedFrom: unknown } }) => [
          e.type,
          e.at,
          e.metadata.importedFrom,
        ]),
      ).toEqual([
        ['BugReported', '2021-02-03T10:00:00.000Z', { system: 'redmine', id: '30' }],
        ['DevelopersAssigned', '2021-02-03T10:00:00.000Z', { system: 'redmine', id: '30' }],
        ['BugStatusChanged', '2021-02-05T10:00:00.000Z', { system: 'redmine', id: '30' }],
      ]);
      expect(history.body.events[0].actor).toEqual({ _id: admin.id, name: 'Ada Admin' });
      expect(history.body.integrity.ok).toBe(true);

      const at = (when: string) => api.get(`/api/bugs/${exported._id}/history?at=${when}`, admin.token);
      expect((await at('2021-02-04T12:00:00Z')).body).toMatchObject({ status: 'Open' });
      expect((await at('2021-02-06T00:00:00Z')).body).toMatchObject({ status: 'Closed' });
      expect((await at('2021-02-01T00:00:00Z')).status).toBe(404);
    });

    it('counts the bugs in the dashboard as they were, and their cycle time in the flow metrics', async () => {
      const dashboard = (asOf: string) => api.get(`/api/bugs/admin-dashboard?asOf=${asOf}`, admin.token);
      expect((await dashboard('2021-02-04')).body.statistics).toMatchObject({
        totalBugs: 2,
        openBugs: 2,
        closedBugs: 0,
      });
      expect((await dashboard('2021-02-06')).body.statistics).toMatchObject({ totalBugs: 2, closedBugs: 1 });
      const metrics = await api.get('/api/metrics?from=2021-01-01&to=2021-12-31', admin.token);
      expect(metrics.status).toBe(200);
      // Reported 2021-02-03 10:00, closed 2021-02-05 10:00: two days.
      expect(metrics.body.cycleTime).toMatchObject({ count: 1, p50: 2 * 86_400 });
      expect(metrics.body.weekly).toEqual(
        expect.arrayContaining([expect.objectContaining({ week: '2021-W05', closed: 1 })]),
      );
    });

    it('tells nobody: an imported assignment is no notification', async () => {
      const notifications = await api.get('/api/notifications', developer.token);
      const imported = [await byNumber(firstNumber), await byNumber(firstNumber + 1)].map((b) => b._id);
      expect(notifications.body.notifications.filter((n: { bugId: string }) => imported.includes(n.bugId))).toEqual([]);
      // The bug reported the usual way did tell its assignee.
      expect(notifications.body.notifications.length).toBeGreaterThan(0);
    });

    it('imports nothing the second time: the bugs are there, counted as skipped', async () => {
      const before = await countStoredEvents(t.system.pool);
      const dry = await importFile('from=redmine&dryRun=true', csv());
      expect(dry.body).toMatchObject({ imported: 0, skipped: 2, preview: [] });
      const again = await importFile('from=redmine&skipInvalid=true', csv());
      expect(again.body).toEqual({ imported: 0, skipped: 2, errors: [{ row: 4, message: 'Title is required' }] });
      expect(await countStoredEvents(t.system.pool)).toBe(before);
    });
  });

  describe('a Jira CSV', () => {
    it('keeps issue keys, orders by issue id, maps statuses and reads its times in IMPORT_TIMEZONE', async () => {
      const csv = [
        'Summary,Issue key,Issue id,Status,Priority,Reporter,Reporter Email,Assignee,Created,Resolved,Component/s,Component/s,Description,Due date',
        `Second created,WEB-2,10007,Done,Highest,Someone,${tester.email},Sam Same,05/Jul/22 2:00 PM,06/Jul/22 9:30 AM,,UI,,`,
        'First created,WEB-10,10003,Selected for Development,Low,Dan Dev,,,04/Jul/22 1:00 PM,,API,,Body,01/Jan/22',
      ].join('\n');
      const answer = await importFile('from=jira', csv);
      expect(answer.body).toEqual({ imported: 2, skipped: 0, errors: [] });
      const list = await api.get('/api/bugs?limit=100', admin.token);
      const bugs = (list.body.bugs as { title: string; number: number }[]).filter((b) =>
        ['First created', 'Second created'].includes(b.title),
      );
      const first = bugs.find((b) => b.title === 'First created')!;
      const second = bugs.find((b) => b.title === 'Second created')!;
      // Issue id 10003 before 10007, whatever the keys and the file's order say.
      expect(second.number).toBe(first.number + 1);
      expect(await byNumber(second.number)).toMatchObject({
        status: 'Closed',
        priority: 'High',
        module: 'UI',
        // Summer in Berlin: UTC+2.
        createdAt: '2022-07-05T12:00:00.000Z',
        updatedAt: '2022-07-06T07:30:00.000Z',
        // By the email column, whatever the name; and two users called Sam Same: matched to neither.
        createdBy: { _id: tester.id },
        assignedTo: [expect.objectContaining({ _id: 'imported:Sam Same', name: 'Sam Same' })],
      });
      const firstBug = await byNumber(first.number);
      expect(firstBug).toMatchObject({
        status: 'Open',
        priority: 'Low',
        module: 'API',
        dueDate: '2022-01-01T00:00:00.000Z',
        createdBy: { _id: developer.id },
      });
      // Overdue when it came in: noticed quietly by the import, so the clock reminds nobody of it.
      const stream = await t.system.store.readStream(`bug-${firstBug._id}`);
      expect(stream.map((e) => e.type)).toEqual(['BugReported', 'BugOverdue']);
      expect(stream[1]!.metadata.importedFrom).toEqual({ system: 'jira', id: 'WEB-10' });
    });
  });

  describe("GitHub's issue JSON", () => {
    const issues = [
      {
        number: 8,
        title: 'Crash on save',
        body: '',
        state: 'CLOSED',
        labels: [{ name: 'bug' }, { name: 'priority: high' }, { name: 'severity/critical' }],
        createdAt: '2023-05-01T08:00:00Z',
        closedAt: '2023-05-03T17:45:00Z',
        author: { login: 'tess', name: 'Tess Tester', is_bot: false },
        assignees: [{ login: 'dan-dev', name: 'Dan Dev' }],
      },
      {
        number: 9,
        title: 'Dark mode',
        body: 'Please',
        state: 'OPEN',
        labels: [],
        createdAt: '2023-05-02T08:00:00Z',
        closedAt: null,
        author: { login: 'ghost-user', name: '' },
        assignees: [],
      },
      { number: 10, title: '', state: 'OPEN', createdAt: '2023-05-02T08:00:00Z' },
    ];

    it('streams its progress with Accept: application/x-ndjson, then the answer', async () => {
      const response = await send('from=github&skipInvalid=true', JSON.stringify(issues, null, 2), admin.token, {
        'content-type': 'application/json',
        accept: 'application/x-ndjson',
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toContain('application/x-ndjson');
      const lines = (await response.text())
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
      expect(lines[0]).toEqual({ progress: { done: 0, total: 2 } });
      expect(lines.at(-2)).toEqual({ progress: { done: 2, total: 2 } });
      expect(lines.at(-1)).toEqual({
        result: { imported: 2, skipped: 0, errors: [{ row: 3, message: 'Title is required' }] },
      });

      const list = await api.get('/api/bugs?limit=100', admin.token);
      const crash = (list.body.bugs as { title: string; _id: string }[]).find((b) => b.title === 'Crash on save')!;
      expect(crash).toMatchObject({
        status: 'Closed',
        priority: 'High',
        severity: 'Critical',
        description: 'Imported from GitHub #8, which had no description.',
        createdBy: { _id: tester.id },
        createdAt: '2023-05-01T08:00:00.000Z',
      });
      const dark = (list.body.bugs as { title: string; createdBy: unknown }[]).find((b) => b.title === 'Dark mode')!;
      expect(dark.createdBy).toMatchObject({ _id: 'imported:ghost-user', name: 'ghost-user' });
    });
  });

  describe('who may import', () => {
    const tiny = '#,Subject\n1,Only admins\n';

    it('refuses testers, developers and auditors (403) and the anonymous (401), appending nothing', async () => {
      for (const user of [tester, developer, auditor]) {
        const refused = await expectRefused(t.system.pool, 403, () => importFile('from=redmine', tiny, user.token));
        if (user !== auditor) expect(refused.body.message).toBe('Only admins can import bugs');
      }
      await expectRefused(t.system.pool, 401, () => importFile('from=redmine', tiny, null));
    });

    it('takes an admin’s write token, and refuses a read token', async () => {
      const token = async (scope: string) =>
        (await api.post('/api/tokens', { name: `import ${scope}`, scope }, admin.token)).body.secret as string;
      await expectRefused(t.system.pool, 403, async () => importFile('from=redmine', tiny, await token('read')));
      const answer = await importFile('from=redmine&dryRun=true', tiny, await token('write'));
      expect(answer.body).toMatchObject({ imported: 1, skipped: 0, errors: [] });
    });
  });

  describe("a client's mistakes are 400s, never 500s", () => {
    const refused = async (query: string, body: string | Uint8Array, message: string | RegExp) => {
      const answer = await expectRefused(t.system.pool, 400, () => importFile(query, body));
      expect(answer.body.message).toMatch(message);
    };

    it('an unknown system or flag', async () => {
      await refused('from=gitlab', '#,Subject\n1,x\n', 'from must be one of redmine, jira, github');
      await refused('dryRun=true', '#,Subject\n1,x\n', 'from must be one of redmine, jira, github');
      await refused('from=redmine&dryRun=yes', '#,Subject\n1,x\n', 'dryRun must be true or false');
    });

    it('an empty file, or one that is not the export it says', async () => {
      await refused('from=redmine', '', 'The file is empty');
      await refused('from=jira', '\uFEFF\r\n', 'The file is empty');
      await refused('from=github', '   ', 'The file is empty');
      await refused('from=redmine', 'Summary,Issue key\nx,A-1\n', /not a Redmine CSV export: it has no "Subject"/);
      await refused('from=jira', new Uint8Array([0, 159, 146, 150, 255, 1, 2]), /not a Jira CSV export/);
      await refused('from=github', '{"number":1}', /not GitHub's issue JSON/);
      await refused('from=github', '[{"number":1,"title":"x"},', /not GitHub's issue JSON \(it ends too soon/);
      await refused('from=github', '[{"number":1} oops]', /not GitHub's issue JSON/);
      await refused('from=redmine', '#,Subject\n1,"never closed\n', /a quote opened in row 2 is never closed/);
    });

    it('reads a file that is not UTF-8 as Windows-1252', async () => {
      const latin = Buffer.from('#,Subject,Created\n77,Caf\xe9 cr\xe8me \x80 price,2024-01-01\n', 'latin1');
      const answer = await importFile('from=redmine&dryRun=true', latin);
      expect(answer.body.preview[0].title).toBe('Café crème € price');
    });
  });
});
