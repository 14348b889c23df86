import { countStoredEvents, http, registerAuditor, registerUser, type TestUser } from '@bugtrail/testing';
import { startTestSystem, type TestSystem } from '@bugtrail/testing/system';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** api.md "The auditor role" and "People": PUT /api/users/{id}/role, and auditors change nothing. */

const PASSWORD = 'correct horse battery';
const future = () => new Date(Date.now() + 7 * 86_400_000).toISOString();

function eventCounter(t: TestSystem) {
  return async () => Number((await t.system.pool.query('select count(*)::int as n from eventstore.events')).rows[0].n);
}

describe('PUT /api/users/{id}/role', () => {
  let t: TestSystem;
  let api: ReturnType<typeof http>;
  let admin: TestUser;
  let tester: TestUser;
  let developer: TestUser;
  let eventCount: () => Promise<number>;

  async function refused(status: number, call: () => Promise<{ status: number; body: any }>) {
    const before = await eventCount();
    const answer = await call();
    expect(answer.status, JSON.stringify(answer.body)).toBe(status);
    expect(typeof answer.body?.message).toBe('string');
    expect(await eventCount()).toBe(before);
    return answer;
  }

  beforeAll(async () => {
    t = await startTestSystem();
    api = http(t.url);
    eventCount = eventCounter(t);
    // The first and, until a test adds one, the only admin.
    admin = await registerUser(t.url, 'admin');
    tester = await registerUser(t.url, 'tester');
    developer = await registerUser(t.url, 'developer');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('makes a tester an auditor: the answer, the read models and the next login carry the new role; old tokens stop', async () => {
    const user = await registerUser(t.url, 'tester', 'Audra Auditor');
    const answer = await api.put(`/api/users/${user.id}/role`, { role: 'auditor' }, admin.token);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body).toEqual({
      user: {
        _id: user.id,
        name: 'Audra Auditor',
        email: user.email,
        role: 'auditor',
        profileImageURL: null,
        profileImageUrl: null,
      },
    });
    expect(answer.headers.get('x-event-position')).toBeTruthy();

    // Their token carried the old role.
    expect((await api.get('/api/auth/profile', user.token)).status).toBe(401);
    const login = await api.post('/api/auth/login', { email: user.email, password: PASSWORD });
    expect(login.status).toBe(200);
    expect(login.body.role).toBe('auditor');
    expect(login.body.user.role).toBe('auditor');
    expect((await api.get('/api/auth/profile', login.body.token)).body.user.role).toBe('auditor');
    // The projections show it (read-your-writes: no waiting needed).
    const team = await api.get('/api/users', admin.token);
    expect(team.body.find((u: { _id: string }) => u._id === user.id)?.role).toBe('auditor');
    expect((await api.get(`/api/users/${user.id}`, admin.token)).body.role).toBe('auditor');

    const events = await t.system.store.readStream(`user-${user.id}`);
    expect(events.at(-1)).toMatchObject({
      type: 'UserRoleChanged',
      data: { userId: user.id, from: 'tester', to: 'auditor' },
    });
  });

  it('is for admins only (403), whoever the target is', async () => {
    const auditor = await registerAuditor(t.url, admin.token);
    for (const caller of [tester, developer, auditor]) {
      await refused(403, () => api.put(`/api/users/${caller.id}/role`, { role: 'admin' }, caller.token));
      await refused(403, () => api.put(`/api/users/${tester.id}/role`, { role: 'auditor' }, caller.token));
      await refused(403, () => api.put('/api/users/no-such-user/role', { role: 'auditor' }, caller.token));
    }
    await refused(401, () => api.put(`/api/users/${tester.id}/role`, { role: 'auditor' }));
  });

  it('answers 404 for an unknown user and 400 for a role that does not exist', async () => {
    await refused(404, () => api.put('/api/users/no-such-user/role', { role: 'auditor' }, admin.token));
    for (const role of ['owner', '', 'ADMINS']) {
      const answer = await refused(400, () => api.put(`/api/users/${tester.id}/role`, { role }, admin.token));
      expect(answer.body.details).toEqual([{ field: 'role', message: answer.body.message }]);
    }
    await refused(400, () => api.put(`/api/users/${tester.id}/role`, {}, admin.token));
    await refused(400, () => api.put(`/api/users/${tester.id}/role`, { role: 3 }, admin.token));
  });

  it('changes nothing for the same role, and keeps the tokens', async () => {
    const before = await eventCount();
    const answer = await api.put(`/api/users/${developer.id}/role`, { role: 'Developer' }, admin.token);
    expect(answer.status).toBe(200);
    expect(answer.body.user.role).toBe('developer');
    expect(await eventCount()).toBe(before);
    expect((await api.get('/api/auth/profile', developer.token)).status).toBe(200);
  });

  it('never leaves the team without an admin; an admin who steps down gets a fresh token', async () => {
    const answer = await refused(400, () => api.put(`/api/users/${admin.id}/role`, { role: 'tester' }, admin.token));
    expect(answer.body.message).toBe('At least one admin must remain');

    const second = await registerUser(t.url, 'admin');
    const stepDown = await api.put(`/api/users/${second.id}/role`, { role: 'auditor' }, second.token);
    expect(stepDown.status, JSON.stringify(stepDown.body)).toBe(200);
    expect(stepDown.body.user.role).toBe('auditor');
    expect(typeof stepDown.body.token).toBe('string');
    expect((await api.get('/api/auth/profile', second.token)).status).toBe(401);
    const profile = await api.get('/api/auth/profile', stepDown.body.token);
    expect(profile.body.user.role).toBe('auditor');
    // Now an auditor: no more admin commands with the fresh token.
    await refused(403, () => api.post('/api/auth/invite-codes', {}, stepDown.body.token));

    // The last admin again.
    await refused(400, () => api.put(`/api/users/${admin.id}/role`, { role: 'developer' }, admin.token));
  });

  it('is never offered at signup: register with role auditor is a 400 like any invalid role', async () => {
    for (const role of ['auditor', 'Auditor', 'superuser']) {
      const answer = await refused(400, () =>
        api.post('/api/auth/register', {
          name: 'Would Be Auditor',
          email: `would.be.${Date.now()}${Math.random().toString(36).slice(2, 6)}@example.com`,
          password: PASSWORD,
          role,
        }),
      );
      expect(answer.body.details).toEqual([{ field: 'role', message: answer.body.message }]);
    }
  });

  it('an auditor is never an assignee: assignment refuses them and the developer pickers never list them', async () => {
    const auditor = await registerAuditor(t.url, admin.token);
    const report = await refused(400, () =>
      api.post(
        '/api/bugs',
        {
          title: 'Assigned to an auditor',
          description: 'This bug tries to assign an auditor.',
          priority: 'High',
          severity: 'Major',
          dueDate: future(),
          assignedTo: [auditor.id],
        },
        admin.token,
      ),
    );
    expect(report.body.message).toBeTruthy();
    const developers = await api.get('/api/users/developers', admin.token);
    expect(developers.status).toBe(200);
    expect(developers.body.map((u: { _id: string }) => u._id)).not.toContain(auditor.id);
    expect(developers.body.map((u: { _id: string }) => u._id)).toContain(developer.id);
  });
  // Last: the first admin steps down here, so later tests would have no admin token.
  it('two admins demoting each other at once leave one admin', async () => {
    const a = await registerUser(t.url, 'admin');
    const b = await registerUser(t.url, 'admin');
    expect((await api.put(`/api/users/${admin.id}/role`, { role: 'tester' }, a.token)).status).toBe(200);
    const [ab, ba] = await Promise.all([
      api.put(`/api/users/${b.id}/role`, { role: 'tester' }, a.token),
      api.put(`/api/users/${a.id}/role`, { role: 'tester' }, b.token),
    ]);
    const statuses = [ab.status, ba.status].sort();
    // One wins; the other is refused: its caller is no longer an admin (403, or 401 once the token is revoked).
    expect(statuses[0]).toBe(200);
    expect([401, 403]).toContain(statuses[1]);
    const { rows } = await t.system.pool.query(`select count(*)::int as n from auth.credentials where role = 'admin'`);
    expect(rows[0].n).toBe(1);
  });
});

describe('an auditor changes nothing (every command route of /api/openapi.json)', () => {
  let t: TestSystem;
  let api: ReturnType<typeof http>;
  let admin: TestUser;
  let developer: TestUser;
  let auditor: TestUser;
  let eventCount: () => Promise<number>;
  const ids = { bug: '', chat: '', message: '' };

  beforeAll(async () => {
    t = await startTestSystem();
    api = http(t.url);
    eventCount = eventCounter(t);
    admin = await registerUser(t.url, 'admin');
    developer = await registerUser(t.url, 'developer');
    auditor = await registerAuditor(t.url, admin.token, 'Ada Auditor');
    const bug = await api.post(
      '/api/bugs',
      {
        title: 'Checkout fails on Safari',
        description: 'The pay button does nothing on Safari 17.',
        priority: 'High',
        severity: 'Major',
        dueDate: future(),
        assignedTo: [developer.id],
        checklist: ['Open checkout', 'Press pay'],
      },
      admin.token,
    );
    expect(bug.status, JSON.stringify(bug.body)).toBe(201);
    ids.bug = bug.body.bug._id;
    // The auditor is a member, so a refusal is about the role, not the membership.
    const chat = await api.post(
      '/api/chats',
      { name: 'Release room', type: 'public', participants: [developer.id, auditor.id] },
      admin.token,
    );
    expect(chat.status, JSON.stringify(chat.body)).toBe(201);
    ids.chat = chat.body._id;
    const message = await api.post(`/api/chats/${ids.chat}/messages`, { content: 'Ship it?' }, admin.token);
    expect(message.status, JSON.stringify(message.body)).toBe(201);
    ids.message = message.body._id;
  });
  afterAll(async () => {
    await t?.close();
  });

  /** A body an admin (or the right member) could send with success: the refusal is the role's alone. */
  const plausibleBodies: Record<string, () => unknown> = {
    'post /api/projects/{id}/fields': () => ({ name: 'Customer', type: 'select', options: ['Acme'] }),
    'patch /api/projects/{id}/fields/{fieldId}': () => ({ name: 'Client' }),
    'post /api/bugs/{id}/worklog': () => ({ minutes: 30, on: '2026-01-05' }),
    'put /api/bugs/{id}/estimate': () => ({ estimate: 2 }),
    'put /api/bugs/{id}/state': () => ({ stateId: 'in_progress' }),
    'post /api/bugs': () => ({
      title: 'An auditor reports a bug',
      description: 'Auditors must not be able to report bugs.',
      priority: 'Low',
      severity: 'Minor',
      dueDate: future(),
      assignedTo: [developer.id],
    }),
    'put /api/bugs/{id}': () => ({ title: 'Edited by an auditor', priority: 'Low' }),
    'put /api/bugs/{id}/status': () => ({ status: 'In Progress' }),
    'put /api/bugs/{id}/checklist': () => ({ checklist: [{ text: 'Open checkout', completed: true }] }),
    'post /chats': () => ({ name: 'Auditor chat', type: 'public', participants: [developer.id] }),
    'put /chats/{id}': () => ({ name: 'Renamed by an auditor' }),
    'post /chats/{id}/messages': () => ({ content: 'An auditor says hello' }),
    'put /api/users/{id}': () => ({ name: 'Renamed by an auditor' }),
    'patch /api/users/{id}': () => ({ name: 'Renamed by an auditor' }),
    'put /api/users/{id}/role': () => ({ role: 'admin' }),
  };
  /** What the auditor may do: it acts on themselves only (tested below). */
  const selfService = new Set([
    'post /api/auth/logout',
    'post /api/auth/mfa/setup',
    'post /api/auth/mfa/enable',
    'post /api/auth/mfa/disable',
    // Their own notifications (notifications.int.spec.ts).
    'post /api/notifications/read',
    // Their own API tokens, which act as an auditor too (tokens.int.spec.ts).
    'post /api/tokens',
    'delete /api/tokens/{id}',
  ]);

  const fill = (template: string, userId: string) =>
    template
      .replace(/^(\/api)?\/chats\/\{id\}/, (prefix) => prefix.replace('{id}', ids.chat))
      .replace('/api/bugs/{id}', `/api/bugs/${ids.bug}`)
      .replace('/api/users/{id}', `/api/users/${userId}`)
      .replace('/api/views/{id}', '/api/views/any-saved-view')
      .replace('/api/auth/invite-codes/{id}', '/api/auth/invite-codes/00000000-0000-4000-8000-000000000000')
      .replace('/api/webhooks/{id}', '/api/webhooks/00000000-0000-4000-8000-000000000000')
      .replace('{deliveryId}', '00000000-0000-4000-8000-000000000000')
      .replace('{messageId}', ids.message)
      .replace('{fileId}', 'any-file')
      .replace('{commentId}', 'any-comment')
      .replace('{otherBugId}', 'any-bug')
      .replace('{fieldId}', 'any-field')
      .replace('{entryId}', 'any-entry')
      .replace('/api/labels/{id}', '/api/labels/any-label')
      .replace('/api/milestones/{id}', '/api/milestones/any-milestone')
      .replace('/api/automations/{id}', '/api/automations/any-rule')
      .replace('/api/sla/{id}', '/api/sla/any-policy')
      // The default project, General, which every installation has (issue 35).
      .replace('/api/projects/{id}', '/api/projects/00000000-0000-4000-8000-000000000001')
      .replace('{userId}', userId);

  it('answers 403 to every other command, with a plausible body, and appends nothing', async () => {
    const doc = await api.get('/api/openapi.json');
    expect(doc.status).toBe(200);
    const walked: string[] = [];
    const anonymous: string[] = [];
    for (const [template, item] of Object.entries(doc.body.paths as Record<string, Record<string, any>>)) {
      for (const [method, operation] of Object.entries(item)) {
        if (!['post', 'put', 'patch', 'delete'].includes(method)) continue;
        const key = `${method} ${template}`;
        if (selfService.has(key)) continue;
        // A question asked with a body (read-api's, ADR 019): not a change, and not the auditor's to ask.
        if (key === 'post /api/bugs/suggestions') {
          const asked = await api.call('POST', template, { body: { title: 'Login fails' }, token: auditor.token });
          expect(asked.status, key).toBe(403);
          continue;
        }
        // A rule's dry run (issue 38) changes nothing: auditors read every rule, so they may replay
        // one (a rule that does not exist is 404); nothing is appended either way.
        if (key.endsWith('/simulate')) {
          const before = await countStoredEvents(t.system.pool);
          const window = { from: '2026-01-01', to: '2026-02-01' };
          const draft = { name: 'Audit', when: { event: 'bug.reported' }, then: [{ type: 'notify', role: 'admin' }] };
          const asked = await api.call('POST', fill(template, admin.id), {
            body: key === 'post /api/automations/simulate' ? { ...draft, ...window } : window,
            token: auditor.token,
          });
          expect(asked.status, `${key}: ${JSON.stringify(asked.body)}`).toBe(
            key === 'post /api/automations/simulate' ? 200 : 404,
          );
          expect(await countStoredEvents(t.system.pool), key).toBe(before);
          continue;
        }
        // Signup, login and the like never act for the caller's token.
        if (Array.isArray(operation.security) && operation.security.length === 0) {
          anonymous.push(key);
          continue;
        }
        // Another user's profile and role: never the auditor's own (that one is theirs to edit).
        const path = fill(template, admin.id);
        expect(path, `${key}: a path parameter was left unfilled`).not.toMatch(/[{}]/);
        const bodyKey = key.replace(' /api/chats', ' /chats');
        const body = (plausibleBodies[bodyKey] ?? (() => ({})))();
        const before = await eventCount();
        const answer = await api.call(method.toUpperCase(), path, { body, token: auditor.token });
        expect(answer.status, `${key}: ${JSON.stringify(answer.body)}`).toBe(403);
        expect(answer.body?.message, key).toBe('Auditors can read everything but change nothing');
        expect(await eventCount(), `${key} appended`).toBe(before);
        walked.push(key);
      }
    }
    // The walk saw the commands that matter (and the chat paths under both mounts).
    for (const key of [
      'post /api/bugs',
      'put /api/bugs/{id}',
      'delete /api/bugs/{id}',
      'put /api/bugs/{id}/status',
      'put /api/bugs/{id}/checklist',
      'post /api/bugs/{id}/attachments',
      'delete /api/bugs/{id}/attachments/{fileId}',
      'post /api/chats',
      'post /chats/{id}/messages',
      'delete /api/chats/{id}/messages/{messageId}',
      'post /api/auth/invite-codes',
      'put /api/users/{id}',
      'put /api/users/{id}/role',
      'post /api/projects',
      'patch /api/projects/{id}',
      'put /api/projects/{id}/members/{userId}',
      'put /api/projects/default',
    ]) {
      expect(walked, key).toContain(key);
    }
    expect(anonymous).toEqual(
      expect.arrayContaining(['post /api/auth/register', 'post /api/auth/login', 'post /api/auth/upload-image']),
    );

    // Nothing changed for anyone reading: the bug, the chat and the auditor's own role.
    const bug = await api.get(`/api/bugs/${ids.bug}`, admin.token);
    expect(bug.body).toMatchObject({ title: 'Checkout fails on Safari', status: 'Open' });
    const chat = await api.get(`/api/chats/${ids.chat}`, admin.token);
    expect(chat.body.name).toBe('Release room');
    expect((await api.get('/api/auth/profile', auditor.token)).body.user.role).toBe('auditor');
  });

  it('refuses a command even with an Idempotency-Key or a malformed body', async () => {
    const before = await eventCount();
    for (const headers of [{ 'idempotency-key': 'auditor-1' }, {}] as Record<string, string>[]) {
      const answer = await api.call('PUT', `/api/bugs/${ids.bug}/status`, {
        body: { status: 'Closed' },
        token: auditor.token,
        headers,
      });
      expect(answer.status).toBe(403);
    }
    const malformed = await api.call('POST', '/api/bugs', { raw: '{', token: auditor.token });
    expect(malformed.status).toBe(403);
    expect(await eventCount()).toBe(before);
  });

  it('still updates their own profile, sets up two-factor sign-in and logs out', async () => {
    const own = await api.put(`/api/users/${auditor.id}`, { name: 'Ada A. Auditor' }, auditor.token);
    expect(own.status, JSON.stringify(own.body)).toBe(200);
    expect(own.body.user).toMatchObject({ name: 'Ada A. Auditor', role: 'auditor' });
    // The role stays out of reach through the profile.
    const role = await api.put(`/api/users/${auditor.id}`, { role: 'admin' }, auditor.token);
    expect(role.status).toBe(400);
    expect((await api.put(`/api/users/${auditor.id}`, { role: 'auditor' }, auditor.token)).status).toBe(200);
    const mfa = await api.post('/api/auth/mfa/setup', { currentPassword: 'correct horse battery' }, auditor.token);
    expect(mfa.status, JSON.stringify(mfa.body)).toBe(200);
    expect(typeof mfa.body.secret).toBe('string');
    const logout = await api.post('/api/auth/logout', {}, auditor.token);
    expect(logout.status).toBe(200);
    expect((await api.get('/api/auth/profile', auditor.token)).status).toBe(401);
  });
});
