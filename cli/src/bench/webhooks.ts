import { randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig, silentLogger } from '@bugtrail/platform';
import { reportBug } from '../demo/bug-events.js';
import { createSystem } from '../system.js';
import { percentile, round, runConcurrent } from './stats.js';
import type { BenchSuite } from './types.js';

/**
 * Outgoing webhooks (issue 20): bug reports appended at a steady 500/s for a webhook that
 * hears every event, delivered to a receiver on 127.0.0.1 that answers 200 at once. Measured:
 * delivery throughput, and lag from the append's return to the message's arrival. Baselines
 * from the same run: the same receiver taking plain POSTs from 16 workers (what loopback HTTP
 * allows here), and the same appends becoming visible in the read models (the projector).
 */
export const webhooksSuite: BenchSuite = {
  name: 'webhooks',
  async run(ctx) {
    const arrived = new Map<string, number>();
    const receiver = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        arrived.set(String(req.headers['webhook-id'] ?? randomUUID()), performance.now());
        res.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const { port } = receiver.address() as AddressInfo;

    // Baseline: plain POSTs to the same receiver, 16 at a time.
    const plainTotal = ctx.quick ? 2000 : 5000;
    const agent = new http.Agent({ keepAlive: false });
    const plain = await runConcurrent(plainTotal, 16, async (i) => {
      await new Promise<void>((resolve, reject) => {
        const request = http.request(
          { host: '127.0.0.1', port, method: 'POST', path: '/', agent, headers: { 'webhook-id': `plain-${i}` } },
          (res) => {
            res.resume();
            res.on('end', resolve);
          },
        );
        request.on('error', reject);
        request.end('{}');
      });
    });
    const plainPerSecond = plainTotal / (plain.wallMs / 1000);
    arrived.clear();

    const database = await ctx.createDatabase();
    const config = { ...loadConfig({}), logLevel: 'silent' as const };
    const system = await createSystem({
      config: { ...config, webhooks: { ...config.webhooks, allowHosts: ['127.0.0.1'] } },
      databaseUrl: database.url,
      logger: silentLogger,
      parts: ['projector'],
    });
    await system.pool.query(
      `insert into webhooks.subscriptions (id, url, events, secret, created_by, created_at)
       values ($1, $2, '{*}', $3, 'bench', now() - interval '1 minute')`,
      [randomUUID(), `http://127.0.0.1:${port}/hook`, `whsec_${randomBytes(32).toString('base64')}`],
    );
    const rate = 500;
    const seconds = ctx.quick ? 4 : 10;
    const appendedAt = new Map<string, number>();
    const visible: number[] = [];
    const pending: Promise<void>[] = [];
    const reporterId = randomUUID();
    let started = 0;
    try {
      const interval = 1000 / rate;
      started = performance.now();
      for (let i = 0; i < rate * seconds; i++) {
        const due = started + i * interval;
        const wait = due - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        pending.push(
          (async () => {
            const [reported] = reportBug(
              { bugId: randomUUID(), reporterId, title: `Webhook bench ${i}`, description: 'Bench', assigneeIds: [] },
              { at: new Date().toISOString() },
            );
            const result = await system.store.append(
              `bug-${(reported!.data as { bugId: string }).bugId}`,
              [reported!],
              'no_stream',
            );
            const t0 = performance.now();
            appendedAt.set(reported!.id, t0);
            if (await system.changeFeed.waitFor(result.position, 10_000)) visible.push(performance.now() - t0);
          })(),
        );
      }
      await Promise.all(pending);
      const deadline = performance.now() + 60_000;
      while (arrived.size < appendedAt.size && performance.now() < deadline)
        await new Promise((r) => setTimeout(r, 50));
    } finally {
      await system.close();
      await database.drop();
      receiver.close();
    }
    const lags = [...appendedAt].flatMap(([id, t0]) => (arrived.has(id) ? [arrived.get(id)! - t0] : []));
    const lastArrival = Math.max(...arrived.values());
    const deliveredPerSecond = arrived.size / ((lastArrival - started) / 1000);
    return [
      {
        suite: 'webhooks',
        name: `delivery throughput, events appended at ${rate}/s`,
        value: round(deliveredPerSecond, 0),
        unit: '/s',
        baseline: { name: 'plain POSTs to the receiver, 16 workers', value: round(plainPerSecond, 0), unit: '/s' },
        ratio: round(deliveredPerSecond / plainPerSecond, 2),
        note: `${arrived.size} of ${appendedAt.size} delivered, none lost: ${arrived.size === appendedAt.size}`,
      },
      {
        suite: 'webhooks',
        name: `append → delivered at ${rate}/s`,
        value: round(percentile(lags, 99), 1),
        unit: 'ms p99',
        baseline: { name: 'append → read model, same run', value: round(percentile(visible, 99), 1), unit: 'ms p99' },
        ratio: round(percentile(lags, 99) / percentile(visible, 99), 2),
        note: `p50 ${round(percentile(lags, 50), 1)} ms (read model p50 ${round(percentile(visible, 50), 1)} ms)`,
      },
    ];
  },
};
