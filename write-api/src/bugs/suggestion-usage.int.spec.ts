import { http, registerAuditor, registerUser, type TestUser } from '@bugtrail/testing';
import { startTestSystem, type TestSystem } from '@bugtrail/testing/system';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The report form's triage suggestions, recorded (issue 14): `POST /api/bugs` takes an
 * optional `suggestions { shown, taken }`, stores it in the BugReported event's metadata
 * (never in the bug), and the admin dashboard counts how often each kind is taken.
 */
describe('suggestion usage on a report', () => {
  let t: TestSystem;
  let api: ReturnType<typeof http>;
  let ada: TestUser;
  let tess: TestUser;
  let dana: TestUser;
  const bug = { title: 'Search box loses focus', description: 'Typing in the search box drops the cursor.' };

  const reportedMetadata = async (bugId: string) => {
    const events = await t.system.store.readStream(`bug-${bugId}`);
    const reported = events.find((e) => e.type === 'BugReported')!;
    return { reported, others: events.filter((e) => e.type !== 'BugReported') };
  };

  beforeAll(async () => {
    t = await startTestSystem();
    api = http(t.url);
    ada = await registerUser(t.url, 'admin', 'Ada Admin');
    tess = await registerUser(t.url, 'tester', 'Tess Tester');
    dana = await registerUser(t.url, 'developer', 'Dana Developer');
  });
  afterAll(() => t?.close());

  it('records what was shown and taken in the BugReported metadata only', async () => {
    const res = await api.post(
      '/api/bugs',
      {
        ...bug,
        assignedTo: [dana.id],
        suggestions: { shown: ['duplicates', 'severity', 'priority'], taken: ['severity'] },
      },
      tess.token,
    );
    expect(res.status).toBe(201);
    expect(res.body.bug).not.toHaveProperty('suggestions');
    const { reported, others } = await reportedMetadata(res.body.bug._id);
    expect(reported.metadata).toMatchObject({
      actorId: tess.id,
      suggestions: { shown: ['duplicates', 'severity', 'priority'], taken: ['severity'] },
    });
    expect(others.length).toBeGreaterThan(0);
    for (const e of others) expect(e.metadata).not.toHaveProperty('suggestions');
  });

  it('leaves reports without it as they were', async () => {
    const res = await api.post('/api/bugs', { ...bug, assignedTo: [dana.id] }, tess.token);
    expect(res.status).toBe(201);
    const { reported } = await reportedMetadata(res.body.bug._id);
    expect(reported.metadata).not.toHaveProperty('suggestions');
    const nulled = await api.post('/api/bugs', { ...bug, assignedTo: [dana.id], suggestions: null }, tess.token);
    expect(nulled.status).toBe(201);
    expect((await reportedMetadata(nulled.body.bug._id)).reported.metadata).not.toHaveProperty('suggestions');
  });

  it('drops kinds it does not know, counts each once, and counts a taken kind as shown', async () => {
    const res = await api.post(
      '/api/bugs',
      {
        ...bug,
        assignedTo: [dana.id],
        suggestions: { shown: ['priority', 'sentiment', 'priority'], taken: ['assignees', 'duplicates', 'mood'] },
      },
      ada.token,
    );
    expect(res.status).toBe(201);
    const { reported } = await reportedMetadata(res.body.bug._id);
    expect(reported.metadata.suggestions).toEqual({ shown: ['priority', 'assignees'], taken: ['assignees'] });
  });

  it('refuses a suggestions field that is not lists of words, and appends nothing', async () => {
    const before = await t.system.store.headPosition();
    for (const suggestions of [
      'severity',
      { shown: 'severity' },
      { shown: [1, 2] },
      { taken: [{ kind: 'severity' }] },
      { shown: Array.from({ length: 17 }, () => 'severity') },
    ]) {
      const res = await api.post('/api/bugs', { ...bug, assignedTo: [dana.id], suggestions }, tess.token);
      expect(res.status, JSON.stringify(suggestions)).toBe(400);
      expect(res.body.details?.[0]?.field).toMatch(/^suggestions/);
    }
    expect(await t.system.store.headPosition()).toBe(before);
  });

  it('shows on the admin dashboard how often each kind was shown and taken', async () => {
    const res = await api.post(
      '/api/bugs',
      {
        ...bug,
        assignedTo: [dana.id],
        suggestions: { shown: ['duplicates', 'severity', 'assignees'], taken: [] },
      },
      tess.token,
    );
    expect(res.status).toBe(201);
    const dashboard = await api.get('/api/bugs/admin-dashboard', ada.token, {
      'X-Min-Position': res.headers.get('x-event-position')!,
    });
    expect(dashboard.status).toBe(200);
    expect(dashboard.body.suggestions).toEqual({
      reports: 3,
      shown: { duplicates: 2, severity: 2, priority: 2, assignees: 2 },
      taken: { severity: 1, priority: 0, assignees: 1 },
    });
    // Auditors read the admin's dashboard; testers' dashboards have no such counts.
    const auditor = await registerAuditor(t.url, ada.token);
    expect((await api.get('/api/bugs/admin-dashboard', auditor.token)).body.suggestions).toMatchObject({ reports: 3 });
    expect((await api.get('/api/bugs/tester-dashboard', tess.token)).body).not.toHaveProperty('suggestions');
    // As it was then: now, the same counts; before the first report, none.
    const then = await api.get(
      `/api/bugs/admin-dashboard?asOf=${encodeURIComponent(new Date().toISOString())}`,
      ada.token,
    );
    expect(then.status).toBe(200);
    expect(then.body.suggestions).toEqual(dashboard.body.suggestions);
    const before = await api.get('/api/bugs/admin-dashboard?asOf=2000-01-01', ada.token);
    expect(before.body.suggestions).toEqual({
      reports: 0,
      shown: { duplicates: 0, severity: 0, priority: 0, assignees: 0 },
      taken: { severity: 0, priority: 0, assignees: 0 },
    });
  });

  it('counts the same after a rebuild of the projection', async () => {
    const before = (await api.get('/api/bugs/admin-dashboard', ada.token)).body.suggestions;
    await t.system.projector!.rebuild('triage');
    expect((await api.get('/api/bugs/admin-dashboard', ada.token)).body.suggestions).toEqual(before);
  });
});
