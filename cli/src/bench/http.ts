import { benchCall, processCpuMs, registerBenchUser, startServerProcess } from './server-process.js';
import { percentile, round, runConcurrent } from './stats.js';
import { type BenchRow, type BenchSuite, storeLabel } from './types.js';

/**
 * Commands over real HTTP against the launcher in its own process: auth, zod,
 * decide, append, and the read-your-writes wait, per request. The floor is
 * GET /health at the same concurrency, in the same run. Beside each rate, the CPU the
 * server process spent per request (all its threads, from /proc), for both: on two
 * cores shared with PostgreSQL and the load generator, that is what bounds the rate.
 */
export function httpSuite(root: string): BenchSuite {
  return {
    name: 'http',
    async run(ctx) {
      const rows: BenchRow[] = [];
      const database = await ctx.createDatabase({ filled: true });
      const server = await startServerProcess(root, database.url);
      try {
        const base = server.url;
        const tester = await registerBenchUser(base, 'tester', 1);
        const developer = await registerBenchUser(base, 'developer', 1);
        const n = ctx.quick ? 600 : 3000;
        const report = (i: number) =>
          benchCall(`${base}/api/bugs`, {
            body: {
              title: `Bench bug number ${i}`,
              description: 'Steps: open the page, click the button, see the error.',
              priority: 'Medium',
              severity: 'Minor',
              module: 'bench',
              assignedTo: [developer.id],
              checklist: [{ text: 'reproduce', completed: false }],
            },
            token: tester.token,
          });
        const bugIds: string[] = [];
        /** The server's CPU per request (ms) while `work` ran `n` requests. */
        const cpuPerRequest = async <T>(work: () => Promise<T>): Promise<[T, number | null]> => {
          const before = processCpuMs(server.child.pid);
          const result = await work();
          const after = processCpuMs(server.child.pid);
          return [result, before === null || after === null ? null : (after - before) / n];
        };
        const cpuNote = (report: number | null, health: number | null) =>
          report === null || health === null
            ? ''
            : `; server CPU per request ${round(report, 2)} ms (GET /health ${round(health, 2)} ms, ${round(report / health, 1)}×)`;
        for (const connections of [1, 8, 32]) {
          const [floor, healthCpu] = await cpuPerRequest(() =>
            runConcurrent(n, connections, () => benchCall(`${base}/health`).then(() => {})),
          );
          const [run, reportCpu] = await cpuPerRequest(() =>
            runConcurrent(n, connections, async (i) => {
              const answer = await report(i);
              if (bugIds.length < 2000) bugIds.push(answer.bug._id);
            }),
          );
          const rate = (n / run.wallMs) * 1000;
          const floorRate = (n / floor.wallMs) * 1000;
          rows.push({
            suite: 'http',
            name: `report bug (auth + read-your-writes), ${connections} conn${storeLabel(ctx)}`,
            value: round(rate, 0),
            unit: 'req/s',
            baseline: { name: `GET /health, ${connections} conn`, value: round(floorRate, 0), unit: 'req/s' },
            ratio: round(rate / floorRate, 2),
            ...(connections === 8 ? { target: '≥ 2,500/s', met: rate >= 2500 } : {}),
            ...(connections === 1 ? { target: 'p50 ≤ 3 ms', met: percentile(run.latencies, 50) <= 3 } : {}),
            note: `p50 ${round(percentile(run.latencies, 50), 2)} ms, p99 ${round(percentile(run.latencies, 99), 2)} ms${cpuNote(reportCpu, healthCpu)}`,
          });
          ctx.log(`report bug @${connections}: ${round(rate, 0)}/s`);
        }
        const statuses = ['In Progress', 'Closed', 'Open'];
        const change = await runConcurrent(Math.min(n, bugIds.length), 8, async (i) => {
          await benchCall(`${base}/api/bugs/${bugIds[i]}/status`, {
            method: 'PUT',
            body: { status: statuses[i % 3] },
            token: developer.token,
          });
        });
        rows.push({
          suite: 'http',
          name: `change status (assigned developer), 8 conn${storeLabel(ctx)}`,
          value: round((change.latencies.length / change.wallMs) * 1000, 0),
          unit: 'req/s',
          note: `p50 ${round(percentile(change.latencies, 50), 2)} ms, p99 ${round(percentile(change.latencies, 99), 2)} ms`,
        });
      } finally {
        await server.stop();
        await database.drop();
      }
      return rows;
    },
  };
}
