import { http, registerUser, type TestUser } from '@bugtrail/testing';
import { startTestSystem, type TestSystem } from '@bugtrail/testing/system';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** Bug commands over real HTTP on a real PostgreSQL, with the permission matrix. */
describe('bug commands', () => {
  let t: TestSystem;
  let api: ReturnType<typeof http>;
  let admin: TestUser;
  let tester: TestUser;
  let otherTester: TestUser;
  let developer: TestUser;
  let otherDeveloper: TestUser;

  const eventCount = async () =>
    Number((await t.system.pool.query('select count(*)::int as n from eventstore.events')).rows[0].n);
  const eventTypes = async (bugId: string) =>
    (
      await t.system.pool.query<{ type: string }>(
        'select type from eventstore.events where stream_id = $1 order by stream_revision',
        [`bug-${bugId}`],
      )
    ).rows.map((r) => r.type);

  /** Asserts the call is refused with `status` and that no event was appended. */
  async function refused(status: number, call: () => Promise<{ status: number; body: any }>) {
    const before = await eventCount();
    const answer = await call();
    expect(answer.status, JSON.stringify(answer.body)).toBe(status);
    expect(typeof answer.body?.message).toBe('string');
    expect(await eventCount()).toBe(before);
    return answer;
  }

  const validBug = () => ({
    title: 'Login button does nothing',
    description: 'Clicking the login button has no effect at all',
    priority: 'High',
    severity: 'Major',
    module: 'Auth',
    dueDate: null as string | null,
    assignedTo: [developer.id],
    checklist: [{ text: 'Open /login', completed: false }, { text: 'Click Login' }],
    attachments: ['https://example.com/screenshot.png'],
  });

  async function reportBug(by: TestUser = tester, overrides: Record<string, unknown> = {}) {
    const answer = await api.post('/api/bugs', { ...validBug(), ...overrides }, by.token);
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    return answer.body.bug as { _id: string; version: number; checklist: { _id: string; text: string }[] };
  }

  beforeAll(async () => {
    t = await startTestSystem();
    api = http(t.url);
    admin = await registerUser(t.url, 'admin', 'Ada Admin');
    tester = await registerUser(t.url, 'tester', 'Tess Tester');
    otherTester = await registerUser(t.url, 'tester', 'Otto Tester');
    developer = await registerUser(t.url, 'developer', 'Dev Eloper');
    otherDeveloper = await registerUser(t.url, 'developer', 'Other Dev');
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('POST /api/bugs', () => {
    it('reports a bug: 201, always Open, the one bug shape, events in order', async () => {
      const answer = await api.post(
        '/api/bugs',
        { ...validBug(), status: 'Closed', createdBy: admin.id },
        tester.token,
      );
      expect(answer.status).toBe(201);
      expect(answer.headers.get('x-event-position')).toMatch(/^[0-9a-f]{32}$/);
      const bug = answer.body.bug;
      expect(answer.body.message).toBe('Bug Reported Successfully');
      expect(bug).toMatchObject({
        title: 'Login button does nothing',
        description: 'Clicking the login button has no effect at all',
        priority: 'High',
        severity: 'Major',
        status: 'Open',
        module: 'Auth',
        dueDate: null,
        createdBy: { _id: tester.id, name: 'Tess Tester' },
        assignedTo: [{ _id: developer.id, name: 'Dev Eloper', profileImageURL: null, profileImageUrl: null }],
        attachments: ['https://example.com/screenshot.png'],
        version: 4,
      });
      expect(bug.checklist).toEqual([
        { _id: expect.any(String), text: 'Open /login', completed: false, completedBy: null, completedAt: null },
        { _id: expect.any(String), text: 'Click Login', completed: false, completedBy: null, completedAt: null },
      ]);
      expect(await eventTypes(bug._id)).toEqual([
        'BugReported',
        'DevelopersAssigned',
        'ChecklistItemAdded',
        'ChecklistItemAdded',
        'AttachmentLinkAdded',
      ]);
      const { rows } = await t.system.pool.query(
        "select metadata->>'actorId' as actor from eventstore.events where stream_id = $1",
        [`bug-${bug._id}`],
      );
      expect(rows.every((r) => r.actor === tester.id)).toBe(true);
    });

    it('stamps one correlation id per request on every event it appends, and answers it', async () => {
      const answer = await api.post(
        '/api/bugs',
        { ...validBug(), checklist: ['Open the page', 'Click login'] },
        tester.token,
      );
      expect(answer.status).toBe(201);
      const correlationId = answer.headers.get('x-correlation-id');
      expect(correlationId).toMatch(/^[0-9a-f-]{36}$/);
      const events = await t.system.store.readStream(`bug-${answer.body.bug._id}`);
      expect(events.length).toBeGreaterThan(2);
      expect(new Set(events.map((e) => e.metadata.correlationId))).toEqual(new Set([correlationId]));
      // A caller's own id is carried through; the next request gets a fresh one.
      const traced = await api.put(`/api/bugs/${answer.body.bug._id}/status`, { status: 'Closed' }, admin.token, {
        'x-correlation-id': 'ci-run-42',
      });
      expect(traced.headers.get('x-correlation-id')).toBe('ci-run-42');
      const [last] = await t.system.store.readStream(`bug-${answer.body.bug._id}`, {
        direction: 'backwards',
        limit: 1,
      });
      expect(last?.metadata.correlationId).toBe('ci-run-42');
    });

    it('lets an admin report, with defaults for priority and severity', async () => {
      const answer = await api.post(
        '/api/bugs',
        { title: 'Admin found one', description: 'Something is off here', assignedTo: [developer.id] },
        admin.token,
      );
      expect(answer.status).toBe(201);
      expect(answer.body.bug).toMatchObject({ priority: 'Medium', severity: 'Minor', status: 'Open', module: null });
    });

    it("answers the spec's messages in details, in order, and appends nothing", async () => {
      const answer = await refused(400, () =>
        api.post(
          '/api/bugs',
          { title: 'abc', description: 'short', assignedTo: [], dueDate: '2001-01-01', module: 'm'.repeat(51) },
          tester.token,
        ),
      );
      expect(answer.body.details).toEqual([
        { field: 'title', message: 'Title must be at least 5 characters long' },
        { field: 'description', message: 'Description must be at least 10 characters long' },
        { field: 'assignedTo', message: 'At least one developer must be assigned' },
        { field: 'dueDate', message: 'Due date must be in the future' },
        { field: 'module', message: 'Module name cannot exceed 50 characters' },
      ]);
    });

    it('answers "required" messages for an empty body', async () => {
      const answer = await refused(400, () => api.post('/api/bugs', {}, tester.token));
      expect(answer.body.details.map((d: { message: string }) => d.message)).toEqual([
        'Title is required',
        'Description is required',
        'At least one developer must be assigned',
      ]);
    });

    it('accepts a due date of today (UTC)', async () => {
      const today = new Date().toISOString().slice(0, 10);
      const bug = await reportBug(tester, { dueDate: today });
      expect((bug as unknown as { dueDate: string }).dueDate).toBe(`${today}T00:00:00.000Z`);
    });

    it('refuses assignees who are not developers, or do not exist', async () => {
      for (const ids of [[otherTester.id], ['no-such-user'], [developer.id, admin.id]]) {
        const answer = await refused(400, () =>
          api.post('/api/bugs', { ...validBug(), assignedTo: ids }, tester.token),
        );
        expect(answer.body.details).toEqual([
          { field: 'assignedTo', message: 'Assigned users must be existing developers' },
        ]);
      }
    });

    it('refuses a bad priority and a script link', async () => {
      const bad = await refused(400, () => api.post('/api/bugs', { ...validBug(), priority: 'Urgent' }, tester.token));
      expect(bad.body.details[0]).toEqual({ field: 'priority', message: 'Priority must be one of Low, Medium, High' });
      await refused(400, () =>
        api.post('/api/bugs', { ...validBug(), attachments: ['javascript:alert(1)'] }, tester.token),
      );
    });

    it('refuses a developer (403), anonymous and bad tokens (401)', async () => {
      await refused(403, () => api.post('/api/bugs', validBug(), developer.token));
      await refused(401, () => api.post('/api/bugs', validBug()));
      await refused(401, () => api.post('/api/bugs', validBug(), 'not-a-token'));
    });

    it('answers 400 for malformed JSON, 415 for another content type, 413 past 1 MB', async () => {
      await refused(400, () =>
        api.call('POST', '/api/bugs', {
          raw: '{"title": ',
          token: tester.token,
          headers: { 'content-type': 'application/json' },
        }),
      );
      await refused(415, () =>
        api.call('POST', '/api/bugs', {
          raw: 'title=x',
          token: tester.token,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        }),
      );
      await refused(413, () =>
        api.post('/api/bugs', { ...validBug(), description: 'x'.repeat(1024 * 1024 + 10) }, tester.token),
      );
    });

    it('is idempotent: a retried POST with the same key appends nothing and answers as the first', async () => {
      const headers = { 'idempotency-key': `retry-${Date.now()}` };
      const first = await api.post('/api/bugs', validBug(), tester.token, headers);
      expect(first.status).toBe(201);
      const after = await eventCount();
      const second = await api.post('/api/bugs', validBug(), tester.token, headers);
      expect(second.status).toBe(201);
      expect(second.body).toEqual(first.body);
      expect(await eventCount()).toBe(after);
      // The same key from another caller is another request.
      const other = await api.post('/api/bugs', validBug(), admin.token, headers);
      expect(other.status).toBe(201);
      expect(other.body.bug._id).not.toBe(first.body.bug._id);
    });
  });

  it('answers concurrent retries of one POST with one bug, appended once', async () => {
    const headers = { 'idempotency-key': `race-${Date.now()}` };
    const before = await eventCount();
    const answers = await Promise.all([1, 2, 3].map(() => api.post('/api/bugs', validBug(), tester.token, headers)));
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201]);
    expect(new Set(answers.map((a) => a.body.bug._id)).size).toBe(1);
    expect(await eventCount()).toBe(before + 5);
  });

  describe('PUT /api/bugs/{id}', () => {
    it('edits the form: only changed fields become events; 200 {message, bug}', async () => {
      const bug = await reportBug();
      const answer = await api.put(
        `/api/bugs/${bug._id}`,
        {
          ...validBug(),
          title: 'Login button still does nothing',
          assignedTo: [developer.id, otherDeveloper.id],
          checklist: [{ _id: bug.checklist[0]!._id, text: 'Open /login', completed: false }],
          attachments: [],
        },
        tester.token,
      );
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(answer.body.message).toBe('Bug Updated Successfully');
      expect(answer.body.bug).toMatchObject({
        title: 'Login button still does nothing',
        assignedTo: [{ _id: developer.id }, { _id: otherDeveloper.id, name: 'Other Dev' }],
        checklist: [{ _id: bug.checklist[0]!._id, text: 'Open /login' }],
        attachments: [],
      });
      expect((await eventTypes(bug._id)).slice(5)).toEqual([
        'BugDetailsEdited',
        'DevelopersAssigned',
        'ChecklistItemRemoved',
        'AttachmentLinkRemoved',
      ]);
      const { rows } = await t.system.pool.query(
        "select data from eventstore.events where stream_id = $1 and type = 'BugDetailsEdited'",
        [`bug-${bug._id}`],
      );
      expect(rows[0].data.changes).toEqual({ title: 'Login button still does nothing' });
    });

    it('accepts dueDate null and an ISO date', async () => {
      const bug = await reportBug();
      const future = new Date(Date.now() + 7 * 86_400_000).toISOString();
      const set = await api.put(`/api/bugs/${bug._id}`, { dueDate: future }, tester.token);
      expect(set.status).toBe(200);
      expect(set.body.bug.dueDate).toBe(future);
      const cleared = await api.put(`/api/bugs/${bug._id}`, { dueDate: null }, admin.token);
      expect(cleared.body.bug.dueDate).toBeNull();
    });

    it('answers 409 on a stale If-Match and appends nothing; the current version passes', async () => {
      const bug = await reportBug();
      const first = await api.put(`/api/bugs/${bug._id}`, { priority: 'Low' }, tester.token, {
        'if-match': String(bug.version),
      });
      expect(first.status).toBe(200);
      expect(first.headers.get('etag')).toBe(`"${first.body.bug.version}"`);
      const stale = await refused(409, () =>
        api.put(`/api/bugs/${bug._id}`, { priority: 'High' }, tester.token, { 'if-match': String(bug.version) }),
      );
      expect(stale.body.message).toBe('This bug was changed by someone else. Reload it and try again.');
      const fresh = await api.put(`/api/bugs/${bug._id}`, { priority: 'High' }, tester.token, {
        'if-match': `"${first.body.bug.version}"`,
      });
      expect(fresh.status).toBe(200);
      await refused(400, () =>
        api.put(`/api/bugs/${bug._id}`, { priority: 'High' }, tester.token, { 'if-match': 'yesterday' }),
      );
    });

    it('answers the spec messages on a bad edit, appending nothing', async () => {
      const bug = await reportBug();
      const answer = await refused(400, () =>
        api.put(`/api/bugs/${bug._id}`, { title: '', description: 'tiny', assignedTo: [] }, tester.token),
      );
      expect(answer.body.details.map((d: { message: string }) => d.message)).toEqual([
        'Title is required',
        'Description must be at least 10 characters long',
        'At least one developer must be assigned',
      ]);
    });

    it('ignores completion sent by the reporting tester', async () => {
      const bug = await reportBug();
      const answer = await api.put(
        `/api/bugs/${bug._id}`,
        { checklist: bug.checklist.map((i) => ({ _id: i._id, text: i.text, completed: true })) },
        tester.token,
      );
      expect(answer.status).toBe(200);
      expect(answer.body.bug.checklist.every((i: { completed: boolean }) => !i.completed)).toBe(true);
    });
  });

  describe('PUT /api/bugs/{id}/status', () => {
    it('sets any status from any, reading the aliases', async () => {
      const bug = await reportBug();
      const resolved = await api.put(`/api/bugs/${bug._id}/status`, { status: 'Resolved' }, developer.token);
      expect(resolved.status).toBe(200);
      expect(resolved.body).toMatchObject({ message: 'Bug status updated successfully', bug: { status: 'Closed' } });
      const pending = await api.put(`/api/bugs/${bug._id}/status`, { status: 'pending' }, developer.token);
      expect(pending.body.bug.status).toBe('Open');
      const inProgress = await api.put(`/api/bugs/${bug._id}/status`, { status: 'In Progress' }, admin.token);
      expect(inProgress.body.bug.status).toBe('In Progress');
      const { rows } = await t.system.pool.query(
        "select data from eventstore.events where stream_id = $1 and type = 'BugStatusChanged' order by stream_revision",
        [`bug-${bug._id}`],
      );
      expect(rows.map((r) => [r.data.from, r.data.to])).toEqual([
        ['Open', 'Closed'],
        ['Closed', 'Open'],
        ['Open', 'In Progress'],
      ]);
    });

    it('appends nothing for the same status, and answers 200', async () => {
      const bug = await reportBug();
      const before = await eventCount();
      const same = await api.put(`/api/bugs/${bug._id}/status`, { status: 'Open' }, developer.token);
      expect(same.status).toBe(200);
      expect(await eventCount()).toBe(before);
    });

    it('refuses an unknown or missing status with 400', async () => {
      const bug = await reportBug();
      const bad = await refused(400, () => api.put(`/api/bugs/${bug._id}/status`, { status: 'Done' }, developer.token));
      expect(bad.body.details).toEqual([
        { field: 'status', message: 'Status must be one of Open, In Progress, Closed (or Pending, Resolved)' },
      ]);
      const missing = await refused(400, () => api.put(`/api/bugs/${bug._id}/status`, {}, developer.token));
      expect(missing.body.message).toBe('Status is required');
    });

    it('survives concurrent status changes (retried on conflict)', async () => {
      const bug = await reportBug();
      const answers = await Promise.all(
        ['In Progress', 'Closed', 'Open', 'In Progress'].map((status) =>
          api.put(`/api/bugs/${bug._id}/status`, { status }, developer.token),
        ),
      );
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    });
  });

  describe('PUT /api/bugs/{id}/checklist', () => {
    it('records who ticked and when from the server, ignoring what the client sends', async () => {
      const bug = await reportBug();
      const before = Date.now();
      const answer = await api.put(
        `/api/bugs/${bug._id}/checklist`,
        {
          checklist: [
            {
              _id: bug.checklist[0]!._id,
              text: 'Open /login',
              completed: true,
              completedBy: admin.id,
              completedAt: '2001-01-01',
            },
            { _id: bug.checklist[1]!._id, text: 'Click Login', completed: false },
          ],
        },
        developer.token,
      );
      expect(answer.status).toBe(200);
      expect(answer.body.message).toBe('Checklist updated');
      const [first, second] = answer.body.bug.checklist;
      expect(first).toMatchObject({ completed: true, completedBy: { _id: developer.id, name: 'Dev Eloper' } });
      expect(Date.parse(first.completedAt)).toBeGreaterThanOrEqual(before - 1000);
      expect(second).toMatchObject({ completed: false, completedBy: null, completedAt: null });
    });

    it('matches by position when the client sends no ids, and reopens', async () => {
      const bug = await reportBug();
      const ticked = await api.put(
        `/api/bugs/${bug._id}/checklist`,
        { checklist: [{ text: 'Open /login' }, { text: 'Click Login', completed: true }] },
        developer.token,
      );
      expect(ticked.body.bug.checklist.map((i: { completed: boolean }) => i.completed)).toEqual([false, true]);
      const reopened = await api.put(
        `/api/bugs/${bug._id}/checklist`,
        { checklist: [{ text: 'Open /login' }, { text: 'Click Login', completed: false }] },
        developer.token,
      );
      expect(reopened.body.bug.checklist[1]).toMatchObject({ completed: false, completedBy: null });
      expect((await eventTypes(bug._id)).slice(-2)).toEqual(['ChecklistItemCompleted', 'ChecklistItemReopened']);
    });

    it('refuses a body without a checklist list (400)', async () => {
      const bug = await reportBug();
      await refused(400, () => api.put(`/api/bugs/${bug._id}/checklist`, { checklist: 'all done' }, developer.token));
    });
  });

  describe('DELETE /api/bugs/{id}', () => {
    it('deletes; the bug is then 404 for every command', async () => {
      const bug = await reportBug();
      const answer = await api.delete(`/api/bugs/${bug._id}`, tester.token);
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ message: 'Bug deleted successfully' });
      expect(await eventTypes(bug._id)).toContain('BugDeleted');
      await refused(404, () => api.put(`/api/bugs/${bug._id}`, { priority: 'Low' }, admin.token));
      await refused(404, () => api.put(`/api/bugs/${bug._id}/status`, { status: 'Closed' }, admin.token));
      await refused(404, () => api.put(`/api/bugs/${bug._id}/checklist`, { checklist: [] }, admin.token));
      await refused(404, () => api.delete(`/api/bugs/${bug._id}`, admin.token));
    });
  });

  describe('unknown ids', () => {
    it('answers 404 with a message and appends nothing', async () => {
      for (const id of ['does-not-exist', '7c9e6679-7425-40de-944b-e07fc1f90ae7', 'x'.repeat(300)]) {
        const a = await refused(404, () => api.put(`/api/bugs/${id}`, validBug(), admin.token));
        expect(a.body.message).toBe('Bug not found');
        await refused(404, () => api.put(`/api/bugs/${id}/status`, { status: 'Open' }, admin.token));
        await refused(404, () => api.put(`/api/bugs/${id}/checklist`, { checklist: [] }, admin.token));
        await refused(404, () => api.delete(`/api/bugs/${id}`, admin.token));
      }
      await refused(404, () =>
        api.put('/api/bugs/does-not-exist', { priority: 'Low' }, admin.token, { 'if-match': '3' }),
      );
    });
  });

  describe('permission matrix: each role × each endpoint × own/other bug', () => {
    type Who = 'admin' | 'reporter' | 'otherTester' | 'assignedDev' | 'otherDev';
    const who = (w: Who): TestUser =>
      ({ admin, reporter: tester, otherTester, assignedDev: developer, otherDev: otherDeveloper })[w];
    const endpoints = {
      edit: (id: string, u: TestUser) => api.put(`/api/bugs/${id}`, { priority: 'Low' }, u.token),
      delete: (id: string, u: TestUser) => api.delete(`/api/bugs/${id}`, u.token),
      status: (id: string, u: TestUser) => api.put(`/api/bugs/${id}/status`, { status: 'Closed' }, u.token),
      checklist: (id: string, u: TestUser) =>
        api.put(`/api/bugs/${id}/checklist`, { checklist: [{ text: 'Open /login', completed: true }] }, u.token),
      anonymous: (id: string) => api.put(`/api/bugs/${id}/status`, { status: 'Closed' }),
    };
    // api.md "who sees what": edit/delete admin any, tester own; status/checklist ticks
    // admin any, developer assigned. A bug the caller may not see is a 403 with the
    // detail's message; one they may see but not change is a 403 too.
    const matrix: [keyof typeof endpoints, Who, number][] = [
      ['edit', 'admin', 200],
      ['edit', 'reporter', 200],
      ['edit', 'otherTester', 403],
      ['edit', 'assignedDev', 403],
      ['edit', 'otherDev', 403],
      ['delete', 'admin', 200],
      ['delete', 'reporter', 200],
      ['delete', 'otherTester', 403],
      ['delete', 'assignedDev', 403],
      ['delete', 'otherDev', 403],
      ['status', 'admin', 200],
      ['status', 'reporter', 403],
      ['status', 'otherTester', 403],
      ['status', 'assignedDev', 200],
      ['status', 'otherDev', 403],
      ['checklist', 'admin', 200],
      ['checklist', 'reporter', 200],
      ['checklist', 'otherTester', 403],
      ['checklist', 'assignedDev', 200],
      ['checklist', 'otherDev', 403],
    ];

    it.each(matrix)('%s by %s → %i', async (endpoint, w, status) => {
      const bug = await reportBug(tester);
      const before = await eventCount();
      const answer = await endpoints[endpoint](bug._id, who(w));
      expect(answer.status, JSON.stringify(answer.body)).toBe(status);
      if (status === 200) expect(await eventCount()).toBeGreaterThan(before);
      else expect(await eventCount()).toBe(before);
      if (status === 403 && (w === 'otherTester' || w === 'otherDev')) {
        expect(answer.body.message).toBe("You don't have permission to view this bug");
      }
    });

    it('on a bug an admin reported: the admin edits, testers and developers do not', async () => {
      const bug = await reportBug(admin);
      for (const u of [tester, otherTester, developer]) {
        await refused(403, () => endpoints.edit(bug._id, u));
      }
      expect((await endpoints.edit(bug._id, admin)).status).toBe(200);
    });

    it('POST: admin 201, tester 201, developer 403, anonymous 401', async () => {
      expect((await api.post('/api/bugs', validBug(), admin.token)).status).toBe(201);
      expect((await api.post('/api/bugs', validBug(), tester.token)).status).toBe(201);
      await refused(403, () => api.post('/api/bugs', validBug(), developer.token));
      await refused(401, () => api.post('/api/bugs', validBug()));
    });

    it('anonymous calls are 401', async () => {
      const bug = await reportBug();
      await refused(401, () => endpoints.anonymous(bug._id));
      await refused(401, () => api.delete(`/api/bugs/${bug._id}`));
    });
  });
});
