import { http } from '@bugtrail/testing';
import { startTestSystem, type TestSystem } from '@bugtrail/testing/system';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

describe('the first slice: register → UserRegistered → users read model → profile', () => {
  let t: TestSystem;
  beforeAll(async () => {
    t = await startTestSystem();
  });
  afterAll(async () => {
    await t.close();
  });

  it('registers a user and reads it back at once (read-your-writes)', async () => {
    const api = http(t.url);
    const registered = await api.post('/api/auth/register', {
      name: 'Ann Tester',
      email: 'Ann@Example.com',
      password: 'secret123',
    });
    expect(registered.status).toBe(201);
    expect(registered.body).toMatchObject({ role: 'tester', name: 'Ann Tester', email: 'ann@example.com' });
    expect(registered.headers.get('x-event-position')).toMatch(/^[0-9a-f]{32}$/);
    expect(registered.headers.get('x-read-model-lag')).toBeNull();
    const profile = await api.get('/api/auth/profile', registered.body.token);
    expect(profile.status).toBe(200);
    expect(profile.body.user).toEqual({
      _id: registered.body._id,
      name: 'Ann Tester',
      email: 'ann@example.com',
      role: 'tester',
      profileImageURL: null,
      profileImageUrl: null,
      // The caller's own settings ride on the profile (api.md "People").
      preferences: { email: 'immediate' },
    });
  });

  it('stores no password hash in any event', async () => {
    const { rows } = await t.system.pool.query(
      "select data::text from eventstore.events where data::text ilike '%argon%' or data::text ilike '%password%'",
    );
    expect(rows).toEqual([]);
  });
});
