import { http } from '@bugtrail/testing';
import { startTestSystem, type TestSystem } from '@bugtrail/testing/system';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, seed } from './seed.js';

describe('bugtrail seed', () => {
  let t: TestSystem;
  beforeAll(async () => {
    t = await startTestSystem();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('writes demo users and bugs through the event store, and adds nothing the second time', async () => {
    const count = async () =>
      (await t.system.pool.query<{ n: number }>('select count(*)::int as n from eventstore.events')).rows[0]!.n;
    await seed(t.system, []);
    const events = await count();
    expect(events).toBeGreaterThan(150);
    await seed(t.system, []);
    expect(await count()).toBe(events);

    const api = http(t.url);
    const login = await api.post('/api/auth/login', { email: 'admin@demo.bugtrail.test', password: DEMO_PASSWORD });
    expect(login.status).toBe(200);
    const dashboard = await api.get('/api/bugs/admin-dashboard', login.body.token);
    expect(dashboard.body.statistics).toMatchObject({
      totalBugs: 35,
      openBugs: 11,
      inProgressBugs: 12,
      closedBugs: 12,
    });
    const team = await api.get('/api/users', login.body.token);
    expect(team.body).toHaveLength(6);
  });
});
