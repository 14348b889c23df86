import { http, registerUser, type TestUser } from '@bugtrail/testing';
import { startTestSystem, type TestSystem } from '@bugtrail/testing/system';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLAIM_OWNER_SPACE } from './claim-owner.js';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);
const REUSED = 'Idempotency-Key was already used for a different request';

/** Idempotency-Key at write-api's door (idempotency.ts), over real HTTP on a real PostgreSQL. */
describe('Idempotency-Key', () => {
  let t: TestSystem;
  let api: ReturnType<typeof http>;
  let tester: TestUser;
  let otherTester: TestUser;
  let developer: TestUser;
  let keys = 0;
  const newKey = () => `key-${Date.now()}-${++keys}`;

  const eventCount = async () =>
    Number((await t.system.pool.query('select count(*)::int as n from eventstore.events')).rows[0].n);
  const bugsReportedBy = async (user: TestUser) =>
    Number(
      (
        await t.system.pool.query(
          "select count(*)::int as n from eventstore.events where type = 'BugReported' and metadata->>'actorId' = $1",
          [user.id],
        )
      ).rows[0].n,
    );

  const validBug = (overrides: Record<string, unknown> = {}) => ({
    title: 'Login button does nothing',
    description: 'Clicking the login button has no effect at all',
    priority: 'High',
    severity: 'Major',
    assignedTo: [developer.id],
    checklist: ['Open /login', 'Click Login'],
    ...overrides,
  });
  const report = (by: TestUser, key: string | null, body: unknown = validBug(), path = '/api/bugs') =>
    api.post(path, body, by.token, key ? { 'idempotency-key': key } : {});

  function upload(form: FormData, key: string) {
    return fetch(`${t.url}/api/auth/upload-image`, { method: 'POST', body: form, headers: { 'idempotency-key': key } });
  }
  const imageForm = (size = PNG.byteLength) => {
    const bytes = new Uint8Array(size);
    bytes.set(PNG);
    const form = new FormData();
    form.append('image', new Blob([bytes], { type: 'image/png' }), 'me.png');
    return form;
  };

  beforeAll(async () => {
    t = await startTestSystem();
    api = http(t.url);
    tester = await registerUser(t.url, 'tester', 'Tess Tester');
    otherTester = await registerUser(t.url, 'tester', 'Otto Tester');
    developer = await registerUser(t.url, 'developer', 'Dev Eloper');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers the same request again with the first answer, marked as replayed, and appends nothing', async () => {
    const key = newKey();
    const before = await bugsReportedBy(tester);
    const first = await report(tester, key);
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const events = await eventCount();

    const second = await report(tester, key);
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.headers.get('content-type')).toBe(first.headers.get('content-type'));
    expect(second.headers.get('x-event-position')).toBe(first.headers.get('x-event-position'));
    expect(second.headers.get('etag')).toBe(first.headers.get('etag'));
    // The correlation id is the replay's own.
    expect(second.headers.get('x-correlation-id')).not.toBe(first.headers.get('x-correlation-id'));
    expect(await eventCount()).toBe(events);
    expect(await bugsReportedBy(tester)).toBe(before + 1);
  });

  it('refuses the same key with a different body (422) and appends nothing', async () => {
    const key = newKey();
    expect((await report(tester, key)).status).toBe(201);
    const events = await eventCount();
    const other = await report(tester, key, validBug({ title: 'Logout button does nothing' }));
    expect(other.status).toBe(422);
    expect(other.body).toEqual({ message: REUSED });
    // The same fields, serialized differently, are a different body too (the bytes are hashed).
    const reordered = await api.call('POST', '/api/bugs', {
      raw: JSON.stringify(validBug()).replace('{', '{ '),
      token: tester.token,
      headers: { 'content-type': 'application/json', 'idempotency-key': key },
    });
    expect(reordered.status).toBe(422);
    expect(await eventCount()).toBe(events);
  });

  it('refuses the same key for a different path or method (422)', async () => {
    const key = newKey();
    const first = await report(tester, key);
    expect(first.status).toBe(201);
    const events = await eventCount();
    const chat = await api.post('/api/chats', { name: 'Team', participants: [developer.id] }, tester.token, {
      'idempotency-key': key,
    });
    expect(chat.status).toBe(422);
    expect(chat.body).toEqual({ message: REUSED });
    const withQuery = await report(tester, key, validBug(), '/api/bugs?again=1');
    expect(withQuery.status).toBe(422);
    const put = await api.put(`/api/bugs/${first.body.bug._id}`, validBug(), tester.token, { 'idempotency-key': key });
    expect(put.status).toBe(422);
    expect(await eventCount()).toBe(events);
  });

  it('keeps keys per caller: two users with the same key make two bugs', async () => {
    const key = newKey();
    const mine = await report(tester, key);
    const theirs = await report(otherTester, key);
    expect([mine.status, theirs.status]).toEqual([201, 201]);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect(theirs.body.bug._id).not.toBe(mine.body.bug._id);
    expect(theirs.body.bug.createdBy._id).toBe(otherTester.id);
  });

  it('answers concurrent identical requests with one bug and one answer', async () => {
    const key = newKey();
    const before = await bugsReportedBy(tester);
    const answers = await Promise.all(Array.from({ length: 10 }, () => report(tester, key)));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(201));
    expect(new Set(answers.map((a) => JSON.stringify(a.body))).size).toBe(1);
    expect(answers.filter((a) => a.headers.get('idempotent-replayed') === 'true')).toHaveLength(9);
    expect(await bugsReportedBy(tester)).toBe(before + 1);
  });

  it('does not keep a 400: the same request runs again, and a corrected one may use the key', async () => {
    const key = newKey();
    const before = await bugsReportedBy(tester);
    const bad = await report(tester, key, validBug({ title: 'Bug' }));
    expect(bad.status).toBe(400);
    const again = await report(tester, key, validBug({ title: 'Bug' }));
    expect(again.status).toBe(400);
    expect(again.body).toEqual(bad.body);
    expect(again.headers.get('idempotent-replayed')).toBeNull();

    const fixed = await report(tester, key);
    expect(fixed.status).toBe(201);
    expect(fixed.headers.get('idempotent-replayed')).toBeNull();
    const retried = await report(tester, key);
    expect(retried.headers.get('idempotent-replayed')).toBe('true');
    expect(retried.body).toEqual(fixed.body);
    expect(await bugsReportedBy(tester)).toBe(before + 1);
  });

  it('does not keep a 401: the same key with a valid token then runs', async () => {
    const key = newKey();
    const anonymous = await api.post('/api/bugs', validBug(), 'not-a-token', { 'idempotency-key': key });
    expect(anonymous.status).toBe(401);
    const again = await api.post('/api/bugs', validBug(), 'not-a-token', { 'idempotency-key': key });
    expect(again.status).toBe(401);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
  });

  it('keeps a decided refusal (403) and replays it', async () => {
    const key = newKey();
    const first = await report(developer, key);
    expect(first.status).toBe(403);
    const second = await report(developer, key);
    expect(second.status).toBe(403);
    expect(second.body).toEqual(first.body);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
  });

  it('leaves requests without a key as they were', async () => {
    const before = await bugsReportedBy(tester);
    const first = await report(tester, null);
    const second = await report(tester, null);
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(second.headers.get('idempotent-replayed')).toBeNull();
    expect(second.body.bug._id).not.toBe(first.body.bug._id);
    expect(await bugsReportedBy(tester)).toBe(before + 2);
  });

  it('refuses a key longer than 200 characters (400)', async () => {
    const before = await eventCount();
    const answer = await report(tester, 'k'.repeat(201));
    expect(answer.status).toBe(400);
    expect(answer.body.message).toMatch(/Idempotency-Key/);
    expect(await eventCount()).toBe(before);
    expect((await report(tester, 'k'.repeat(200))).status).toBe(201);
  });

  describe('a claim whose request died with its process (another write-api gets the retry)', () => {
    const orphan = (key: string, owner: number) =>
      t.system.pool.query(
        `update write_api.idempotency_keys set status = null, headers = null, body = null, owner = $2
         where key = $1 returning claim`,
        [key, owner],
      );

    it('is taken over at once when its owner is gone, and the retry answers as the first try would have', async () => {
      const key = newKey();
      const first = await report(tester, key);
      expect(first.status).toBe(201);
      const before = await bugsReportedBy(tester);
      // The process appended, then died before keeping its answer: nobody holds its owner lock.
      await orphan(key, 12_345);
      const retry = await report(tester, key);
      expect(retry.status).toBe(201);
      expect(retry.body.bug._id).toBe(first.body.bug._id);
      expect(await bugsReportedBy(tester)).toBe(before);
    });

    it('is waited for while its owner lives, and taken over the moment the owner is gone', async () => {
      const key = newKey();
      const first = await report(tester, key);
      const before = await bugsReportedBy(tester);
      const owner = await t.system.pool.connect();
      try {
        await owner.query('select pg_advisory_lock($1, $2)', [CLAIM_OWNER_SPACE, 54_321]);
        const { rows } = await orphan(key, 54_321);
        let settled = false;
        const retry = report(tester, key).finally(() => {
          settled = true;
        });
        await new Promise((resolve) => setTimeout(resolve, 1000));
        expect(settled).toBe(false);
        const held = await t.system.pool.query('select claim from write_api.idempotency_keys where key = $1', [key]);
        expect(held.rows[0].claim).toBe(rows[0].claim);
        await owner.query('select pg_advisory_unlock($1, $2)', [CLAIM_OWNER_SPACE, 54_321]);
        const answer = await retry;
        expect(answer.status).toBe(201);
        expect(answer.body.bug._id).toBe(first.body.bug._id);
        expect(await bugsReportedBy(tester)).toBe(before);
      } finally {
        owner.release(true);
      }
    });
  });

  it('forgets a key after 24 hours', async () => {
    const key = newKey();
    const first = await report(tester, key);
    expect(first.status).toBe(201);
    await t.system.pool.query(
      "update write_api.idempotency_keys set created_at = now() - interval '25 hours' where key = $1",
      [key],
    );
    const later = await report(tester, key, validBug({ title: 'Another bug entirely' }));
    expect(later.status).toBe(201);
    expect(later.headers.get('idempotent-replayed')).toBeNull();
  });

  describe('multipart bodies (anonymous upload-image, scoped by client address)', () => {
    it('replays a re-encoded form (a fresh boundary is still the same request); another file is 422', async () => {
      const key = newKey();
      const first = await upload(imageForm(), key);
      expect(first.status).toBe(201);
      const firstBody = await first.json();
      // FormData gets a new random boundary each time it is sent.
      const second = await upload(imageForm(), key);
      expect(second.status).toBe(201);
      expect(second.headers.get('idempotent-replayed')).toBe('true');
      expect(await second.json()).toEqual(firstBody);
      const other = await upload(imageForm(PNG.byteLength + 1), key);
      expect(other.status).toBe(422);
      expect(await other.json()).toEqual({ message: REUSED });
    });

    it('hands bodies over 1 MB to the route untouched, fingerprinted by their length', async () => {
      const key = newKey();
      const first = await upload(imageForm(2 * 1024 * 1024), key);
      expect(first.status).toBe(201);
      const firstBody = await first.json();
      const second = await upload(imageForm(2 * 1024 * 1024), key);
      expect(second.headers.get('idempotent-replayed')).toBe('true');
      expect(await second.json()).toEqual(firstBody);
      expect((await upload(imageForm(2 * 1024 * 1024 + 1), key)).status).toBe(422);
    });

    it('hands a streamed body of unknown length over 1 MB to the route whole', async () => {
      const encoded = new Response(imageForm(3 * 1024 * 1024));
      const type = encoded.headers.get('content-type')!;
      const bytes = new Uint8Array(await encoded.arrayBuffer());
      const chunked = new ReadableStream<Uint8Array>({
        start(controller) {
          for (let at = 0; at < bytes.byteLength; at += 256 * 1024)
            controller.enqueue(bytes.slice(at, at + 256 * 1024));
          controller.close();
        },
      });
      const answer = await fetch(`${t.url}/api/auth/upload-image`, {
        method: 'POST',
        body: chunked,
        headers: { 'content-type': type, 'idempotency-key': newKey() },
        duplex: 'half',
      } as RequestInit);
      expect(answer.status, await answer.clone().text()).toBe(201);
      const { imageURL } = (await answer.json()) as { imageURL: string };
      const stored = await fetch(imageURL);
      expect(stored.status).toBe(200);
      expect((await stored.arrayBuffer()).byteLength).toBe(3 * 1024 * 1024);
    });
  });
  it('never keeps an answer that carries a session token: login runs again', async () => {
    const key = newKey();
    const body = { email: tester.email, password: 'correct horse battery' };
    const first = await api.post('/api/auth/login', body, undefined, { 'idempotency-key': key });
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toBe('no-store');
    const second = await api.post('/api/auth/login', body, undefined, { 'idempotency-key': key });
    expect(second.status).toBe(200);
    expect(second.headers.get('idempotent-replayed')).toBeNull();
    const kept = await t.system.pool.query(
      "select 1 from write_api.idempotency_keys where body is not null and position('token' in convert_from(body, 'UTF8')) > 0",
    );
    expect(kept.rows).toEqual([]);
  });
});
