import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createSseParser, http, registerUser, type TestUser } from '@bugtrail/testing';
import { type RunningNginx, startNginx } from '@bugtrail/testing/nginx';
import { type ProductProcess, startProductProcess } from '@bugtrail/testing/process';
import { type ReplicatedPostgres, startReplicatedPostgres } from '@bugtrail/testing/standby';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Issue 18: the compose topology as local processes (`npm run test:topology`). A PostgreSQL
 * primary and its streaming hot standby; two write-apis, two read-apis on the standby, two
 * projectors; deploy/nginx.conf in front. It sends REPORTS reports (at most IN_FLIGHT at a time,
 * as fast as the machine answers) and, at fixed counts of acknowledged reports, SIGKILLs the
 * leading projector, a write-api and a read-api, and stops the standby, with live clients
 * following through the proxy; then counts what was lost (nothing may be). Everything is driven
 * by counts and events, never by the clock (issue 40): a slow machine takes longer, not fails.
 */
const run = promisify(execFile);
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** Reports sent in all; every one must be acknowledged. */
const REPORTS = 2400;
/** Reports in flight at once (clients retrying while a part dies keep their slot). */
const IN_FLIGHT = 32;
/** Reports acknowledged between one fault and the next (the load goes on through each). */
const STEP = 400;
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A live client as a browser keeps one: reconnects with Last-Event-ID whenever the stream ends. */
class LiveFollower {
  readonly seen = new Map<string, number>();
  readonly topics = new Set<string>();
  lastEventId: string | null = null;
  connects = 0;
  resets = 0;
  private stopped = false;
  private controller = new AbortController();
  private readonly done: Promise<void>;

  constructor(
    private readonly url: string,
    private readonly token: string,
  ) {
    this.done = this.follow();
  }

  private async follow(): Promise<void> {
    while (!this.stopped) {
      try {
        const headers: Record<string, string> = { authorization: `Bearer ${this.token}` };
        if (this.lastEventId) headers['last-event-id'] = this.lastEventId;
        const response = await fetch(`${this.url}/api/events`, { headers, signal: this.controller.signal });
        if (response.status === 200 && response.body) {
          this.connects += 1;
          const feed = createSseParser((message) => {
            if (message.id) this.lastEventId = message.id;
            const kind = message.event ?? 'message';
            if (kind === 'reset') this.resets += 1;
            if (kind === 'ready' || kind === 'reset') return;
            const data = JSON.parse(message.data) as { topics: string[]; position: string };
            const key = `${kind}@${data.position}`;
            this.seen.set(key, (this.seen.get(key) ?? 0) + 1);
            for (const topic of data.topics) this.topics.add(topic);
          });
          const decoder = new TextDecoder();
          const reader = response.body.getReader();
          for (let read = await reader.read(); !read.done; read = await reader.read()) {
            feed(decoder.decode(read.value, { stream: true }));
          }
        } else {
          await response.body?.cancel();
        }
      } catch {
        // cut (a read-api died) or stopped
      }
      if (!this.stopped) await sleep(200);
    }
  }

  get duplicates(): number {
    return [...this.seen.values()].filter((n) => n > 1).length;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.controller.abort();
    await this.done;
  }
}

type Load = {
  acknowledged: Set<string>;
  retries: number;
  stillRunning: number;
  stale: number;
  /** 201s that said the read models had not caught up within the wait (X-Read-Model-Lag). */
  lagged: number;
  reads: number;
  /** Resolves once `count` reports are acknowledged (rejects if a report is refused). */
  acknowledgedAt(count: number): Promise<void>;
  /** Resolves when all `REPORTS` reports are acknowledged and read back. */
  done: Promise<void>;
};

/**
 * Sends `total` reports through the proxy, `IN_FLIGHT` at a time, each retried with its
 * Idempotency-Key until answered, and reads each back. No rate and no clock: a busy machine
 * sends the same reports, only slower.
 */
