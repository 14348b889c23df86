import { randomUUID } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Worker } from 'node:worker_threads';
import { listen, loadConfig, silentLogger } from '@bugtrail/platform';
import { createSystem } from '../system.js';
import { percentile, round } from './stats.js';
import { type BenchContext, type BenchRow, type BenchSuite, storeLabel } from './types.js';

/**
 * Live-update fan-out: N SSE clients on one read-api, commands committed at a steady
 * rate, and the time from each commit to its arrival at every client. The clients run
 * in a worker thread so that the server's heap (this thread's) measures the server
 * alone; they are plain sockets with a minimal parser, lighter than any browser.
 *
 * The baseline is the transport alone, in the same run: the same clients on a bare
 * `node:http` server that holds their responses and, at the same rate, writes one
 * ready-made frame to each of them. No store, no projector, no hub: what is left is a
 * chunked write per socket here and its read in the clients' thread, on the same cores.
 */

/** The clients' side, as source: a worker is the one place code runs beside us unbundled. */
const CLIENTS = String.raw`
const http = require('node:http');
const { parentPort, workerData } = require('node:worker_threads');
const { port, token, count, batch } = workerData;
const now = () => performance.timeOrigin + performance.now();
const receipts = new Map();
const requests = [];
let received = 0;
let failed = 0;
let dropped = 0;
function connect() {
  return new Promise((resolve) => {
    const req = http.request(
      { host: '127.0.0.1', port, path: '/api/events', agent: false,
        headers: { authorization: 'Bearer ' + token, accept: 'text/event-stream' } },
      (res) => {
        if (res.statusCode !== 200) { failed++; res.resume(); resolve(); return; }
        res.setEncoding('utf8');
        let buffer = '';
        let isReady = false;
        res.on('data', (chunk) => {
          const at = now();
          buffer += chunk;
          let end;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const message = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            if (!isReady && message.startsWith('event: ready')) { isReady = true; resolve(); continue; }
            if (!message.startsWith('event: user\n')) continue;
            const start = message.indexOf('data: ') + 6;
            const stop = message.indexOf('\n', start);
            for (const topic of JSON.parse(message.slice(start, stop < 0 ? undefined : stop)).topics) {
              let list = receipts.get(topic);
              if (!list) receipts.set(topic, (list = []));
              list.push(at);
              received++;
            }
          }
        });
        res.on('close', () => { if (isReady) dropped++; else resolve(); });
        res.on('error', () => {});
      },
    );
    req.on('error', () => { failed++; resolve(); });
    req.end();
    requests.push(req);
  });
}
parentPort.on('message', async (message) => {
  if (message === 'connect') {
    for (let i = 0; i < count; i += batch) {
      await Promise.all(Array.from({ length: Math.min(batch, count - i) }, connect));
    }
    parentPort.postMessage({ type: 'connected', failed });
  } else if (message === 'progress') {
    parentPort.postMessage({ type: 'progress', received, dropped });
  } else if (message === 'collect') {
    parentPort.postMessage({ type: 'receipts', receipts: Object.fromEntries(receipts), dropped });
  } else if (message === 'close') {
    for (const req of requests) req.destroy();
    parentPort.postMessage({ type: 'closed' });
  }
});
`;

type ClientsReply =
  | { type: 'connected'; failed: number }
  | { type: 'progress'; received: number; dropped: number }
  | { type: 'receipts'; receipts: Record<string, number[]>; dropped: number }
  | { type: 'closed' };

function startClients(port: number, token: string, count: number) {
  const worker = new Worker(CLIENTS, { eval: true, workerData: { port, token, count, batch: 200 } });
  let closing: Promise<void> | null = null;
  const ask = <T extends ClientsReply['type']>(message: string, type: T) =>
    new Promise<Extract<ClientsReply, { type: T }>>((resolve, reject) => {
      const onMessage = (reply: ClientsReply) => {
        if (reply.type !== type) return;
        worker.off('message', onMessage);
        worker.off('error', reject);
        resolve(reply as Extract<ClientsReply, { type: T }>);
      };
      worker.on('message', onMessage);
      worker.once('error', reject);
      worker.postMessage(message);
    });
  return {
    connect: () => ask('connect', 'connected'),
    progress: () => ask('progress', 'progress'),
    collect: () => ask('collect', 'receipts'),
    /** Ends every stream and the thread; a second call does nothing. */
    close: () => {
      closing ??= ask('close', 'closed').then(() => worker.terminate().then(() => {}));
      return closing;
    },
  };
}

/** A full collection, so heap figures compare like with like. */
function collector(): () => void {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as (() => void) | undefined;
  return () => gc?.();
}

