/**
 * `@bugtrail/testing/process`: the product as its users run it, `node cli/dist/main.js
 * start` in an OS process of its own, on a fresh database, a port the OS picks and a
 * temporary data folder, serving the built web app (web/dist). Nothing of the servers
 * loads into the caller: this module imports node built-ins and pg only, so the web e2e
 * harness stays off every server package (whiteboard: never Web -> Platform). Needs
 * `npm run build` first.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { createThrowawayDatabase } from './throwaway-database.js';
import { TEST_INVITE_CODE } from './users.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const launcher = path.join(repoRoot, 'cli', 'dist', 'main.js');

/** What the child inherits: enough to run node, nothing of the caller's Bugtrail settings. */
const INHERITED_ENV = ['PATH', 'HOME', 'TMPDIR', 'TZ', 'LANG'];

export type ProductProcess = {
  url: string;
  databaseUrl: string;
  dataDir: string;
  /** A pool on the product's database, to look at what it stored (ended by `stop`). */
  db: pg.Pool;
  /** The last of what the process printed (stdout and stderr), for failure messages. */
  output(): string;
  /** SIGTERM (SIGKILL if it lingers), then drops the database (unless it was given) and the data folder. */
  stop(): Promise<void>;
  /** SIGKILL at once, as a crash: nothing is cleaned up but the pool and the folder (the database stays). */
  kill(): Promise<void>;
  /** SIGTERM, then waits for the exit and tells how it went (the database and folder stay until `stop`). */
  terminate(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
};

export async function startProductProcess(options: {
  /** The admin url of the PostgreSQL to make the fresh database on (in vitest: `adminUrl()`). */
  adminDatabaseUrl: string;
  /** More environment for the launcher (names in platform/src/config.ts). */
  env?: Record<string, string>;
  /** An existing database to run on (a restart after a crash); the caller drops it. */
  databaseUrl?: string;
  startTimeoutMs?: number;
  /** More arguments for `bugtrail start` (`--only write-api`). */
  args?: readonly string[];
  /** A DATA_DIR shared with other processes (uploads): the caller removes it. */
  dataDir?: string;
  /**
   * The largest file the process may write (RLIMIT_FSIZE, through util-linux's `prlimit`):
   * a write past it fails with EFBIG, as on a disk that is full.
   */
  fileSizeLimitBytes?: number;
}): Promise<ProductProcess> {
  if (!existsSync(launcher)) throw new Error(`${launcher} is missing: run "npm run build" first`);
  const database = options.databaseUrl
    ? { url: options.databaseUrl, drop: async () => {} }
    : await createThrowawayDatabase(options.adminDatabaseUrl);
  const dataDir = options.dataDir ?? (await mkdtemp(path.join(os.tmpdir(), 'bugtrail-e2e-data-')));
  const removeDataDir = () => (options.dataDir ? Promise.resolve() : rm(dataDir, { recursive: true, force: true }));
  const env: Record<string, string> = {};
  for (const name of INHERITED_ENV) if (process.env[name] !== undefined) env[name] = process.env[name]!;
  const command = [process.execPath, launcher, 'start', ...(options.args ?? [])];
  const limited = options.fileSizeLimitBytes ? ['prlimit', `--fsize=${options.fileSizeLimitBytes}`] : [];
  const [program, ...programArgs] = [...limited, ...command] as [string, ...string[]];
  const child = spawn(program, programArgs, {
    cwd: repoRoot,
    env: {
      ...env,
      DATABASE_URL: database.url,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ADMIN_INVITE_CODE: TEST_INVITE_CODE,
      LOG_LEVEL: 'warn',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exitStatus = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const exited = exitStatus.then(() => {});
  // If the test process dies first, take the product with it rather than leave it running.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  void exited.then(() => process.off('exit', killOnExit));
  // Keep reading both pipes for the process's whole life: a full pipe would block it.
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-64_000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);

  const cleanUp = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const lingering = setTimeout(() => child.kill('SIGKILL'), 25_000);
      await exited;
      clearTimeout(lingering);
    }
    await database.drop();
    await removeDataDir();
  };

  let url: string;
  try {
    url = await new Promise<string>((resolve, reject) => {
      const timeoutMs = options.startTimeoutMs ?? 60_000;
      const timer = setTimeout(
        () => reject(new Error(`bugtrail did not start within ${timeoutMs} ms:\n${output}`)),
        timeoutMs,
      );
      // `bugtrail start` prints "URL: http://…" once it listens (cli/src/main.ts).
      child.stdout.on('data', () => {
        const found = /URL:\s+(http\S+)/.exec(output);
        if (found) {
          clearTimeout(timer);
          resolve(found[1]!);
        }
      });
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`bugtrail exited (${signal ?? code}) before it listened:\n${output}`));
      });
    });
  } catch (error) {
    await cleanUp();
    throw error;
  }

  const db = new pg.Pool({ connectionString: database.url, max: 2 });
  return {
    url,
    databaseUrl: database.url,
    dataDir,
    db,
    output: () => output,
    async stop() {
      await db.end();
      await cleanUp();
    },
    async terminate() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exitStatus;
    },
    async kill() {
      child.kill('SIGKILL');
      await exited;
      await db.end();
      await removeDataDir();
    },
  };
}
