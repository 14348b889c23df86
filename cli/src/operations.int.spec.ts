import os from 'node:os';
import { adminUrl, http, registerUser, SseReader, type TestUser } from '@bugtrail/testing';
import { type ProductProcess, startProductProcess } from '@bugtrail/testing/process';
import { startTestSystem, type TestSystem } from '@bugtrail/testing/system';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * What operators rely on (issue 18, "Operators"): /health, /ready and /metrics on every
 * server whatever parts it runs, and a SIGTERM that loses no acknowledged write.
 */

/** One sample's value from Prometheus text: `name{labels} value`, labels given as a subset. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const wanted = Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`));
    if (wanted) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}

const report = (title: string, developer: TestUser) => ({
  title,
  description: `${title}, every time`,
  priority: 'High',
  severity: 'Major',
  dueDate: null,
  assignedTo: [developer.id],
});

describe('/metrics on the whole system in one process', () => {
  let t: TestSystem;
  let tester: TestUser;
  let developer: TestUser;
  beforeAll(async () => {
    t = await startTestSystem();
    tester = await registerUser(t.url, 'tester');
    developer = await registerUser(t.url, 'developer');
  });
  afterAll(() => t?.close());

  it('counts requests per route pattern, times appends, and tells live clients and projector lag', async () => {
    const api = http(t.url);
    const created = await api.post('/api/bugs', report('Metrics page is blank', developer), tester.token);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    for (let i = 0; i < 3; i++)
      expect((await api.get(`/api/bugs/${created.body.bug._id}`, tester.token)).status).toBe(200);
    const live = await SseReader.open(t.url, tester.token);
    try {
      const answer = await fetch(`${t.url}/metrics`);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toMatch(/^text\/plain/);
      const text = await answer.text();
      // The pattern, never the id: one series per route.
      expect(
        sample(text, 'bugtrail_http_requests_total', { method: 'GET', route: '/api/bugs/:id', status: '200' }),
      ).toBe(3);
      expect(text).not.toContain(created.body.bug._id);
      expect(
        sample(text, 'bugtrail_http_request_duration_seconds_count', { method: 'POST', route: '/api/bugs' }),
      ).toBeGreaterThanOrEqual(1);
      expect(sample(text, 'bugtrail_eventstore_append_duration_seconds_count')).toBeGreaterThanOrEqual(2);
      expect(sample(text, 'bugtrail_sse_clients')).toBe(1);
      expect(sample(text, 'bugtrail_projector_lag_events')).toBe(0);
      expect(sample(text, 'bugtrail_projector_leader')).toBe(1);
      expect(sample(text, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    } finally {
      live.close();
    }
  });

  it('counts 429 answers as rate-limit hits of their route', async () => {
    const api = http(t.url);
    let refused = 0;
    for (let i = 0; i < 30 && refused === 0; i++) {
      const answer = await api.post('/api/auth/login', { email: tester.email, password: 'not the password' });
      if (answer.status === 429) refused += 1;
    }
    expect(refused).toBe(1);
    const text = await (await fetch(`${t.url}/metrics`)).text();
    expect(sample(text, 'bugtrail_rate_limit_hits_total', { route: '/api/auth/login' })).toBe(1);
    expect(
      sample(text, 'bugtrail_http_requests_total', { method: 'POST', route: '/api/auth/login', status: '429' }),
    ).toBe(1);
  });
});

describe('each part in a process of its own, on one database', () => {
  let writeApi: ProductProcess;
  let readApi: ProductProcess;
  let projector: ProductProcess;
  beforeAll(async () => {
    writeApi = await startProductProcess({ adminDatabaseUrl: adminUrl(), args: ['--only', 'write-api'] });
    const shared = { adminDatabaseUrl: adminUrl(), databaseUrl: writeApi.databaseUrl };
    [readApi, projector] = await Promise.all([
      startProductProcess({ ...shared, args: ['--only', 'read-api'] }),
      startProductProcess({ ...shared, args: ['--only', 'projector'] }),
    ]);
  }, 120_000);
  afterAll(async () => {
    await readApi?.terminate();
    await projector?.terminate();
    await writeApi?.stop();
  });

  it('every one answers /health, /ready and /metrics, each with its own readiness', async () => {
    for (const part of [writeApi, readApi, projector]) {
      expect((await http(part.url).get('/health')).status, part.output()).toBe(200);
      const metrics = await fetch(`${part.url}/metrics`);
      expect(metrics.status).toBe(200);
      expect(await metrics.text()).toContain('bugtrail_projector_leader');
    }
    const write = await http(writeApi.url).get('/ready');
    expect(write.status).toBe(200);
    expect(write.body).toMatchObject({ status: 'ready', database: 'ok', eventStore: 'ok' });
    const read = await http(readApi.url).get('/ready');
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ status: 'ready', database: 'ok', projector: { eventsBehind: 0 } });
    const lead = await http(projector.url).get('/ready');
    expect(lead.status).toBe(200);
    expect(lead.body).toMatchObject({ status: 'ready', projector: { role: 'leader' } });
    expect(sample(await (await fetch(`${projector.url}/metrics`)).text(), 'bugtrail_projector_leader')).toBe(1);
    // A projector alone serves nothing else.
    expect((await http(projector.url).get('/api/bugs')).status).toBe(404);
  });

  it('a report through write-api is read back from read-api, projected by the projector process', async () => {
    const tester = await registerUser(writeApi.url, 'tester');
    const developer = await registerUser(writeApi.url, 'developer');
    const created = await http(writeApi.url).post('/api/bugs', report('Split processes', developer), tester.token);
    expect(created.status).toBe(201);
    expect(created.headers.get('x-read-model-lag')).toBeNull();
    const read = await http(readApi.url).get(`/api/bugs/${created.body.bug._id}`, tester.token);
    expect(read.status).toBe(200);
    expect(read.body.title).toBe('Split processes');
  });
});

describe('SIGTERM under load', () => {
  it('finishes what it acknowledged, ends live streams with a reconnect hint, exits 0, and loses nothing', async () => {
    const product = await startProductProcess({ adminDatabaseUrl: adminUrl() });
    try {
      const tester = await registerUser(product.url, 'tester');
      const developer = await registerUser(product.url, 'developer');
      const live = await SseReader.open(product.url, tester.token);
      const acknowledged: { id: string; lagging: boolean }[] = [];
      let refusedOrCut = 0;
      let stopping = false;
      const writer = async (n: number) => {
        for (let i = 0; ; i++) {
          try {
            const answer = await fetch(`${product.url}/api/bugs`, {
              method: 'POST',
              headers: { 'content-type': 'application/json', authorization: `Bearer ${tester.token}` },
              body: JSON.stringify(report(`Writer ${n} report ${i}`, developer)),
            });
            const body = (await answer.json()) as { bug?: { _id: string } };
            if (answer.status === 201 && body.bug)
              acknowledged.push({ id: body.bug._id, lagging: answer.headers.has('x-read-model-lag') });
            else refusedOrCut += 1;
          } catch {
            // Refused or cut: the process is going away. Not acknowledged, so not counted.
            refusedOrCut += 1;
            if (stopping) return;
            await new Promise((resolve) => setTimeout(resolve, 20));
          }
        }
      };
      const writers = Promise.all([1, 2, 3, 4].map(writer));
      while (acknowledged.length < 40) {
        if (refusedOrCut > 0) throw new Error(`a report failed before the signal:\n${product.output()}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      stopping = true;
      const exit = await product.terminate();
      await writers;
      expect(exit).toEqual({ code: 0, signal: null });
      // The stream ended by the server, with the reconnect hint before the end.
      await live.waitForEnd(5000);
      expect(live.retryMs).toBe(1000);

      const ids = acknowledged.map((a) => a.id);
      const stored = await product.db.query<{ id: string; copies: number }>(
        `select data->>'bugId' as id, count(*)::int as copies from eventstore.events
         where type = 'BugReported' and data->>'bugId' = any($1::text[]) group by 1`,
        [ids],
      );
      // Every acknowledged report is in the store, exactly once...
      expect(stored.rows).toHaveLength(ids.length);
      expect(stored.rows.every((r) => r.copies === 1)).toBe(true);
      // ...and in the read models too, wherever the answer said it was already visible.
      const visible = acknowledged.filter((a) => !a.lagging).map((a) => a.id);
      const projected = await product.db.query('select id from rm.bugs where id = any($1::text[])', [visible]);
      expect(projected.rowCount).toBe(visible.length);
      console.log(
        `SIGTERM under load: ${acknowledged.length} acknowledged, ${stored.rows.length} stored once, ` +
          `${projected.rowCount} projected, ${refusedOrCut} refused or cut after the signal`,
      );
    } finally {
      await product.stop();
    }
  }, 120_000);
});

/** This machine's first address that is not loopback (the tests reach the product through it). */
function outsideAddress(): string {
  for (const entries of Object.values(os.networkInterfaces())) {
    for (const entry of entries ?? []) if (entry.family === 'IPv4' && !entry.internal) return entry.address;
  }
  throw new Error('no address besides loopback on this machine');
}