function startLoad(url: string, reporter: TestUser, developer: TestUser, total: number): Load {
  const acknowledged = new Set<string>();
  const waiters: { count: number; resolve: () => void }[] = [];
  let failed: Error | null = null;
  const failWaiters: ((error: Error) => void)[] = [];
  const load = {
    acknowledged,
    retries: 0,
    stillRunning: 0,
    stale: 0,
    lagged: 0,
    reads: 0,
  } as Load;
  const acknowledge = (id: string) => {
    acknowledged.add(id);
    for (const w of waiters.filter((w) => acknowledged.size >= w.count)) {
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve();
    }
  };
  load.acknowledgedAt = (count) =>
    new Promise<void>((resolve, reject) => {
      if (failed) return reject(failed);
      if (acknowledged.size >= count) return resolve();
      waiters.push({ count, resolve });
      failWaiters.push(reject);
    });
  const one = async (n: number) => {
    const key = `topology-${process.pid}-${n}`;
    for (let attempt = 0; ; attempt++) {
      try {
        const answer = await fetch(`${url}/api/bugs`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            authorization: `Bearer ${reporter.token}`,
            'idempotency-key': key,
          },
          body: JSON.stringify({
            title: `Topology report ${n}`,
            description: 'Reported under load while parts die',
            priority: 'Medium',
            severity: 'Minor',
            dueDate: null,
            assignedTo: [developer.id],
          }),
        });
        const body = (await answer.json().catch(() => null)) as { bug?: { _id: string } } | null;
        if (answer.status === 201 && body?.bug) {
          acknowledge(body.bug._id);
          if (answer.headers.get('x-read-model-lag')) load.lagged += 1;
          // Read it back at once through the proxy (a read-api on the standby).
          for (;;) {
            const read = await fetch(`${url}/api/bugs/${body.bug._id}`, {
              headers: { authorization: `Bearer ${reporter.token}` },
            }).catch(() => null);
            if (read?.status === 200) break;
            if (read?.status === 404) {
              load.stale += 1;
              break;
            }
            await sleep(100); // cut or 5xx while a part dies: ask again
          }
          load.reads += 1;
          return;
        }
        // 409 "still being processed": the first try's claim is alive; a client retries shortly.
        if (answer.status === 409) load.stillRunning += 1;
        else if (answer.status < 500) throw new Error(`report ${n} refused: ${answer.status} ${JSON.stringify(body)}`);
      } catch (error) {
        if ((error as Error).message.startsWith('report')) throw error;
      }
      load.retries += 1;
      // Not a clock: a report that stays unanswered through this many tries is a hung part.
      if (attempt > 3000) throw new Error(`report ${n} never acknowledged after ${attempt} tries`);
      await sleep(100);
    }
  };
  let sent = 0;
  const worker = async () => {
    while (sent < total) await one(sent++);
  };
  load.done = Promise.all(Array.from({ length: Math.min(IN_FLIGHT, total) }, worker)).then(
    () => {},
    (error: Error) => {
      failed = error;
      for (const reject of failWaiters) reject(error);
      throw error;
    },
  );
  load.done.catch(() => {}); // reported through acknowledgedAt and awaited at the end
  return load;
}

