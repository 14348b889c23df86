/**
 * `npm run fuzz -- [--requests N] [--seed N] [--concurrency N] [--url http://...] [--invite-code CODE]`
 *
 * Without --url it starts its own throwaway product (an embedded PostgreSQL, a fresh
 * database, rate limits out of the way) and stops it afterwards. Prints progress, then
 * the table of counts and every finding; exits 1 on any finding. `FUZZ_LOG=file` writes
 * every request and answer there, one JSON line each.
 */
import { createWriteStream } from 'node:fs';
import { startCluster, type ThrowawayCluster } from '../cluster.js';
import { createThrowawayDatabase, type ThrowawayDatabase } from '../throwaway-database.js';
import { TEST_INVITE_CODE } from '../users.js';
import { FUZZ_RATE_LIMITS } from './limits.js';
import { formatReport, runFuzz } from './run.js';

type Args = { requests: number; seed: number; concurrency: number; url: string | null; inviteCode: string };

function parseArgs(argv: readonly string[]): Args {
  // run-ts leaves the entry's own path in argv: the options are what follows it.
  const at = argv.findIndex((a) => a.endsWith('main.ts'));
  const rest = argv.slice(at + 1);
  const args: Args = {
    requests: 20_000,
    seed: Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31)),
    concurrency: 16,
    url: null,
    inviteCode: TEST_INVITE_CODE,
  };
  for (let i = 0; i < rest.length; i++) {
    const [flag, inline] = rest[i]!.split('=', 2) as [string, string | undefined];
    const value = () => inline ?? rest[++i] ?? '';
    const number = (name: string) => {
      const n = Number(value());
      if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a whole number`);
      return n;
    };
    switch (flag) {
      case '--requests':
        args.requests = number('--requests');
        break;
      case '--seed':
        args.seed = number('--seed');
        break;
      case '--concurrency':
        args.concurrency = Math.max(1, number('--concurrency'));
        break;
      case '--url':
        args.url = value().replace(/\/$/, '');
        break;
      case '--invite-code':
        args.inviteCode = value();
        break;
      case '--help':
      case '-h':
        process.stdout.write(
          'npm run fuzz -- [--requests N] [--seed N] [--concurrency N] [--url http://host:port] [--invite-code CODE]\n',
        );
        process.exit(0);
        break;
      default:
        throw new Error(`unknown option ${flag} (try --help)`);
    }
  }
  return args;
}

async function main(): Promise<number> {
  const args = parseArgs(process.argv);
  let cluster: ThrowawayCluster | null = null;
  let database: ThrowawayDatabase | null = null;
  let stopSystem: (() => Promise<void>) | null = null;
  let url = args.url;
  const log = process.env.FUZZ_LOG ? createWriteStream(process.env.FUZZ_LOG) : null;
  // A log that cannot be written is said once; the run goes on (no unheard 'error' event ends it).
  log?.once('error', (error) => process.stderr.write(`FUZZ_LOG cannot be written: ${error.message}\n`));
  try {
    if (!url) {
      process.stdout.write('starting a throwaway Bugtrail (embedded PostgreSQL)…\n');
      cluster = await startCluster('bugtrail-fuzz-');
      database = await createThrowawayDatabase(cluster.url);
      const { startTestSystem } = await import('../system.js');
      const system = await startTestSystem({ databaseUrl: database.url, config: { rateLimits: FUZZ_RATE_LIMITS } });
      stopSystem = () => system.close();
      url = system.url;
    }
    process.stdout.write(
      `fuzzing ${url} with seed ${args.seed} (FUZZ_SEED=${args.seed} or --seed ${args.seed} repeats it): ${args.requests.toLocaleString('en-US')} requests, concurrency ${args.concurrency}\n`,
    );
    const report = await runFuzz({
      url,
      requests: args.requests,
      seed: args.seed,
      concurrency: args.concurrency,
      inviteCode: args.inviteCode,
      onProgress: (p) =>
        process.stdout.write(
          `  ${p.done.toLocaleString('en-US')} / ${p.total.toLocaleString('en-US')} requests, ${Math.round(p.done / (p.elapsedMs / 1000))}/s, ${p.findings} distinct findings\n`,
        ),
      progressEveryMs: 5000,
      ...(log
        ? {
            onAnswer: (request, raw, answer) =>
              log.write(
                `${JSON.stringify({ op: request.operation.id, caller: request.caller, mode: request.mode, status: answer.status, target: raw.target.slice(0, 200), answer: (answer.text ?? '').slice(0, 200) })}\n`,
              ),
          }
        : {}),
    });
    process.stdout.write(`\n${formatReport(report)}\n`);
    return report.findings.length > 0 ? 1 : 0;
  } finally {
    await stopSystem?.();
    await database?.drop();
    await cluster?.stop();
    log?.end();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`fuzz failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(2);
  },
);
