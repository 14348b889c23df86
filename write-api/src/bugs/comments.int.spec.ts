import { commentMessages } from '@bugtrail/domain';
import { expectRefused, http, registerAuditor, registerUser, SseReader, type TestUser } from '@bugtrail/testing';
import { startTestSystem, type TestSystem } from '@bugtrail/testing/system';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** api.md "People", Comments: events of the bug's stream, for whoever may view the bug. */
describe('comments on bugs', () => {
  let t: TestSystem;
  let api: ReturnType<typeof http>;
  let admin: TestUser;
  let reporter: TestUser;
  let developer: TestUser;
  let outsider: TestUser;
  let otherTester: TestUser;
  let auditor: TestUser;
  let bug: { _id: string; version: number };

  const refused = (status: number, call: () => Promise<{ status: number; body: any }>) =>
    expectRefused(t.system.pool, status, call);
  const comments = async (user: TestUser) => {
    const answer = await api.get(`/api/bugs/${bug._id}/comments`, user.token);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body.comments as any[];
  };
  const post = (user: TestUser, body: unknown, headers?: Record<string, string>) =>
    api.post(`/api/bugs/${bug._id}/comments`, body, user.token, headers);

  beforeAll(async () => {
    t = await startTestSystem();
    api = http(t.url);
    admin = await registerUser(t.url, 'admin', 'Ada Admin');
    reporter = await registerUser(t.url, 'tester', 'Rae Reporter');
    otherTester = await registerUser(t.url, 'tester', 'Otto Other');
    developer = await registerUser(t.url, 'developer', 'Dev Assigned');
    outsider = await registerUser(t.url, 'developer', 'Olga Outsider');
    auditor = await registerAuditor(t.url, admin.token, 'Audrey Auditor');
    const created = await api.post(
      '/api/bugs',
      {
        title: 'Checkout button overlaps',
        description: 'On narrow screens the button hides.',
        assignedTo: [developer.id],
      },
      reporter.token,
    );
    expect(created.status).toBe(201);
    bug = created.body.bug;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('adds a comment with a mention as an event of the bug, lists it for everyone who may see the bug', async () => {
    const stream = await SseReader.open(t.url, developer.token);
    const answer = await post(reporter, { body: '  **Still** happens, @Dev Assigned  ', mentions: [developer.id] });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    expect(answer.body.comment).toEqual({
      _id: expect.any(String),
      author: { _id: reporter.id, name: 'Rae Reporter' },
      body: '**Still** happens, @Dev Assigned',
      mentions: [developer.id],
      createdAt: expect.any(String),
      editedAt: null,
      isDeleted: false,
    });
    const event = (
      await t.system.pool.query(
        'select type, metadata from eventstore.events where stream_id = $1 order by stream_revision desc limit 1',
        [`bug-${bug._id}`],
      )
    ).rows[0];
    expect(event.type).toBe('CommentAdded');
    expect(event.metadata.actorId).toBe(reporter.id);
    // Those who see the bug hear it live.
    await stream.waitFor((m) => m.topics.includes(`bug:${bug._id}`));
    for (const user of [reporter, developer, admin, auditor]) {
      expect((await comments(user)).map((c) => c._id)).toEqual([answer.body.comment._id]);
    }
    await refused(403, () => api.get(`/api/bugs/${bug._id}/comments`, outsider.token));
    await refused(403, () => api.get(`/api/bugs/${bug._id}/comments`, otherTester.token));
    await refused(404, () => api.get('/api/bugs/no-such-bug/comments', admin.token));
    // The history lists it.
    const history = await api.get(`/api/bugs/${bug._id}/history`, admin.token);
    expect(history.body.events.map((e: { type: string }) => e.type)).toContain('CommentAdded');
  });

  it('refuses empty and oversized comments, strangers, auditors, and mentions of people who cannot see the bug', async () => {
    const empty = await refused(400, () => post(reporter, { body: '   ' }));
    expect(empty.body.message).toBe(commentMessages.bodyRequired);
    await refused(400, () => post(reporter, { body: 'x'.repeat(10_001) }));
    await refused(400, () => post(reporter, { body: 'hi', mentions: 'nope' }));
    const mention = await refused(400, () => post(reporter, { body: 'Look @Olga', mentions: [outsider.id] }));
    expect(mention.body.message).toBe(commentMessages.cannotMention('Olga Outsider'));
    await refused(400, () => post(reporter, { body: 'Look', mentions: ['no-such-person'] }));
    await refused(403, () => post(outsider, { body: 'I cannot see this bug' }));
    await refused(403, () => post(auditor, { body: 'Auditors only read' }));
    await refused(401, () => api.post(`/api/bugs/${bug._id}/comments`, { body: 'anonymous' }));
    await refused(404, () => api.post('/api/bugs/no-such-bug/comments', { body: 'where' }, admin.token));
    // Admins and auditors may be mentioned: they see every bug.
    const ok = await post(developer, { body: 'cc @Ada and @Audrey', mentions: [admin.id, auditor.id] });
    expect(ok.status).toBe(201);
  });

  it('lets the author edit, the author or an admin delete; a deleted comment stays listed, empty', async () => {
    const first = (await post(developer, { body: 'Fix is on the way' })).body.comment;
    await refused(403, () => api.put(`/api/bugs/${bug._id}/comments/${first._id}`, { body: 'Hijacked' }, admin.token));
    const edited = await api.put(
      `/api/bugs/${bug._id}/comments/${first._id}`,
      { body: 'Fix is merged' },
      developer.token,
    );
    expect(edited.status).toBe(200);
    expect(edited.body.comment).toMatchObject({ body: 'Fix is merged', editedAt: expect.any(String) });
    await refused(404, () => api.put(`/api/bugs/${bug._id}/comments/nope`, { body: 'x' }, developer.token));
    await refused(403, () => api.delete(`/api/bugs/${bug._id}/comments/${first._id}`, reporter.token));

    expect((await api.delete(`/api/bugs/${bug._id}/comments/${first._id}`, admin.token)).status).toBe(204);
    expect((await api.delete(`/api/bugs/${bug._id}/comments/${first._id}`, developer.token)).status).toBe(204);
    const listed = (await comments(reporter)).find((c) => c._id === first._id);
    expect(listed).toMatchObject({ isDeleted: true, body: '', mentions: [] });
    await refused(404, () => api.put(`/api/bugs/${bug._id}/comments/${first._id}`, { body: 'Back' }, developer.token));
  });

  it('acts once for a retried POST, and a comment does not make an edit from an older version stale', async () => {
    const key = { 'Idempotency-Key': 'a6b1a3a2-5a8e-4f5f-9d6b-0b9a3f1d2c44' };
    const first = await post(reporter, { body: 'Once only' }, key);
    const again = await post(reporter, { body: 'Once only' }, key);
    expect(again.status).toBe(201);
    expect(again.body.comment._id).toBe(first.body.comment._id);
    expect((await comments(reporter)).filter((c) => c.body === 'Once only')).toHaveLength(1);

    const current = await api.get(`/api/bugs/${bug._id}`, reporter.token);
    const version = current.body.version;
    expect((await post(developer, { body: 'A comment meanwhile' })).status).toBe(201);
    const edit = await api.put(
      `/api/bugs/${bug._id}`,
      { title: 'Checkout button overlaps the total' },
      reporter.token,
      {
        'If-Match': String(version),
      },
    );
    expect(edit.status, JSON.stringify(edit.body)).toBe(200);
    // A real change meanwhile is still a conflict.
    const stale = await api.put(`/api/bugs/${bug._id}`, { title: 'Checkout button hides' }, reporter.token, {
      'If-Match': String(version),
    });
    expect(stale.status).toBe(409);
  });
});