describe('the compose topology as local processes, under load and faults', () => {
  let servers: ReplicatedPostgres;
  let dataDir: string;
  let urls: { primary: string; standby: string };
  let writeApis: ProductProcess[] = [];
  let readApis: ProductProcess[] = [];
  let projectors: ProductProcess[] = [];
  let proxy: RunningNginx;

  beforeAll(async () => {
    servers = await startReplicatedPostgres();
    urls = await servers.createDatabase('bugtrail');
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'bugtrail-topology-data-'));
    const part = (only: string, env: Record<string, string> = {}) =>
      startProductProcess({
        adminDatabaseUrl: servers.primaryUrl,
        databaseUrl: urls.primary,
        dataDir,
        args: ['--only', only],
        // The product answers a command after at most 2 s even when the read models lag
        // (X-Read-Model-Lag); a busy CI machine can take that long while a projector takes over,
        // and the read back below would then count as stale. The wait is the test's to set.
        env: { TRUST_PROXY: '1', READ_YOUR_WRITES_TIMEOUT_MS: '20000', ...env },
      });
    // One first: it runs the migrations the others then find done.
    writeApis = [await part('write-api')];
    writeApis.push(await part('write-api'));
    readApis = await Promise.all([1, 2].map(() => part('read-api', { READ_DATABASE_URL: urls.standby })));
    projectors = [await part('projector')];
    projectors.push(await part('projector'));
    proxy = await startNginx({ readApi: readApis.map((p) => p.url), writeApi: writeApis.map((p) => p.url) });
  }, 300_000);

  afterAll(async () => {
    await proxy?.stop();
    for (const p of [...readApis, ...projectors, ...writeApis]) await p.stop().catch(() => {});
    await servers?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('uploads from every write-api, served by every read-api through the shared folder', async () => {
    for (const writeApi of writeApis) {
      const form = new FormData();
      form.append('image', new Blob([PNG], { type: 'image/png' }), 'photo.png');
      const answer = await fetch(`${writeApi.url}/api/auth/upload-image`, { method: 'POST', body: form });
      expect(answer.status).toBe(201);
      const { imageURL } = (await answer.json()) as { imageURL: string };
      const file = new URL(imageURL).pathname;
      for (const readApi of [...readApis, { url: proxy.url }]) {
        const served = await fetch(`${readApi.url}${file}`);
        expect(served.status, `${file} from ${readApi.url}`).toBe(200);
        expect(Buffer.from(await served.arrayBuffer()).equals(PNG)).toBe(true);
      }
    }
  });

  it('loses nothing when the leading projector, a write-api and a read-api are SIGKILLed and the standby stops', async () => {
    const api = http(proxy.url);
    const admin = await registerUser(proxy.url, 'admin');
    const reporter = await registerUser(proxy.url, 'tester');
    const developer = await registerUser(proxy.url, 'developer');
    const followers = [admin, reporter, developer].map((user) => new LiveFollower(proxy.url, user.token));
    const faults: string[] = [];

    const load = startLoad(proxy.url, reporter, developer, REPORTS);
    await load.acknowledgedAt(STEP);

    // 1. The leading projector dies: the other takes over through the advisory lock.
    const roles = await Promise.all(
      projectors.map(async (p) => (await http(p.url).get('/ready')).body.projector?.role),
    );
    const leader = projectors[roles.indexOf('leader')]!;
    const standby = projectors[roles.indexOf('standby')]!;
    expect(leader).toBeDefined();
    expect(standby).toBeDefined();
    const killedAt = performance.now();
    await leader.kill();
    // Waits for the event (the standby says it leads); the time it took is reported, not judged.
    while ((await http(standby.url).get('/ready')).body.projector?.role !== 'leader') await sleep(20);
    faults.push(
      `projector SIGKILL at ${STEP} acknowledged: standby leads after ${Math.round(performance.now() - killedAt)} ms`,
    );
    await load.acknowledgedAt(2 * STEP);

    // 2. A write-api dies: nginx sends commands to the other; cut ones are retried with their key.
    const retriesBefore = load.retries;
    await writeApis[0]!.kill();
    await load.acknowledgedAt(3 * STEP);
    faults.push(
      `write-api SIGKILL at ${2 * STEP} acknowledged: ${load.retries - retriesBefore} retried commands, ${load.stillRunning} answered "still being processed"`,
    );

    // 3. A read-api dies: reads go to the other; live clients reconnect with Last-Event-ID.
    const connectsBefore = followers.reduce((n, f) => n + f.connects, 0);
    await readApis[0]!.kill();
    await load.acknowledgedAt(4 * STEP);
    faults.push(
      `read-api SIGKILL at ${3 * STEP} acknowledged: ${followers.reduce((n, f) => n + f.connects, 0) - connectsBefore} live reconnects`,
    );

    // 4. The standby stops: read-api reads the primary (ADR 022), then the standby again.
    await servers.stopStandby();
    await load.acknowledgedAt(5 * STEP);
    await servers.startStandby();
    faults.push(`standby stopped at ${4 * STEP} acknowledged, started again at ${5 * STEP}`);

    await load.done;
    const acknowledged = [...load.acknowledged];

    // Every acknowledged report is in the store exactly once, and nothing else was reported.
    const primary = writeApis[1]!.db;
    const stored = await primary.query<{ id: string; copies: number }>(
      `select data->>'bugId' as id, count(*)::int as copies from eventstore.events
       where type = 'BugReported' group by 1`,
    );
    const copies = new Map(stored.rows.map((r) => [r.id, r.copies]));
    const missing = acknowledged.filter((id) => !copies.has(id)).length;
    const doubled = stored.rows.filter((r) => r.copies > 1).length;
    const unacknowledged = stored.rows.filter((r) => !load.acknowledged.has(r.id)).length;

    // Every live client saw every report, once: waits until each has heard every acknowledged
    // report (the event), then counts. The guard only ends a wait that would otherwise hang until
    // the test's timeout, so that a real gap fails below with the summary printed.
    const gapsOf = (f: LiveFollower) => acknowledged.filter((id) => !f.topics.has(`bug:${id}`)).length;
    const hangGuard = performance.now() + 300_000;
    while (followers.some((f) => gapsOf(f) > 0) && performance.now() < hangGuard) await sleep(200);
    const gaps = followers.map(gapsOf);
    const duplicates = followers.map((f) => f.duplicates);
    const resets = followers.map((f) => f.resets);
    await Promise.all(followers.map((f) => f.stop()));

    // The read models equal a rebuild from scratch (and every hash chain verifies).
    const verify = await run(process.execPath, [path.join(repoRoot, 'cli', 'dist', 'main.js'), 'verify'], {
      env: { PATH: process.env.PATH ?? '', DATABASE_URL: urls.primary, LOG_LEVEL: 'warn', DATA_DIR: dataDir },
      maxBuffer: 16 * 1024 * 1024,
    }).then(
      ({ stdout }) => ({ ok: true, stdout }),
      (error: { stdout?: string }) => ({ ok: false, stdout: error.stdout ?? String(error) }),
    );

    console.log(
      [
        `topology: ${REPORTS} reports through nginx, ${IN_FLIGHT} in flight:`,
        ...faults.map((f) => `  ${f}`),
        `  acknowledged ${acknowledged.length}; stored once ${acknowledged.length - missing}; missing ${missing}; doubled ${doubled}; stored but never acknowledged ${unacknowledged}`,
        `  read back at once through the standby: ${load.reads}, stale ${load.stale} (answers with X-Read-Model-Lag: ${load.lagged})`,
        `  live clients: gaps ${gaps.join('/')}, duplicates ${duplicates.join('/')}, resets ${resets.join('/')}`,
        `  verify: ${verify.ok ? 'read models equal a rebuild, chains verified' : 'FAILED'}`,
      ].join('\n'),
    );
    // Every report sent was acknowledged (a refused or hung one fails load.done above).
    expect(acknowledged.length).toBe(REPORTS);
    expect({ missing, doubled, unacknowledged, stale: load.stale }).toEqual({
      missing: 0,
      doubled: 0,
      unacknowledged: 0,
      stale: 0,
    });
    expect({ gaps, duplicates }).toEqual({ gaps: [0, 0, 0], duplicates: [0, 0, 0] });
    expect(verify.ok, verify.stdout).toBe(true);
    expect((await api.get('/health')).status).toBe(200);
  }, 600_000);
});
