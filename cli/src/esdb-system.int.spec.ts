import { http, registerUser, type TestUser } from '@bugtrail/testing';
import { type EsdbProtocolServer, startEsdbProtocolServer } from '@bugtrail/testing/esdb';
import { startTestSystem, type TestSystem } from '@bugtrail/testing/system';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyCommand } from './audit-commands.js';

/**
 * The whole product with its events in "EventStoreDB" (EVENTSTORE_CONNECTION_STRING):
 * accounts, read models and checkpoints stay in PostgreSQL, every event goes through the
 * EventStoreDB adapter to the protocol server on 127.0.0.1 (testing/src/esdb-protocol-server.ts).
 */
describe('the system on the EventStoreDB adapter, against the protocol server on 127.0.0.1 (a test double, not EventStoreDB)', () => {
  let esdb: EsdbProtocolServer;
  let t: TestSystem;
  let admin: TestUser;
  let developer: TestUser;
  let bugId: string;

  beforeAll(async () => {
    esdb = await startEsdbProtocolServer();
    t = await startTestSystem({ config: { eventstoreConnectionString: esdb.connectionString } });
    admin = await registerUser(t.url, 'admin');
    developer = await registerUser(t.url, 'developer', 'Dana Dev');
  });
  afterAll(async () => {
    await t?.close();
    await esdb?.close();
  });

  it('reports a bug over HTTP and reads it back at once, its events in the protocol server only', async () => {
    const api = http(t.url);
    const appendsBefore = esdb.counters.batchAppends;
    const reported = await api.post(
      '/api/bugs',
      {
        title: 'Export drops the last row',
        description: 'The xlsx export loses its final row',
        priority: 'High',
        severity: 'Major',
        assignedTo: [developer.id],
      },
      admin.token,
    );
    expect(reported.status).toBe(201);
    bugId = reported.body.bug._id;
    // Read-your-writes: the write waited for the projector, fed by the adapter's subscription.
    const read = await api.get(`/api/bugs/${bugId}`, developer.token);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ _id: bugId, title: 'Export drops the last row', status: 'Open' });

    expect(esdb.counters.batchAppends).toBeGreaterThan(appendsBefore);
    const stored = await t.system.store.readStream(`bug-${bugId}`);
    expect(stored[0]).toMatchObject({ type: 'BugReported', revision: 0, hash: expect.any(String) });
    // `created` travels as .NET ticks: decoded, it is the time of the report.
    expect(Math.abs(stored[0]!.recordedAt.getTime() - Date.now())).toBeLessThan(60_000);
    // PostgreSQL's event table (migrated all the same) holds no event at all: users' neither.
    const inPostgres = await t.system.pool.query('select count(*)::int as n from eventstore.events');
    expect(inPostgres.rows[0].n).toBe(0);
  });

  it('an update is read back at once and is in the bug history, its chain intact', async () => {
    const api = http(t.url);
    const moved = await api.put(`/api/bugs/${bugId}/status`, { status: 'In Progress' }, developer.token);
    expect(moved.status).toBe(200);
    expect((await api.get(`/api/bugs/${bugId}`, developer.token)).body.status).toBe('In Progress');

    const history = await api.get(`/api/bugs/${bugId}/history`, admin.token);
    expect(history.status).toBe(200);
    const statusChange = history.body.events.find((e: { type: string }) => e.type === 'BugStatusChanged');
    expect(statusChange.changes).toContainEqual(
      expect.objectContaining({ field: 'status', from: 'Open', to: 'In Progress' }),
    );
    expect(statusChange.actor).toMatchObject({ _id: developer.id, name: 'Dana Dev' });
    expect(history.body.integrity).toEqual({ ok: true, events: history.body.events.length, brokenAt: null });
  });

  it('the audit chain verifies, projections rebuilt from the adapter match, and an edited event is caught', async () => {
    const api = http(t.url);
    const clean = await api.get('/api/audit/verify', admin.token);
    expect(clean.body).toMatchObject({ ok: true, broken: [] });
    expect(clean.body.events).toBeGreaterThanOrEqual(4);
    const lines: string[] = [];
    expect(await verifyCommand(t.system, (line) => lines.push(line))).toBe(0);
    expect(lines.at(-1)).toBe('verify: ok');

    // Someone with the server's files rewrites the report's title.
    esdb.tamperWithEvent(`bug-${bugId}`, 0, (data) => ({ ...(data as object), title: 'Export drops no rows' }));
    const tampered = await api.get('/api/audit/verify', admin.token);
    expect(tampered.body.ok).toBe(false);
    expect(tampered.body.broken).toEqual([
      { stream: `bug-${bugId}`, revision: 0, reason: 'hash does not match the event and its predecessor' },
    ]);
    const history = await api.get(`/api/bugs/${bugId}/history`, admin.token);
    expect(history.body.integrity).toMatchObject({ ok: false, brokenAt: 0 });
  }, 120_000);
});
