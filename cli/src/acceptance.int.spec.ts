import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { http, TEST_INVITE_CODE } from '@bugtrail/testing';
import { startTestSystem, type TestSystem } from '@bugtrail/testing/system';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Acceptance, from the documents only (spec.md §3–§8, design/api.md, issue 3's "Done
 * when"): real HTTP against the whole system, as a client written against the spec
 * would call it. Shapes are checked field by field, "to the letter".
 */

const webDir = fileURLToPath(new URL('../../web/dist', import.meta.url));
const hasWebBuild = existsSync(`${webDir}/index.html`);

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const PASSWORD = 'correct horse battery';
const SUMMARY_KEYS = [
  'all',
  'open',
  'inProgress',
  'closed',
  'openBugs',
  'pendingBugs',
  'inProgressBugs',
  'closedBugs',
  'resolvedBugs',
];

type Account = { id: string; token: string; name: string; email: string };

let unique = 0;
const emailFor = (who: string) => `${who}.${Date.now().toString(36)}.${++unique}@example.com`;
const tomorrow = () => new Date(Date.now() + 24 * 3600_000).toISOString();

/** Checks a user as api.md shows them: `_id`, name, both image spellings with the same value. */
function expectUser(user: any) {
  expect(user).toEqual(
    expect.objectContaining({
      _id: expect.any(String),
      name: expect.any(String),
      profileImageURL: user.profileImageURL,
    }),
  );
  expect(user).toHaveProperty('profileImageURL');
  expect(user).toHaveProperty('profileImageUrl');
  expect(user.profileImageUrl).toBe(user.profileImageURL);
}

/** A bug as api.md shows it, in lists and details alike. */
function expectBug(bug: any) {
  expect(bug).toEqual(
    expect.objectContaining({
      _id: expect.any(String),
      title: expect.any(String),
      description: expect.any(String),
      priority: expect.stringMatching(/^(Low|Medium|High)$/),
      severity: expect.stringMatching(/^(Minor|Major|Critical)$/),
      status: expect.stringMatching(/^(Open|In Progress|Closed)$/),
      createdAt: expect.any(String),
      createdBy: { _id: expect.any(String), name: expect.any(String) },
      assignedTo: expect.any(Array),
      checklist: expect.any(Array),
      attachments: expect.any(Array),
      version: expect.any(Number),
    }),
  );
  expect(bug).toHaveProperty('module');
  expect(bug).toHaveProperty('dueDate');
  for (const user of bug.assignedTo) expectUser(user);
  for (const item of bug.checklist) {
    expect(item).toEqual({
      _id: expect.any(String),
      text: expect.any(String),
      completed: expect.any(Boolean),
      completedBy: item.completedBy === null ? null : { _id: expect.any(String), name: expect.any(String) },
      completedAt: item.completedAt === null ? null : expect.any(String),
    });
  }
  for (const link of bug.attachments) expect(typeof link).toBe('string');
}

function expectSummary(summary: any) {
  expect(Object.keys(summary).sort()).toEqual(expect.arrayContaining([...SUMMARY_KEYS].sort()));
  for (const key of SUMMARY_KEYS) expect(typeof summary[key]).toBe('number');
  expect(summary.openBugs).toBe(summary.open);
  expect(summary.pendingBugs).toBe(summary.open);
  expect(summary.inProgressBugs).toBe(summary.inProgress);
  expect(summary.closedBugs).toBe(summary.closed);
  expect(summary.resolvedBugs).toBe(summary.closed);
  expect(summary.all).toBe(summary.open + summary.inProgress + summary.closed);
}

function expectDashboard(body: any) {
  for (const key of ['totalBugs', 'openBugs', 'inProgressBugs', 'closedBugs']) {
    expect(typeof body.statistics[key]).toBe('number');
  }
  const d = body.charts.bugDistribution;
  for (const key of ['Open', 'InProgress', 'In Progress', 'Closed', 'All']) expect(typeof d[key]).toBe('number');
  expect(d.InProgress).toBe(d['In Progress']);
  expect(d.All).toBe(body.statistics.totalBugs);
  for (const chart of ['bugSeverityLevels', 'bugPriorityLevels']) {
    expect(Object.keys(body.charts[chart]).sort()).toEqual(['High', 'Low', 'Medium']);
  }
  expect(Array.isArray(body.recentBugs)).toBe(true);
  expect(body.recentBugs.length).toBeLessThanOrEqual(10);
  for (const bug of body.recentBugs) expectBug(bug);
}

/** An error answer: `{ message, details?: [{field, message}] }`, JSON, nothing else. */
function expectError(answer: { status: number; body: any; headers: Headers }, status: number, message?: string) {
  expect(answer.status).toBe(status);
  expect(answer.headers.get('content-type')).toMatch(/application\/json/);
  expect(typeof answer.body.message).toBe('string');
  if (message !== undefined) expect(answer.body.message).toBe(message);
  for (const key of Object.keys(answer.body)) expect(['message', 'details']).toContain(key);
  if (answer.body.details !== undefined) {
    for (const d of answer.body.details) expect(d).toEqual({ field: expect.any(String), message: expect.any(String) });
  }
}

const detailMessages = (body: any): string[] => (body.details ?? []).map((d: { message: string }) => d.message);

describe('acceptance: the HTTP surface against spec.md and api.md', () => {
  let t: TestSystem;
  let api: ReturnType<typeof http>;
  let admin: Account;
  let tester: Account;
  let developer: Account;
  let bugId = '';
  let bugVersion = 0;
  let lastPosition = '';

  const register = async (role: string | undefined, extra: Record<string, unknown> = {}) => {
    const name = `${role ?? 'default'} person`;
    const email = emailFor(role ?? 'default');
    const answer = await api.post('/api/auth/register', {
      name,
      email,
      password: PASSWORD,
      profileImageURL: '',
      ...(role ? { role } : {}),
      ...extra,
    });
    return { answer, name, email };
  };

  beforeAll(async () => {
    t = await startTestSystem(hasWebBuild ? { webDir } : {});
    api = http(t.url);
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('auth and users', () => {
    it('registers admin (invite code), tester (role defaulted) and developer with the api.md shape', async () => {
      const a = await register('admin', { adminInviteToken: TEST_INVITE_CODE });
      expect(a.answer.status).toBe(201);
      expect(a.answer.headers.get('x-event-position')).toBeTruthy();
      const body = a.answer.body;
      expect(body).toEqual(
        expect.objectContaining({
          token: expect.any(String),
          role: 'admin',
          _id: expect.any(String),
          name: a.name,
          email: a.email,
        }),
      );
      expect(body).toHaveProperty('profileImageURL');
      expect(body.user).toEqual(
        expect.objectContaining({ _id: body._id, name: a.name, email: a.email, role: 'admin' }),
      );
      expectUser(body.user);
      expectUser(body);
      admin = { id: body._id, token: body.token, name: a.name, email: a.email };

      const te = await register(undefined);
      expect(te.answer.status).toBe(201);
      expect(te.answer.body.role).toBe('tester');
      expect(te.answer.body.user.role).toBe('tester');
      tester = { id: te.answer.body._id, token: te.answer.body.token, name: te.name, email: te.email };

      const d = await register('developer');
      expect(d.answer.status).toBe(201);
      expect(d.answer.body.role).toBe('developer');
      developer = { id: d.answer.body._id, token: d.answer.body.token, name: d.name, email: d.email };
    });

    it('accepts the invite code as a number too (JSON clients may send 6 digits unquoted)', async () => {
      const a = await register('admin', { adminInviteToken: Number(TEST_INVITE_CODE) });
      expect(a.answer.status).toBe(201);
      expect(a.answer.body.role).toBe('admin');
    });

    it('refuses signups with the spec and api.md messages', async () => {
      const wrong = await register('admin', { adminInviteToken: '000000' });
      expectError(wrong.answer, 403, 'Invalid admin invite token');

      const blank = await register('admin', { adminInviteToken: '  ' });
      expectError(blank.answer, 400, 'Admin invite token is required for admin registration');
      expect(detailMessages(blank.answer.body)).toContain('Admin invite token is required for admin registration');
      const missing = await register('admin');
      expectError(missing.answer, 400, 'Admin invite token is required for admin registration');

      const dup = await api.post('/api/auth/register', {
        name: 'Someone',
        email: tester.email,
        password: PASSWORD,
        role: 'tester',
      });
      expectError(dup, 400, 'User already exists');

      const short = await register('tester', { password: 'short' });
      expectError(short.answer, 400, 'Password must be at least 8 characters long');

      const empty = await api.post('/api/auth/register', {});
      expectError(empty, 400);
      expect(detailMessages(empty.body)).toEqual(
        expect.arrayContaining([
          'Please enter full name',
          'Please enter a valid email address',
          'Please enter the password',
        ]),
      );
    });

    it('invite codes minted by an admin are 6 digits and single use; other roles cannot mint', async () => {
      expectError(await api.post('/api/auth/invite-codes', {}, tester.token), 403);
      expectError(await api.post('/api/auth/invite-codes', {}), 401);
      const minted = await api.post('/api/auth/invite-codes', {}, admin.token);
      expect(minted.status).toBe(201);
      expect(minted.body.code).toMatch(/^\d{6}$/);

      // A signup refused for another reason does not use the code up.
      const dup = await api.post('/api/auth/register', {
        name: 'Dup Admin',
        email: tester.email,
        password: PASSWORD,
        role: 'admin',
        adminInviteToken: minted.body.code,
      });
      expectError(dup, 400, 'User already exists');

      const first = await register('admin', { adminInviteToken: minted.body.code });
      expect(first.answer.status).toBe(201);
      const again = await register('admin', { adminInviteToken: minted.body.code });
      expectError(again.answer, 403, 'Invalid admin invite token');
      // The configured code stays valid.
      expect((await register('admin', { adminInviteToken: TEST_INVITE_CODE })).answer.status).toBe(201);
    });

    it('logs in with the register shape; a wrong email or password is the same 401', async () => {
      const ok = await api.post('/api/auth/login', { email: tester.email, password: PASSWORD });
      expect(ok.status).toBe(200);
      expect(ok.body).toEqual(
        expect.objectContaining({
          token: expect.any(String),
          role: 'tester',
          _id: tester.id,
          name: tester.name,
          email: tester.email,
        }),
      );
      expect(ok.body).toHaveProperty('profileImageURL');
      expectUser(ok.body.user);
      expectError(
        await api.post('/api/auth/login', { email: tester.email, password: 'wrong password' }),
        401,
        'Invalid email or password',
      );
      expectError(
        await api.post('/api/auth/login', { email: 'nobody@example.com', password: 'wrong password' }),
        401,
        'Invalid email or password',
      );
    });

    it('GET /api/auth/profile answers {user}; no token or a bad token is 401', async () => {
      const profile = await api.get('/api/auth/profile', developer.token);
      expect(profile.status).toBe(200);
      expect(Object.keys(profile.body)).toEqual(['user']);
      expect(profile.body.user).toEqual(
        expect.objectContaining({ _id: developer.id, name: developer.name, role: 'developer' }),
      );
      expectUser(profile.body.user);
      expectError(await api.get('/api/auth/profile'), 401);
      expectError(await api.get('/api/auth/profile', 'not-a-jwt'), 401);
    });

    it('POST /api/auth/logout revokes the token; a new login works', async () => {
      const login = await api.post('/api/auth/login', { email: developer.email, password: PASSWORD });
      const token = login.body.token;
      expect((await api.get('/api/auth/profile', token)).status).toBe(200);
      const out = await api.post('/api/auth/logout', undefined, token);
      expect(out.status).toBe(200);
      expectError(await api.get('/api/auth/profile', token), 401);
      const again = await api.post('/api/auth/login', { email: developer.email, password: PASSWORD });
      expect(again.status).toBe(200);
      expect((await api.get('/api/auth/profile', again.body.token)).status).toBe(200);
      developer.token = again.body.token;
    });

    it('POST /api/auth/upload-image (anonymous, multipart `image`) answers an absolute imageURL under /uploads/', async () => {
      const png = Buffer.from(
        'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
        'base64',
      );
      const form = new FormData();
      form.append('image', new Blob([png], { type: 'image/png' }), 'me.png');
      const response = await fetch(`${t.url}/api/auth/upload-image`, { method: 'POST', body: form });
      expect(response.status).toBeLessThan(300);
      const body = (await response.json()) as { imageURL: string };
      expect(body.imageURL).toMatch(/^https?:\/\/[^/]+\/uploads\//);
      const image = await fetch(body.imageURL);
      expect(image.status).toBe(200);
      expect(image.headers.get('content-type')).toBe('image/png');
      expect(image.headers.get('x-content-type-options')).toBe('nosniff');

      const text = new FormData();
      text.append('image', new Blob(['not an image at all'], { type: 'image/png' }), 'fake.png');
      const refused = await fetch(`${t.url}/api/auth/upload-image`, { method: 'POST', body: text });
      expect(refused.status).toBeGreaterThanOrEqual(400);
      expect(refused.status).toBeLessThan(500);
      expect(await refused.json()).toEqual({ message: expect.any(String) });
      expectError(await api.post('/api/auth/upload-image', { image: 'x' }), 415);

      // The image goes on the profile (PUT /api/users/{id}); both spellings answer it.
      const updated = await api.put(`/api/users/${tester.id}`, { profileImageURL: body.imageURL }, tester.token);
      expect(updated.status).toBe(200);
      const profile = await api.get('/api/auth/profile', tester.token);
      expect(profile.body.user.profileImageURL).toBe(body.imageURL);
      expect(profile.body.user.profileImageUrl).toBe(body.imageURL);
      expectError(await api.put(`/api/users/${tester.id}`, { role: 'admin' }, tester.token), 400);
      expectError(await api.put(`/api/users/${developer.id}`, { name: 'Not yours' }, tester.token), 403);
      expectError(await api.put('/api/users/no-such-user', { name: 'Nobody at all' }, tester.token), 404);
    });

    it('GET /api/users: the admin team list with counters, a directory for others', async () => {
      const team = await api.get('/api/users', admin.token);
      expect(team.status).toBe(200);
      expect(Array.isArray(team.body)).toBe(true);
      const roles = new Set(team.body.map((u: any) => u.role));
      expect(roles).toEqual(new Set(['admin', 'tester', 'developer']));
      for (const user of team.body) {
        expectUser(user);
        for (const key of ['pendingTasks', 'inProgressTasks', 'completedTasks', 'createdBugs', 'assignedBugs']) {
          expect(typeof user[key]).toBe('number');
        }
      }
      for (const who of [tester, developer]) {
        const directory = await api.get('/api/users', who.token);
        expect(directory.status).toBe(200);
        expect(Array.isArray(directory.body)).toBe(true);
        const me = directory.body.find((u: any) => u._id === admin.id);
        expect(me).toEqual(expect.objectContaining({ _id: admin.id, name: admin.name, role: 'admin' }));
        expectUser(me);
      }
    });

    it('GET /api/users/developers is a bare array (admin, tester); GET /api/users/{id} the user', async () => {
      for (const who of [admin, tester]) {
        const devs = await api.get('/api/users/developers', who.token);
        expect(devs.status).toBe(200);
        expect(Array.isArray(devs.body)).toBe(true);
        const dev = devs.body.find((u: any) => u._id === developer.id);
        expect(dev).toEqual(
          expect.objectContaining({ _id: developer.id, name: developer.name, email: developer.email }),
        );
        expectUser(dev);
        expect(devs.body.every((u: any) => u._id !== tester.id && u._id !== admin.id)).toBe(true);
      }
      const one = await api.get(`/api/users/${developer.id}`, admin.token);
      expect(one.status).toBe(200);
      expect(one.body).toEqual(expect.objectContaining({ _id: developer.id, name: developer.name, role: 'developer' }));
      expectUser(one.body);
      expectError(await api.get('/api/users/no-such-user', admin.token), 404);
    });
  });

  describe('the bug lifecycle (issue 3, "Done when")', () => {
    it('the tester reports a bug assigned to the developer: 201 {message, bug}', async () => {
      const payload = {
        title: 'Login button does nothing',
        description: 'Clicking Login on the login page has no effect at all.',
        priority: 'High',
        severity: 'Critical',
        status: 'Closed',
        module: 'auth',
        dueDate: tomorrow(),
        createdBy: admin.id,
        assignedTo: [developer.id],
        checklist: [
          { text: 'Open /login', completed: false, completedBy: null, completedAt: null },
          { text: 'Click Login', completed: false, completedBy: null, completedAt: null },
        ],
        attachments: ['https://example.com/screenshot.png'],
      };
      const key = `accept-${Date.now()}`;
      const created = await api.post('/api/bugs', payload, tester.token, { 'Idempotency-Key': key });
      expect(created.status).toBe(201);
      expect(created.headers.get('x-event-position')).toBeTruthy();
      lastPosition = created.headers.get('x-event-position')!;
      expect(created.body).toEqual({ message: expect.any(String), bug: expect.any(Object) });
      const bug = created.body.bug;
      expectBug(bug);
      expect(bug).toMatchObject({
        title: payload.title,
        priority: 'High',
        severity: 'Critical',
        status: 'Open',
        module: 'auth',
        createdBy: { _id: tester.id, name: tester.name },
        attachments: payload.attachments,
      });
      expect(bug.assignedTo.map((u: any) => u._id)).toEqual([developer.id]);
      expect(bug.assignedTo[0].name).toBe(developer.name);
      expect(bug.checklist.map((i: any) => [i.text, i.completed, i.completedBy])).toEqual([
        ['Open /login', false, null],
        ['Click Login', false, null],
      ]);
      bugId = bug._id;
      bugVersion = bug.version;

      // The same request again (a client retry) names the same bug and adds nothing.
      const retried = await api.post('/api/bugs', payload, tester.token, { 'Idempotency-Key': key });
      expect(retried.status).toBe(201);
      expect(retried.body.bug._id).toBe(bugId);
      const mine = await api.get('/api/bugs', tester.token);
      expect(mine.body.bugs.filter((b: any) => b.title === payload.title)).toHaveLength(1);
    });

    it('bug validation answers 400 with the spec messages in details', async () => {
      const empty = await api.post('/api/bugs', {}, tester.token);
      expectError(empty, 400);
      expect(detailMessages(empty.body)).toEqual(
        expect.arrayContaining([
          'Title is required',
          'Description is required',
          'At least one developer must be assigned',
        ]),
      );
      const bad = await api.post(
        '/api/bugs',
        {
          title: 'Shrt',
          description: 'too short',
          assignedTo: [developer.id],
          dueDate: '2001-01-01T00:00:00.000Z',
          module: 'm'.repeat(51),
        },
        tester.token,
      );
      expectError(bad, 400);
      expect(detailMessages(bad.body)).toEqual(
        expect.arrayContaining([
          'Title must be at least 5 characters long',
          'Description must be at least 10 characters long',
          'Due date must be in the future',
          'Module name cannot exceed 50 characters',
        ]),
      );
      const long = await api.post(
        '/api/bugs',
        { title: 't'.repeat(101), description: 'A long enough description', assignedTo: [developer.id] },
        tester.token,
      );
      expect(detailMessages(long.body)).toContain('Title cannot exceed 100 characters');
      // Today's date (the picker's minimum) is accepted.
      const today = new Date().toISOString().slice(0, 10);
      const onToday = await api.post(
        '/api/bugs',
        { title: 'Due today bug', description: 'This one is due today.', assignedTo: [developer.id], dueDate: today },
        tester.token,
      );
      expect(onToday.status).toBe(201);
      expect((await api.delete(`/api/bugs/${onToday.body.bug._id}`, tester.token)).status).toBe(200);
      // A developer cannot report.
      expectError(
        await api.post('/api/bugs', { title: 'Dev bug', description: 'Developers do not report' }, developer.token),
        403,
      );
    });

    it('the developer sees it: GET /api/bugs, /assigned, /all-viewable, detail', async () => {
      const list = await api.get('/api/bugs', developer.token, { 'X-Min-Position': lastPosition });
      expect(list.status).toBe(200);
      expect(Object.keys(list.body).sort()).toEqual(['bugs', 'statusSummary']);
      expect(list.body.bugs.map((b: any) => b._id)).toContain(bugId);
      for (const b of list.body.bugs) expectBug(b);
      expectSummary(list.body.statusSummary);
      expect(list.body.statusSummary.open).toBe(1);

      const assigned = await api.get('/api/bugs/assigned', developer.token);
      expect(assigned.status).toBe(200);
      expect(Array.isArray(assigned.body)).toBe(true);
      expect(assigned.body.map((b: any) => b._id)).toEqual([bugId]);
      expectBug(assigned.body[0]);

      const viewable = await api.get('/api/bugs/all-viewable', developer.token);
      expect(viewable.status).toBe(200);
      expect(viewable.body.bugs.map((b: any) => b._id)).toEqual([bugId]);
      expectSummary(viewable.body.statusSummary);

      const detail = await api.get(`/api/bugs/${bugId}`, developer.token);
      expect(detail.status).toBe(200);
      expectBug(detail.body);
      expect(detail.body._id).toBe(bugId);
      expect(detail.body.version).toBe(bugVersion);
    });

    it('admin dashboard before the change: one open bug', async () => {
      const dash = await api.get('/api/bugs/admin-dashboard', admin.token);
      expect(dash.status).toBe(200);
      expectDashboard(dash.body);
      expect(dash.body.statistics).toMatchObject({ totalBugs: 1, openBugs: 1, inProgressBugs: 0, closedBugs: 0 });
      expect(dash.body.charts.bugDistribution).toEqual({ Open: 1, InProgress: 0, 'In Progress': 0, Closed: 0, All: 1 });
      expect(dash.body.charts.bugSeverityLevels).toEqual({ High: 1, Medium: 0, Low: 0 });
      expect(dash.body.charts.bugPriorityLevels).toEqual({ High: 1, Medium: 0, Low: 0 });
    });

    it('the developer moves it through the aliases and ends In Progress', async () => {
      const resolved = await api.put(`/api/bugs/${bugId}/status`, { status: 'Resolved' }, developer.token);
      expect(resolved.status).toBe(200);
      expect(resolved.body.message).toEqual(expect.any(String));
      expect(resolved.body.bug.status).toBe('Closed');
      expect(resolved.headers.get('x-event-position')).toBeTruthy();
      const pending = await api.put(`/api/bugs/${bugId}/status`, { status: 'pending' }, developer.token);
      expect(pending.body.bug.status).toBe('Open');
      const inProgress = await api.put(`/api/bugs/${bugId}/status`, { status: 'In Progress' }, developer.token);
      expect(inProgress.status).toBe(200);
      expect(inProgress.body.bug.status).toBe('In Progress');
      expectBug(inProgress.body.bug);

      expectError(await api.put(`/api/bugs/${bugId}/status`, { status: 'Done' }, developer.token), 400);
      expectError(await api.put(`/api/bugs/${bugId}/status`, { status: 'Closed' }, tester.token), 403);
      expectError(await api.put('/api/bugs/no-such-bug/status', { status: 'Closed' }, admin.token), 404);
    });

    it('the developer ticks a checklist item; the server records who and when', async () => {
      const current = (await api.get(`/api/bugs/${bugId}`, developer.token)).body;
      const checklist = current.checklist.map((item: any, i: number) => ({
        _id: item._id,
        text: item.text,
        completed: i === 0,
        completedBy: i === 0 ? developer.id : null,
        completedAt: i === 0 ? new Date().toISOString() : null,
      }));
      const ticked = await api.put(`/api/bugs/${bugId}/checklist`, { checklist }, developer.token);
      expect(ticked.status).toBe(200);
      expect(ticked.body.message).toEqual(expect.any(String));
      expectBug(ticked.body.bug);
      const [first, second] = ticked.body.bug.checklist;
      expect(first).toMatchObject({
        text: 'Open /login',
        completed: true,
        completedBy: { _id: developer.id, name: developer.name },
      });
      expect(Number.isNaN(Date.parse(first.completedAt))).toBe(false);
      expect(second).toMatchObject({ completed: false, completedBy: null, completedAt: null });
      bugVersion = ticked.body.bug.version;
      lastPosition = ticked.headers.get('x-event-position')!;
      expect(lastPosition).toBeTruthy();
    });

    it('the admin sees the counts move on the dashboard and in statusSummary', async () => {
      const dash = await api.get('/api/bugs/admin-dashboard', admin.token, { 'X-Min-Position': lastPosition });
      expect(dash.status).toBe(200);
      expect(dash.body.statistics).toMatchObject({ totalBugs: 1, openBugs: 0, inProgressBugs: 1, closedBugs: 0 });
      expect(dash.body.charts.bugDistribution).toEqual({ Open: 0, InProgress: 1, 'In Progress': 1, Closed: 0, All: 1 });
      expect(dash.body.recentBugs.map((b: any) => b._id)).toEqual([bugId]);
      const list = await api.get('/api/bugs', admin.token);
      expectSummary(list.body.statusSummary);
      expect(list.body.statusSummary).toMatchObject({ all: 1, open: 0, inProgress: 1, inProgressBugs: 1, closed: 0 });
      // Status filters with the aliases; the summary counts the unfiltered scope.
      const pending = await api.get('/api/bugs?status=Pending', admin.token);
      expect(pending.body.bugs).toEqual([]);
      expect(pending.body.statusSummary.all).toBe(1);
      expect((await api.get('/api/bugs?status=In%20Progress', admin.token)).body.bugs.map((b: any) => b._id)).toEqual([
        bugId,
      ]);
      expect((await api.get('/api/bugs?status=resolved', admin.token)).body.bugs).toEqual([]);
      expect((await api.get('/api/bugs?status=', admin.token)).body.bugs).toHaveLength(1);
      expectError(await api.get('/api/bugs?status=Nope', admin.token), 400);
      // The team list's counters moved too.
      const team = await api.get('/api/users', admin.token);
      const dev = team.body.find((u: any) => u._id === developer.id);
      expect(dev).toMatchObject({ pendingTasks: 0, inProgressTasks: 1, completedTasks: 0, assignedBugs: 1 });
      const rep = team.body.find((u: any) => u._id === tester.id);
      expect(rep).toMatchObject({ createdBugs: 1 });
    });

    it('the admin downloads both reports as xlsx with the spec file names', async () => {
      for (const [what, name] of [
        ['bugs', 'bug_details.xlsx'],
        ['users', 'user_details.xlsx'],
      ] as const) {
        const response = await fetch(`${t.url}/api/reports/export/${what}`, {
          headers: { authorization: `Bearer ${admin.token}` },
        });
        expect(response.status).toBe(200);
        expect(response.headers.get('content-type')).toBe(XLSX);
        expect(response.headers.get('content-disposition')).toMatch(/^attachment;/);
        expect(response.headers.get('content-disposition')).toContain(`filename="${name}"`);
        const bytes = new Uint8Array(await response.arrayBuffer());
        expect(String.fromCharCode(bytes[0]!, bytes[1]!)).toBe('PK');
      }
      expectError(await api.get('/api/reports/export/bugs', tester.token), 403);
      expectError(await api.get('/api/reports/export/users'), 401);
    });

    it('dashboards for tester (also `stats`) and developer', async () => {
      const td = await api.get('/api/bugs/tester-dashboard', tester.token);
      expect(td.status).toBe(200);
      expectDashboard(td.body);
      expect(td.body.stats).toEqual(td.body.statistics);
      expect(td.body.statistics).toMatchObject({ totalBugs: 1, inProgressBugs: 1 });
      const dd = await api.get('/api/bugs/developer-dashboard', developer.token);
      expect(dd.status).toBe(200);
      expectDashboard(dd.body);
      expect(dd.body.statistics).toMatchObject({ totalBugs: 1, inProgressBugs: 1 });
      expectError(await api.get('/api/bugs/admin-dashboard', tester.token), 403);
    });

    it('who sees what: user lists, detail 403, all-viewable rows for every tester', async () => {
      const other = await register('tester');
      const otherToken = other.answer.body.token;
      const detail = await api.get(`/api/bugs/${bugId}`, otherToken);
      expectError(detail, 403, "You don't have permission to view this bug");
      const viewable = await api.get('/api/bugs/all-viewable', otherToken);
      expect(viewable.status).toBe(200);
      expect(viewable.body.bugs.map((b: any) => b._id)).toContain(bugId);
      expectSummary(viewable.body.statusSummary);

      const own = await api.get(`/api/bugs/user/${tester.id}`, tester.token);
      expect(own.status).toBe(200);
      expect(Array.isArray(own.body)).toBe(true);
      expect(own.body.map((b: any) => b._id)).toEqual([bugId]);
      const byAdmin = await api.get(`/api/bugs/user/${tester.id}`, admin.token);
      expect(byAdmin.body.map((b: any) => b._id)).toEqual([bugId]);
      expectError(await api.get(`/api/bugs/user/${tester.id}`, otherToken), 403);
      expectError(await api.get(`/api/bugs/user/${tester.id}`, developer.token), 403);
      expectError(await api.get('/api/bugs/no-such-bug', admin.token), 404);
    });

    it('If-Match: a stale edit is 409, a current one 200 {message, bug}', async () => {
      const stale = await api.put(`/api/bugs/${bugId}`, { title: 'Login button does nothing at all' }, tester.token, {
        'If-Match': String(bugVersion - 1),
      });
      expectError(stale, 409);
      const fresh = await api.put(
        `/api/bugs/${bugId}`,
        { title: 'Login button does nothing at all', dueDate: null },
        tester.token,
        { 'If-Match': String(bugVersion) },
      );
      expect(fresh.status).toBe(200);
      expect(Object.keys(fresh.body).sort()).toEqual(['bug', 'message']);
      expect(fresh.body.bug.title).toBe('Login button does nothing at all');
      expect(fresh.body.bug.dueDate).toBeNull();
      // Developers do not edit.
      expectError(await api.put(`/api/bugs/${bugId}`, { title: 'Developer edit' }, developer.token), 403);
      bugVersion = fresh.body.bug.version;
    });

    it('the admin View/Update form sends its status selector as-is with PUT /api/bugs/{id}', async () => {
      const current = (await api.get(`/api/bugs/${bugId}`, admin.token)).body;
      const form = {
        title: current.title,
        description: current.description,
        module: current.module,
        priority: current.priority,
        severity: current.severity,
        status: 'Resolved',
        dueDate: null,
        assignedTo: current.assignedTo.map((u: any) => u._id),
      };
      const resolved = await api.put(`/api/bugs/${bugId}`, form, admin.token);
      expect(resolved.status).toBe(200);
      expect(resolved.body.bug.status).toBe('Closed');
      const back = await api.put(`/api/bugs/${bugId}`, { ...form, status: 'In Progress' }, admin.token);
      expect(back.body.bug.status).toBe('In Progress');
      expectError(await api.put(`/api/bugs/${bugId}`, { ...form, status: 'Later' }, admin.token), 400);
      // A tester's edit form echoes a status it does not own: the edit goes through, the status stays.
      const byTester = await api.put(`/api/bugs/${bugId}`, { title: current.title, status: 'Open' }, tester.token);
      expect(byTester.status).toBe(200);
      expect(byTester.body.bug.status).toBe('In Progress');
      bugVersion = byTester.body.bug.version;
    });

    it('GET /api/bugs/{id}/history lists every event; ?at answers the bug as it was', async () => {
      const history = await api.get(`/api/bugs/${bugId}/history`, admin.token);
      expect(history.status).toBe(200);
      const events = history.body.events;
      expect(Array.isArray(events)).toBe(true);
      expect(events.length).toBeGreaterThanOrEqual(5);
      for (const e of events) {
        expect(e).toEqual(
          expect.objectContaining({ type: expect.any(String), at: expect.any(String), changes: expect.any(Array) }),
        );
        expect(e).toHaveProperty('actor');
      }
      expect(events[0].actor).toEqual({ _id: tester.id, name: tester.name });
      const first = events[0].at;
      const then = await api.get(`/api/bugs/${bugId}/history?at=${encodeURIComponent(first)}`, admin.token);
      expect(then.status).toBe(200);
      expectBug(then.body);
      expect(then.body.status).toBe('Open');
      expect(then.body.title).toBe('Login button does nothing');
      expectError(await api.get(`/api/bugs/${bugId}/history?at=yesterday-ish`, admin.token), 400);
      expect((await api.get(`/api/bugs/${bugId}/history`, tester.token)).status).toBe(200);
    });

    it('recentBugs holds at most 10, newest first', async () => {
      for (let i = 0; i < 11; i++) {
        const answer = await api.post(
          '/api/bugs',
          { title: `Extra bug number ${i}`, description: 'One of several extra bugs.', assignedTo: [developer.id] },
          tester.token,
        );
        expect(answer.status).toBe(201);
      }
      const dash = await api.get('/api/bugs/admin-dashboard', admin.token);
      expectDashboard(dash.body);
      expect(dash.body.recentBugs).toHaveLength(10);
      expect(dash.body.recentBugs[0].title).toBe('Extra bug number 10');
      expect(dash.body.statistics.totalBugs).toBe(12);
      // Lists page with limit/cursor.
      const page = await api.get('/api/bugs?limit=5', admin.token);
      expect(page.body.bugs).toHaveLength(5);
      expect(typeof page.body.nextCursor).toBe('string');
    });

    it('a deleted bug is 404 and gone from the lists', async () => {
      const created = await api.post(
        '/api/bugs',
        { title: 'Short lived bug', description: 'This bug will be deleted.', assignedTo: [developer.id] },
        tester.token,
      );
      const id = created.body.bug._id;
      expectError(await api.delete(`/api/bugs/${id}`, developer.token), 403);
      const deleted = await api.delete(`/api/bugs/${id}`, tester.token);
      expect(deleted.status).toBe(200);
      expect(Object.keys(deleted.body)).toEqual(['message']);
      expectError(await api.get(`/api/bugs/${id}`, tester.token), 404);
      expect((await api.get('/api/bugs', tester.token)).body.bugs.map((b: any) => b._id)).not.toContain(id);
    });
  });

  describe('the error format and the general rules', () => {
    it('401, 404 unknown routes, 400 malformed JSON, 413, 415: JSON every time', async () => {
      expectError(await api.get('/api/bugs'), 401);
      expectError(await api.get('/api/users'), 401);
      expectError(await api.get('/api/nothing-here', admin.token), 404);
      expectError(await api.post('/api/nothing-here', {}, admin.token), 404);
      expectError(await api.get('/api/nothing-here', admin.token, { accept: 'text/html' }), 404);
      expectError(
        await api.call('POST', '/api/auth/login', {
          raw: '{"email": ',
          headers: { 'content-type': 'application/json' },
        }),
        400,
      );
      expectError(
        await api.call('POST', '/api/bugs', {
          raw: JSON.stringify({ title: 'x'.repeat(1024 * 1024 + 10) }),
          token: tester.token,
          headers: { 'content-type': 'application/json' },
        }),
        413,
      );
      expectError(
        await api.call('POST', '/api/bugs', {
          raw: 'title=hello',
          token: tester.token,
          headers: { 'content-type': 'text/plain' },
        }),
        415,
      );
      expectError(await api.get('/api/bugs', tester.token, { 'X-Min-Position': 'garbage' }), 400);
    });

    it.skipIf(!hasWebBuild)('a client route asked for as HTML gets index.html', async () => {
      const response = await fetch(`${t.url}/tester/bug/some-id`, { headers: { accept: 'text/html' } });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/text\/html/);
      expect(await response.text()).toMatch(/<html/i);
    });

    it('GET /api/openapi.json lists the paths', async () => {
      const doc = await api.get('/api/openapi.json');
      expect(doc.status).toBe(200);
      expect(doc.body.openapi).toMatch(/^3\./);
      const paths = Object.keys(doc.body.paths);
      for (const p of [
        '/api/auth/register',
        '/api/auth/login',
        '/api/auth/logout',
        '/api/auth/profile',
        '/api/auth/upload-image',
        '/api/auth/invite-codes',
        '/api/users',
        '/api/users/developers',
        '/api/users/{id}',
        '/api/bugs',
        '/api/bugs/{id}',
        '/api/bugs/{id}/status',
        '/api/bugs/{id}/checklist',
        '/api/bugs/{id}/history',
        '/api/bugs/all-viewable',
        '/api/bugs/assigned',
        '/api/bugs/user/{id}',
        '/api/bugs/admin-dashboard',
        '/api/bugs/tester-dashboard',
        '/api/bugs/developer-dashboard',
        '/api/reports/export/bugs',
        '/api/reports/export/users',
        '/api/events',
        '/chats',
        '/chats/{id}',
        '/chats/{id}/messages',
        '/api/chats',
        '/users',
      ]) {
        expect(paths).toContain(p);
      }
    });
  });

  describe('chats at /chats and /api/chats', () => {
    it('create, list with lastMessage and unreadCount, messages paging, /users', async () => {
      const created = await api.post(
        '/chats',
        { name: 'Release team', type: 'team', participants: [developer.id], aiAssistant: { enabled: false } },
        tester.token,
      );
      expect(created.status).toBe(201);
      expect(created.body).toEqual(
        expect.objectContaining({ _id: expect.any(String), name: 'Release team', type: 'team' }),
      );
      const chatId = created.body._id;
      const participantIds = created.body.participants.map((p: any) => (typeof p === 'string' ? p : p._id));
      expect(participantIds).toEqual(expect.arrayContaining([tester.id, developer.id]));

      const sent = await api.post(
        `/chats/${chatId}/messages`,
        { content: 'Hello team', mentions: [], replyTo: null },
        tester.token,
      );
      expect(sent.status).toBe(201);
      expect(sent.body).toEqual(
        expect.objectContaining({
          _id: expect.any(String),
          chat: chatId,
          content: 'Hello team',
          attachments: [],
          isDeleted: false,
          isAIMessage: false,
          createdAt: expect.any(String),
        }),
      );
      expect(sent.body.sender).toEqual(expect.objectContaining({ _id: tester.id, name: tester.name }));
      expect(sent.body.sender).toHaveProperty('profileImageURL');

      for (const base of ['/chats', '/api/chats']) {
        const list = await api.get(base, developer.token);
        expect(list.status).toBe(200);
        expect(Array.isArray(list.body)).toBe(true);
        const chat = list.body.find((c: any) => c._id === chatId);
        expect(chat.unreadCount).toBe(1);
        expect(chat.lastMessage).toEqual(
          expect.objectContaining({
            content: 'Hello team',
            createdAt: expect.any(String),
            isDeleted: false,
            isAIMessage: false,
            sender: { _id: tester.id, name: tester.name },
          }),
        );
      }
      const one = await api.get(`/api/chats/${chatId}`, developer.token);
      expect(one.status).toBe(200);
      expect(one.body._id).toBe(chatId);

      const read = await api.post(`/chats/${chatId}/read`, undefined, developer.token);
      expect(read.status).toBe(200);
      const afterRead = await api.get('/chats', developer.token);
      expect(afterRead.body.find((c: any) => c._id === chatId).unreadCount).toBe(0);

      const messages = await api.get(`/chats/${chatId}/messages?page=1`, developer.token);
      expect(messages.status).toBe(200);
      expect(messages.body).toEqual({ messages: expect.any(Array), page: 1, hasMore: false });
      expect(messages.body.messages.map((m: any) => m.content)).toEqual(['Hello team']);

      // Not a member of a team chat: 404.
      expectError(await api.get(`/chats/${chatId}`, admin.token), 404);
      // Only chat admins edit.
      expectError(await api.put(`/chats/${chatId}`, { name: 'Renamed' }, developer.token), 403);
      expectError(
        await api.put(`/chats/${chatId}`, { type: 'public' }, tester.token),
        400,
        'Chat type cannot be changed',
      );

      // The sender deletes a message: it then reads "This message was deleted".
      const removed = await api.delete(`/chats/${chatId}/messages/${sent.body._id}`, tester.token);
      expect(removed.status).toBe(200);
      expect(removed.body).toMatchObject({ isDeleted: true, content: 'This message was deleted' });
      const page = await api.get(`/api/chats/${chatId}/messages`, developer.token);
      expect(page.body.messages[0]).toMatchObject({ isDeleted: true, content: 'This message was deleted' });

      // Public chats are listed to everyone and can be joined.
      const pub = await api.post('/api/chats', { name: 'Everyone', type: 'public' }, tester.token);
      expect(pub.status).toBe(201);
      expect((await api.get('/chats', admin.token)).body.map((c: any) => c._id)).toContain(pub.body._id);
      const joined = await api.post(`/chats/${pub.body._id}/join`, undefined, admin.token);
      expect(joined.status).toBe(200);
      expect(joined.body.participants.map((p: any) => p._id)).toContain(admin.id);

      const users = await api.get('/users', developer.token);
      expect(users.status).toBe(200);
      expect(Array.isArray(users.body)).toBe(true);
      for (const u of users.body) expect(u).toEqual({ _id: expect.any(String), name: expect.any(String) });
      expect(users.body.map((u: any) => u._id)).toEqual(expect.arrayContaining([admin.id, tester.id, developer.id]));
      expectError(await api.get('/users'), 401);
      expectError(await api.get('/chats'), 401);
    });
  });

  describe('live updates', () => {
    it('GET /api/events is 401 without a token and an event stream with one', async () => {
      expectError(await api.get('/api/events'), 401);
      const controller = new AbortController();
      const response = await fetch(`${t.url}/api/events`, {
        headers: { authorization: `Bearer ${admin.token}`, accept: 'text/event-stream' },
        signal: controller.signal,
      });
      try {
        expect(response.status).toBe(200);
        expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
        expect(response.headers.get('cache-control')).toMatch(/no-cache/);
        const reader = response.body!.getReader();
        const decoder = new TextDecoder();
        let buffer = '';
        const nextMessage = async (): Promise<Record<string, string>> => {
          for (;;) {
            const end = buffer.indexOf('\n\n');
            if (end >= 0) {
              const block = buffer.slice(0, end);
              buffer = buffer.slice(end + 2);
              const fields: Record<string, string> = {};
              for (const line of block.split('\n')) {
                if (line.startsWith(':')) continue;
                const at = line.indexOf(':');
                fields[line.slice(0, at)] = line.slice(at + 1).trimStart();
              }
              if (Object.keys(fields).length > 0) return fields;
              continue;
            }
            const { value, done } = await reader.read();
            if (done) throw new Error('stream ended');
            buffer += decoder.decode(value, { stream: true });
          }
        };
        // Live first (after any replay), then the change arrives with the topic kind and position.
        while ((await nextMessage()).event !== 'ready');
        const changed = await api.put(`/api/bugs/${bugId}/status`, { status: 'Closed' }, admin.token);
        expect(changed.status).toBe(200);
        let message = await nextMessage();
        while (!message.data?.includes(bugId)) message = await nextMessage();
        expect(message.event).toEqual(expect.any(String));
        const data = JSON.parse(message.data!);
        expect(data).toEqual({ topics: expect.any(Array), position: expect.any(String) });
      } finally {
        controller.abort();
        await response.body?.cancel().catch(() => {});
      }
    });
  });
});