describe('/metrics answers only to loopback and METRICS_ALLOW, by the socket’s address', () => {
  const outside = outsideAddress();
  let writeApi: ProductProcess;
  let readApi: ProductProcess;
  let projector: ProductProcess;
  let listed: ProductProcess;
  /** The same server reached through the machine's outside address instead of loopback. */
  const viaOutside = (part: ProductProcess) => {
    const url = new URL(part.url);
    url.hostname = outside;
    return url.origin;
  };
  beforeAll(async () => {
    const open = { HOST: '0.0.0.0', TRUST_PROXY: '1' };
    writeApi = await startProductProcess({ adminDatabaseUrl: adminUrl(), args: ['--only', 'write-api'], env: open });
    const shared = { adminDatabaseUrl: adminUrl(), databaseUrl: writeApi.databaseUrl };
    [readApi, projector, listed] = await Promise.all([
      startProductProcess({ ...shared, args: ['--only', 'read-api'], env: open }),
      startProductProcess({ ...shared, args: ['--only', 'projector'], env: open }),
      startProductProcess({
        ...shared,
        args: ['--only', 'read-api'],
        env: { ...open, METRICS_ALLOW: `${outside}/32` },
      }),
    ]);
  }, 120_000);
  afterAll(async () => {
    await readApi?.terminate();
    await projector?.terminate();
    await listed?.terminate();
    await writeApi?.stop();
  });

  it('every process: 200 over loopback, 404 from elsewhere, whatever X-Forwarded-For claims', async () => {
    for (const part of [writeApi, readApi, projector]) {
      expect((await fetch(`${part.url}/metrics`)).status, part.output()).toBe(200);
      const refused = await fetch(`${viaOutside(part)}/metrics`, { headers: { 'x-forwarded-for': '127.0.0.1' } });
      expect(refused.status).toBe(404);
      expect(await refused.json()).toEqual({ message: 'Not found' });
      // The rest of the operator's routes stay open.
      expect((await fetch(`${viaOutside(part)}/health`)).status).toBe(200);
    }
  });

  it('METRICS_ALLOW lets a listed address in', async () => {
    const answer = await fetch(`${viaOutside(listed)}/metrics`);
    expect(answer.status, listed.output()).toBe(200);
    expect(await answer.text()).toContain('bugtrail_http_requests_total');
  });
});