const heapBytes = () => {
  const m = process.memoryUsage();
  return m.heapUsed + m.external;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Commit → receipt latencies (ms) from the clients' receipts and the commit times by topic. */
function latenciesOf(receipts: Record<string, number[]>, committedAt: ReadonlyMap<string, number>): number[] {
  const latencies: number[] = [];
  for (const [topic, times] of Object.entries(receipts)) {
    const t0 = committedAt.get(topic);
    if (t0 !== undefined) for (const t of times) latencies.push(t - t0);
  }
  return latencies;
}

/** Waits until the clients received `expected` deliveries (30 s at most), then collects them. */
async function collectReceipts(client: ReturnType<typeof startClients>, expected: number) {
  let progress = await client.progress();
  for (let i = 0; i < 300 && progress.received < expected; i++) {
    await sleep(100);
    progress = await client.progress();
  }
  return client.collect();
}

/**
 * The floor: the same clients on a bare HTTP server that writes, `rate` times a second,
 * one frame naming a fresh topic to every open response, stamped just before the writes.
 */
async function measureTransport(clients: number, rate: number, seconds: number) {
  const responses = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
    res.write('event: ready\ndata: {}\n\n');
    responses.add(res);
    req.on('close', () => responses.delete(res));
  });
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const client = startClients((server.address() as AddressInfo).port, 'none', clients);
  try {
    const connected = await client.connect();
    await sleep(500);
    const committedAt = new Map<string, number>();
    const interval = 1000 / rate;
    const started = performance.now();
    const total = rate * seconds;
    for (let i = 0; i < total; i++) {
      const wait = started + i * interval - performance.now();
      if (wait > 0) await sleep(wait);
      const topic = `user:${randomUUID()}`;
      const frame = Buffer.from(
        `event: user\ndata: ${JSON.stringify({ topics: [topic], position: String(i) })}\nid: ${i}\n\n`,
      );
      committedAt.set(topic, performance.timeOrigin + performance.now());
      for (const res of responses) res.write(frame);
    }
    const expected = total * (clients - connected.failed);
    const { receipts } = await collectReceipts(client, expected);
    return latenciesOf(receipts, committedAt);
  } finally {
    await client.close().catch(() => {});
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

async function measure(ctx: BenchContext, clients: number, rate: number, seconds: number): Promise<BenchRow[]> {
  const suite = 'fanout';
  const database = await ctx.createDatabase({ filled: true });
  const base = loadConfig({});
  const config = {
    ...base,
    logLevel: 'silent' as const,
    rateLimits: { ...base.rateLimits, sseConnectionsPerUser: clients + 10 },
  };
  const system = await createSystem({ config, databaseUrl: database.url, logger: silentLogger });
  const server = await listen({ fetch: system.fetch }, 0, '127.0.0.1');
  const token = await system.tokens.issue({ id: randomUUID(), role: 'tester' });
  const gc = collector();
  const client = startClients(server.port, token, clients);
  try {
    gc();
    const before = heapBytes();
    const connected = await client.connect();
    await sleep(500);
    gc();
    const perConnection = (heapBytes() - before) / clients;
    ctx.log(`fanout: ${clients - connected.failed}/${clients} clients live; committing ${rate}/s for ${seconds} s`);

    const committedAt = new Map<string, number>();
    const interval = 1000 / rate;
    const started = performance.now();
    const total = rate * seconds;
    const appends: Promise<void>[] = [];
    for (let i = 0; i < total; i++) {
      const wait = started + i * interval - performance.now();
      if (wait > 0) await sleep(wait);
      const userId = randomUUID();
      appends.push(
        system.store
          .append(
            `user-${userId}`,
            [
              {
                id: randomUUID(),
                type: 'UserRegistered',
                data: {
                  userId,
                  name: 'Fan-out',
                  email: `${userId}@example.com`,
                  role: 'tester',
                  profileImageURL: null,
                },
                metadata: {
                  actorId: null,
                  correlationId: userId,
                  causationId: null,
                  occurredAt: new Date().toISOString(),
                  schemaVersion: 1,
                },
              },
            ],
            'no_stream',
          )
          .then(() => {
            committedAt.set(`user:${userId}`, performance.timeOrigin + performance.now());
          }),
      );
    }
    await Promise.all(appends);
    const expected = total * (clients - connected.failed);
    const { receipts, dropped } = await collectReceipts(client, expected);
    const latencies = latenciesOf(receipts, committedAt);
    await client.close().catch(() => {});
    // The same clients on the bare transport, after the server's own run and with its clients gone.
    const floor = await measureTransport(clients, rate, seconds);
    const p99 = round(percentile(latencies, 99));
    const floorP50 = round(percentile(floor, 50));
    const floorP99 = round(percentile(floor, 99));
    const note = `${rate} commands/s for ${seconds} s; ${latencies.length}/${expected} deliveries; ${dropped} streams dropped`;
    const isGoal = clients >= 5000;
    return [
      {
        suite,
        name: `${clients} clients: commit → receipt p50${storeLabel(ctx)}`,
        value: round(percentile(latencies, 50)),
        unit: 'ms',
        baseline: { name: 'a bare HTTP server writing one frame to each', value: floorP50, unit: 'ms' },
        ratio: round(percentile(latencies, 50) / floorP50, 2),
        note,
      },
      {
        suite,
        name: `${clients} clients: commit → receipt p99${storeLabel(ctx)}`,
        value: p99,
        unit: 'ms',
        baseline: { name: 'a bare HTTP server writing one frame to each', value: floorP99, unit: 'ms' },
        ratio: round(p99 / floorP99, 2),
        ...(isGoal ? { target: '≤ 100 ms', met: p99 <= 100 && latencies.length === expected } : {}),
        note: `bare server: ${floor.length}/${expected} deliveries`,
      },
      {
        suite,
        name: `${clients} clients: read-api heap per connection`,
        value: round(perConnection / 1024),
        unit: 'KiB',
      },
    ];
  } finally {
    await client.close().catch(() => {});
    await server.close();
    await system.close();
    await database.drop();
  }
}

export const fanoutSuite: BenchSuite = {
  name: 'fanout',
  async run(ctx) {
    const sizes = ctx.quick ? [250, 1000] : [1000, 5000];
    const rows: BenchRow[] = [];
    for (const clients of sizes) rows.push(...(await measure(ctx, clients, 10, ctx.quick ? 3 : 6)));
    return rows;
  },
};
