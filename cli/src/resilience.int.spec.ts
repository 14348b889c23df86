import { http, type RestartableCluster, startRestartableCluster } from '@bugtrail/testing';
import { startTestSystem, type TestSystem } from '@bugtrail/testing/system';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** Polls until `check` holds; the test's timeout bounds the wait. */
async function eventually(check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 100));
}

let registered = 0;
function newUser() {
  registered += 1;
  return { name: `Resilient ${registered}`, email: `resilient${registered}@example.com`, password: 'secret123' };
}

// Stopping PostgreSQL would break every other test file: this one has a cluster of its own.
describe('when PostgreSQL goes away', () => {
  let cluster: RestartableCluster;
  let t: TestSystem;
  beforeAll(async () => {
    cluster = await startRestartableCluster();
    t = await startTestSystem({ databaseUrl: await cluster.createDatabase('bugtrail') });
  });
  afterAll(async () => {
    await t?.close();
    await cluster?.stop();
  });

  it('the servers answer 503 with JSON, stay up, and recover by themselves when it returns', async () => {
    const api = http(t.url);
    const before = await api.post('/api/auth/register', newUser());
    expect(before.status).toBe(201);
    expect((await api.get('/api/users', before.body.token)).status).toBe(200);

    await cluster.pause();

    const read = await api.get('/api/users', before.body.token);
    expect(read.status).toBe(503);
    expect(read.headers.get('content-type')).toMatch(/application\/json/);
    expect(read.body).toEqual({ message: expect.any(String) });
    const write = await api.post('/api/auth/register', newUser());
    expect(write.status).toBe(503);
    expect(write.headers.get('content-type')).toMatch(/application\/json/);
    expect(write.body).toEqual({ message: expect.any(String) });
    const profile = await api.get('/api/auth/profile', before.body.token);
    expect(profile.status).toBe(503);
    expect((await api.get('/ready')).status).toBe(503);
    // The process is alive: liveness does not depend on the database.
    expect((await api.get('/health')).status).toBe(200);

    await cluster.resume();

    await eventually(async () => (await api.get('/api/users', before.body.token)).status === 200);
    await eventually(async () => (await api.get('/ready')).status === 200);
    // Writes, the projector and read-your-writes all work again, with nothing lost.
    const after = await api.post('/api/auth/register', newUser());
    expect(after.status).toBe(201);
    const users = await api.get('/api/users', after.body.token);
    expect(users.status).toBe(200);
    const ids = JSON.stringify(users.body);
    expect(ids).toContain(before.body._id);
    expect(ids).toContain(after.body._id);
    const again = await api.get('/api/auth/profile', after.body.token);
    expect(again.status).toBe(200);
  });
});
