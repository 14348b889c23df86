import { userMessages, viewLimits, viewMessages } from '@bugtrail/domain';
import {
  countStoredEvents,
  expectRefused,
  http,
  registerAuditor,
  registerUser,
  SseReader,
  type TestUser,
} from '@bugtrail/testing';
import { startTestSystem, type TestSystem } from '@bugtrail/testing/system';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** api.md "Saved views": GET /api/views, POST /api/views, DELETE /api/views/{id}, per user. */
describe('saved views', () => {
  let t: TestSystem;
  let api: ReturnType<typeof http>;
  let admin: TestUser;
  let tester: TestUser;
  let developer: TestUser;

  const eventCount = () => countStoredEvents(t.system.pool);
  const refused = (status: number, call: () => Promise<{ status: number; body: any }>) =>
    expectRefused(t.system.pool, status, call);
  const save = (user: TestUser, body: unknown, headers?: Record<string, string>) =>
    api.post('/api/views', body, user.token, headers);
  const list = async (user: TestUser) => {
    const answer = await api.get('/api/views', user.token);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body as Array<{ _id: string; name: string; path: string; query: string; createdAt: string }>;
  };

  beforeAll(async () => {
    t = await startTestSystem();
    api = http(t.url);
    admin = await registerUser(t.url, 'admin');
    tester = await registerUser(t.url, 'tester');
    developer = await registerUser(t.url, 'developer');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('saves, lists (oldest first) and deletes a user’s views; each answer is visible at once', async () => {
    const user = await registerUser(t.url, 'tester');
    expect(await list(user)).toEqual([]);

    const first = await save(user, {
      name: '  Open login bugs ',
      path: '/tester/all-bugs',
      query: '?status=Open&q=login',
    });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body).toEqual({
      _id: expect.any(String),
      name: 'Open login bugs',
      path: '/tester/all-bugs',
      query: 'status=Open&q=login',
      createdAt: expect.any(String),
    });
    expect(Number.isNaN(Date.parse(first.body.createdAt))).toBe(false);
    expect(first.headers.get('x-event-position')).toBeTruthy();
    const second = await save(user, { name: 'Everything', path: '/tester/bugs', query: '' });
    expect(second.status).toBe(201);
    const third = await save(user, { name: 'No query given', path: '/tester/bugs' });
    expect(third.status).toBe(201);
    expect(third.body.query).toBe('');

    // Read-your-writes: the list shows them without waiting, in the order they were saved.
    expect(await list(user)).toEqual([first.body, second.body, third.body]);

    const removed = await api.delete(`/api/views/${second.body._id}`, user.token);
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    expect(removed.body).toEqual({ message: viewMessages.deleted, _id: second.body._id });
    expect(removed.headers.get('x-event-position')).toBeTruthy();
    expect(await list(user)).toEqual([first.body, third.body]);
    // Gone is gone: deleting it again is a 404.
    await refused(404, () => api.delete(`/api/views/${second.body._id}`, user.token));
    await refused(404, () => api.delete('/api/views/no-such-view', user.token));

    const events = await t.system.store.readStream(`views-${user.id}`);
    expect(events.map((e) => e.type)).toEqual(['ViewSaved', 'ViewSaved', 'ViewSaved', 'ViewDeleted']);
    expect(events[0]).toMatchObject({
      data: {
        viewId: first.body._id,
        userId: user.id,
        name: 'Open login bugs',
        path: '/tester/all-bugs',
        query: 'status=Open&q=login',
      },
      metadata: { actorId: user.id, occurredAt: first.body.createdAt },
    });
  });

  it('is personal: nobody else lists or deletes a view (404), admins included', async () => {
    const mine = await save(developer, {
      name: 'My assigned',
      path: '/developer/assigned-bugs',
      query: 'status=In%20Progress',
    });
    expect(mine.status).toBe(201);
    for (const other of [tester, admin]) {
      expect((await list(other)).map((v) => v._id)).not.toContain(mine.body._id);
      const answer = await refused(404, () => api.delete(`/api/views/${mine.body._id}`, other.token));
      expect(answer.body.message).toBe(viewMessages.notFound);
    }
    // The same name is free for someone else.
    expect((await save(tester, { name: 'My assigned', path: '/tester/bugs', query: '' })).status).toBe(201);
    expect((await list(developer)).map((v) => v._id)).toContain(mine.body._id);
  });

  it('answers 400 with the field and its message for each bad input, and appends nothing', async () => {
    const ok = { name: 'A view', path: '/admin/bugs', query: 'status=Open' };
    const cases: Array<[unknown, string, string]> = [
      [{ path: ok.path, query: '' }, 'name', viewMessages.nameRequired],
      [{ ...ok, name: '   ' }, 'name', viewMessages.nameRequired],
      [{ ...ok, name: 42 }, 'name', viewMessages.nameNotText],
      [{ ...ok, name: 'n'.repeat(viewLimits.nameMax + 1) }, 'name', viewMessages.nameTooLong],
      [{ name: ok.name, query: '' }, 'path', viewMessages.pathRequired],
      [{ ...ok, path: '' }, 'path', viewMessages.pathRequired],
      [{ ...ok, path: ['/admin/bugs'] }, 'path', viewMessages.pathNotText],
      [{ ...ok, path: 'admin/bugs' }, 'path', viewMessages.pathInvalid],
      [{ ...ok, path: '//evil.example/admin/bugs' }, 'path', viewMessages.pathInvalid],
      [{ ...ok, path: '/admin//bugs' }, 'path', viewMessages.pathInvalid],
      [{ ...ok, path: 'https://evil.example/admin/bugs' }, 'path', viewMessages.pathInvalid],
      [{ ...ok, path: '/\\evil.example' }, 'path', viewMessages.pathInvalid],
      [{ ...ok, path: '/admin/bugs?status=Open' }, 'path', viewMessages.pathInvalid],
      [{ ...ok, path: `/${'p'.repeat(viewLimits.pathMax)}` }, 'path', viewMessages.pathTooLong],
      [{ ...ok, query: 7 }, 'query', viewMessages.queryNotText],
      [{ ...ok, query: 'q'.repeat(viewLimits.queryMax + 1) }, 'query', viewMessages.queryTooLong],
      [{ ...ok, query: `?${'q'.repeat(viewLimits.queryMax + 1)}` }, 'query', viewMessages.queryTooLong],
      [{ ...ok, query: 'status=Open#top' }, 'query', viewMessages.queryInvalid],
    ];
    for (const [body, field, message] of cases) {
      const answer = await refused(400, () => save(tester, body));
      expect(answer.body.message, JSON.stringify(body).slice(0, 80)).toBe(message);
      expect(answer.body.details).toEqual([{ field, message }]);
    }
    // Several at once: each field with its message.
    const several = await refused(400, () => save(tester, { name: '', path: 'nope', query: 3 }));
    expect(several.body.details).toEqual([
      { field: 'name', message: viewMessages.nameRequired },
      { field: 'path', message: viewMessages.pathInvalid },
      { field: 'query', message: viewMessages.queryNotText },
    ]);
    // Not JSON, not an object, not JSON at all.
    await refused(400, () =>
      api.call('POST', '/api/views', {
        raw: '{"name":',
        token: tester.token,
        headers: { 'content-type': 'application/json' },
      }),
    );
    await refused(400, () => save(tester, [ok]));
    await refused(415, () =>
      api.call('POST', '/api/views', { raw: 'name=x', token: tester.token, headers: { 'content-type': 'text/plain' } }),
    );
    // The limits themselves are fine; a query of the full length with its "?" too.
    const longest = await save(tester, {
      name: 'n'.repeat(viewLimits.nameMax),
      path: `/${'p'.repeat(viewLimits.pathMax - 1)}`,
      query: `?${'q'.repeat(viewLimits.queryMax)}`,
    });
    expect(longest.status, JSON.stringify(longest.body)).toBe(201);
    expect(longest.body.query).toHaveLength(viewLimits.queryMax);
  });

  it('refuses a name the user already has (409), in any case; another name is fine', async () => {
    const user = await registerUser(t.url, 'developer');
    expect((await save(user, { name: 'Blockers', path: '/developer/assigned-bugs', query: '' })).status).toBe(201);
    for (const name of ['Blockers', ' blockers ', 'BLOCKERS']) {
      const answer = await refused(409, () => save(user, { name, path: '/developer/bugs', query: 'x=1' }));
      expect(answer.body.message).toBe(viewMessages.duplicateName);
    }
    // Two saves of one new name at once: one is saved, the other is the duplicate.
    const both = await Promise.all([
      save(user, { name: 'Raced', path: '/developer/bugs', query: 'a=1' }),
      save(user, { name: 'Raced', path: '/developer/bugs', query: 'b=2' }),
    ]);
    expect(both.map((a) => a.status).sort()).toEqual([201, 409]);
    expect((await list(user)).filter((v) => v.name === 'Raced')).toHaveLength(1);
  });

  it(`keeps at most ${viewLimits.perUser} views per user (409), and makes room when one is deleted`, async () => {
    const user = await registerUser(t.url, 'tester');
    const ids: string[] = [];
    for (let i = 0; i < viewLimits.perUser; i++) {
      const answer = await save(user, { name: `View ${i}`, path: '/tester/bugs', query: `page=${i}` });
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      ids.push(answer.body._id);
    }
    const full = await refused(409, () => save(user, { name: 'One too many', path: '/tester/bugs', query: '' }));
    expect(full.body.message).toBe(viewMessages.limitReached);
    expect((await list(user)).map((v) => v._id)).toEqual(ids);
    // The limit is per user.
    expect((await save(developer, { name: 'One too many', path: '/developer/bugs', query: '' })).status).toBe(201);
    expect((await api.delete(`/api/views/${ids[0]}`, user.token)).status).toBe(200);
    expect((await save(user, { name: 'One too many', path: '/tester/bugs', query: '' })).status).toBe(201);
  });

  it('honours Idempotency-Key: the same save again is the same view, appended once', async () => {
    const user = await registerUser(t.url, 'tester');
    const body = { name: 'Retried', path: '/tester/bugs', query: 'status=Closed' };
    const key = { 'Idempotency-Key': `save-view-${user.id}` };
    const before = await eventCount();
    const first = await save(user, body, key);
    const again = await save(user, body, key);
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await eventCount()).toBe(before + 1);
    const other = await refused(422, () => save(user, { ...body, name: 'Something else' }, key));
    expect(other.body.message).toBe('Idempotency-Key was already used for a different request');
  });

  it('answers 401 without a valid token', async () => {
    await refused(401, () => api.get('/api/views'));
    await refused(401, () => api.get('/api/views', 'not-a-token'));
    await refused(401, () => api.post('/api/views', { name: 'x', path: '/admin/bugs', query: '' }));
    await refused(401, () => api.delete('/api/views/anything'));
  });

  it('auditors list their own (none) and save or delete nothing (ADR 012)', async () => {
    const auditor = await registerAuditor(t.url, admin.token);
    expect(await list(auditor)).toEqual([]);
    const refusal = await refused(403, () => save(auditor, { name: 'Audit', path: '/auditor/bugs', query: '' }));
    expect(refusal.body.message).toBe(userMessages.readOnlyRole);
    const theirs = (await list(tester))[0]!;
    await refused(403, () => api.delete(`/api/views/${theirs._id}`, auditor.token));
  });

  it('tells the owner’s live stream that their views changed, and nobody else’s', async () => {
    const owner = await registerUser(t.url, 'tester');
    const [mine, theirs] = await Promise.all([SseReader.open(t.url, owner.token), SseReader.open(t.url, admin.token)]);
    try {
      const saved = await save(owner, { name: 'Live', path: '/tester/bugs', query: '' });
      expect(saved.status).toBe(201);
      await mine.waitFor((m) => m.topics.includes(`views:${owner.id}`));
      // Everyone hears a new user: once the admin has, they have had everything before it.
      const marker = await registerUser(t.url, 'tester');
      await theirs.waitFor((m) => m.topics.includes(`user:${marker.id}`));
      expect(theirs.topics().filter((topic) => topic.startsWith('views'))).toEqual([]);
    } finally {
      mine.close();
      theirs.close();
    }
  });

  it('the views projection rebuilds to the same rows', async () => {
    const snapshot = async () =>
      (
        await t.system.pool.query('select to_jsonb(r) as row from rm.saved_views r order by user_id, position')
      ).rows.map((r) => r.row);
    const before = await snapshot();
    expect(before.length).toBeGreaterThan(100);
    expect(await t.system.projector.compareWithRebuild('views')).toEqual([]);
    const answers = await Promise.all([tester, developer].map(list));
    await t.system.projector.rebuild('views');
    expect(await snapshot()).toEqual(before);
    expect(await Promise.all([tester, developer].map(list))).toEqual(answers);
  });
});
