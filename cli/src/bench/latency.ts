import { randomUUID } from 'node:crypto';
import { ChangeFeed, loadConfig, silentLogger } from '@bugtrail/platform';
import { createSystem } from '../system.js';
import { percentile, round } from './stats.js';
import { type BenchRow, type BenchSuite, storeLabel } from './types.js';

/**
 * Command → visible in the read model, at a steady rate: from the moment an append
 * returns until the projector has committed it (as seen in-process, and as another
 * process sees it through LISTEN). Measured on the second of two equal runs: the first
 * meets a store just copied from its template (pages and connections cold); its p99 is
 * the row's baseline.
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
    /** Appends at `rate` for `seconds`; each sample is append → visible, in append order. */
    const drive = async (seconds: number) => {
      const local: number[] = [];
      const viaListen: number[] = [];
      const pending: Promise<void>[] = [];
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
      return { local, viaListen };
    };
    let cold: Awaited<ReturnType<typeof drive>>;
    let warm: Awaited<ReturnType<typeof drive>>;
    try {
      // The store was copied from a template just now: its pages and the new connections start
      // cold. The first run is reported apart; the measured run is the same load right after it.
      cold = await drive(seconds);
      warm = await drive(seconds);
    } finally {
      await remote.close();
      await system.close();
      await database.drop();
    }
    // Samples by append order: each second's p99, the worst of them named.
    const row = (name: string, samples: number[], coldSamples: number[]): BenchRow => {
      const p99 = percentile(samples, 99);
      const coldP99 = percentile(coldSamples, 99);
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
        baseline: { name: 'the same load just before, on the cold copy', value: round(coldP99, 1), unit: 'ms p99' },
        ratio: round(p99 / coldP99, 2),
        target: 'p99 ≤ 25 ms',
        met: p99 <= 25,
        note: `p50 ${round(percentile(samples, 50), 1)} ms, ${samples.length} appends at ${rate}/s; worst second: ${worst.second + 1} (p99 ${round(worst.p99, 1)} ms); cold run: first second p99 ${round(percentile(coldSamples.slice(0, rate), 99), 1)} ms, after it ${round(percentile(coldSamples.slice(rate), 99), 1)} ms`,
      };
    };
    return [
      row(`append → read model (in-process, as npm start)${storeLabel(ctx)}`, warm.local, cold.local),
      row(`append → read model (other process, via LISTEN)${storeLabel(ctx)}`, warm.viaListen, cold.viaListen),
    ];
  },
};
