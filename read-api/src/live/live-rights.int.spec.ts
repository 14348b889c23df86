import { http, registerUser, SseReader, type TestUser } from '@bugtrail/testing';
import { startTestSystem, type TestSystem } from '@bugtrail/testing/system';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * A role change re-checks the user's open live streams (api.md "Second round of safety"):
 * a demoted admin's API-token stream (the token keeps working, with the new role) hears
 * nothing it may no longer see: it ends with `retry:`, and the stream opened again hears as a tester.
 */
describe('live streams follow the user’s current rights', () => {
  let t: TestSystem;
  let admin: TestUser;
  let otherAdmin: TestUser;
  let tester: TestUser;
  let developer: TestUser;
  const readers: SseReader[] = [];

  beforeAll(async () => {
    t = await startTestSystem();
    admin = await registerUser(t.url, 'admin');
    otherAdmin = await registerUser(t.url, 'admin');
    tester = await registerUser(t.url, 'tester');
    developer = await registerUser(t.url, 'developer');
  });
  afterAll(async () => {
    for (const reader of readers) reader.close();
    await t?.close();
  });

  const report = async (title: string, by: TestUser) => {
    const answer = await http(t.url).post(
      '/api/bugs',
      { title, description: `${title}, every time`, priority: 'High', severity: 'Major', assignedTo: [developer.id] },
      by.token,
    );
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    return answer.body.bug._id as string;
  };

  it('a demoted admin’s open token stream stops hearing admin-only bug topics', async () => {
    const api = http(t.url);
    const minted = await api.post('/api/tokens', { name: 'dashboard', scope: 'read' }, admin.token);
    expect(minted.status, JSON.stringify(minted.body)).toBe(201);
    const secret = minted.body.secret as string;
    const theirs = await report('Only its reporter and admins may see this', tester);
    const own = await report('Reported by the admin', admin);

    const stream = await SseReader.open(t.url, secret);
    readers.push(stream);
    expect((await api.put(`/api/bugs/${theirs}/status`, { status: 'In Progress' }, developer.token)).status).toBe(200);
    await stream.waitFor((m) => m.topics.some((topic) => topic.includes(theirs)));

    const demoted = await api.put(`/api/users/${admin.id}/role`, { role: 'tester' }, otherAdmin.token);
    expect(demoted.status, JSON.stringify(demoted.body)).toBe(200);
    // The open stream ends and asks the client to come back soon, with its new rights.
    await stream.waitForEnd();
    expect(stream.retryMs).toBe(1000);

    const again = await SseReader.open(t.url, secret);
    readers.push(again);
    const from = again.messages.length;
    expect((await api.put(`/api/bugs/${theirs}/status`, { status: 'Closed' }, developer.token)).status).toBe(200);
    expect((await api.put(`/api/bugs/${own}/status`, { status: 'In Progress' }, developer.token)).status).toBe(200);
    // Its own bug's change comes after the other one's: once it is heard, the other would have been too.
    await again.waitFor((m) => m.topics.some((topic) => topic.includes(own)), 20_000, from);
    expect(again.messages.slice(from).some((m) => m.topics.some((topic) => topic.includes(theirs)))).toBe(false);
  });
});
