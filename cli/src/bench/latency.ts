import { randomUUID } from 'node:crypto';
import { ChangeFeed, loadConfig, silentLogger } from '@bugtrail/platform';
import { createSystem } from '../system.js';
import { percentile, round } from './stats.js';
import { type BenchRow, type BenchSuite, storeLabel } from './types.js';

/**
 * Command → visible in the read model, at a steady rate: from the moment an append
 * returns until the projector has committed it (as seen in-process, and as another
 * process sees it through LISTEN).
 */
export const latencySuite: BenchSuite = {
  name: 'latency',
  async run(ctx) {
    const database = await ctx.createDatabase({ filled: true });
    const config = { ...loadConfig({}), logLevel: 'silent' as const };
    const system = await createSystem({
      config,
      databaseUrl: database.url,
      logger: silentLogger,
      parts: ['projector'],
    });
    const remote = new ChangeFeed(system.pool, silentLogger);
    await remote.start();
    const rate = 500;
    const seconds = ctx.quick ? 4 : 10;
    const local: number[] = [];
    const viaListen: number[] = [];
    const pending: Promise<void>[] = [];
    try {
      const interval = 1000 / rate;
      const started = performance.now();
      for (let i = 0; i < rate * seconds; i++) {
        const due = started + i * interval;
        const wait = due - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        pending.push(
          (async () => {
            const userId = randomUUID();
            const result = await system.store.append(
              `user-${userId}`,
              [
                {
                  id: randomUUID(),
                  type: 'UserRegistered',
                  data: {
                    userId,
                    name: 'Latency',
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
            );
            const t0 = performance.now();
            await Promise.all([
              system.changeFeed.waitFor(result.position, 10_000).then(() => {
                local[i] = performance.now() - t0;
              }),
              remote.waitFor(result.position, 10_000).then(() => {
                viaListen[i] = performance.now() - t0;
              }),
            ]);
          })(),
        );
      }
      await Promise.all(pending);
    } finally {
      await remote.close();
      await system.close();
      await database.drop();
    }
    // Samples by append order: the first second (a copied store's cold caches) apart from the rest.
    const row = (name: string, samples: number[]): BenchRow => {
      const p99 = percentile(samples, 99);
      const settled = percentile(samples.slice(rate), 99);
      let worst = { second: 0, p99: 0 };
      for (let second = 0; second < seconds; second++) {
        const p = percentile(samples.slice(second * rate, (second + 1) * rate), 99);
        if (p > worst.p99) worst = { second, p99: p };
      }
      return {
        suite: 'latency',
        name,
        value: round(p99, 1),
        unit: 'ms p99',
        target: 'p99 ≤ 25 ms',
        met: p99 <= 25,
        note: `p50 ${round(percentile(samples, 50), 1)} ms, ${samples.length} appends at ${rate}/s; after the first second p99 ${round(settled, 1)} ms; worst second: ${worst.second + 1} (p99 ${round(worst.p99, 1)} ms)`,
      };
    };
    return [
      row(`append → read model (in-process, as npm start)${storeLabel(ctx)}`, local),
      row(`append → read model (other process, via LISTEN)${storeLabel(ctx)}`, viaListen),
    ];
  },
};
