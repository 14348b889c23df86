/**
 * A real PostgreSQL primary with a real streaming hot standby (issue 18), made with the
 * machine's PostgreSQL binaries (Debian's `postgresql-NN`: the embedded package has no
 * pg_basebackup): initdb, a primary with `wal_level=replica`, `pg_basebackup -R` for the
 * standby, each a server process of its own on a free port in a temporary folder.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { appendFile, chmod, chown, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from './free-port.js';

const run = promisify(execFile);

/** The newest PostgreSQL with pg_basebackup under /usr/lib/postgresql (or POSTGRES_BIN_DIR). */
export function findPostgresBinaries(): string | null {
  const chosen = process.env.POSTGRES_BIN_DIR;
  if (chosen) return existsSync(path.join(chosen, 'pg_basebackup')) ? chosen : null;
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return null;
  const versions = readdirSync(base)
    .filter((v) => /^\d+$/.test(v) && existsSync(path.join(base, v, 'bin', 'pg_basebackup')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? path.join(base, versions[0], 'bin') : null;
}

export type ReplicatedPostgres = {
  /** Admin urls (database `postgres`, user postgres, trust on loopback). */
  primaryUrl: string;
  standbyUrl: string;
  /** The same database's url on each server. */
  urls(database: string): { primary: string; standby: string };
  /** Creates a database on the primary and waits until the standby has it. */
  createDatabase(name: string): Promise<{ primary: string; standby: string }>;
  /** Fast shutdown of the standby (its connections are cut); its data stays. */
  stopStandby(): Promise<void>;
  /**
   * Starts the standby again. `streaming: false` leaves out its connection to the primary:
   * it serves what it had replayed when it stopped, and nothing written since.
   */
  startStandby(options?: { streaming?: boolean }): Promise<void>;
  stop(): Promise<void>;
};

/** A server process, with the end of what it printed (why it would not start, when it does not). */
type Server = { child: ChildProcess; exited: Promise<void>; output: () => string };

export async function startReplicatedPostgres(): Promise<ReplicatedPostgres> {
  const bin = findPostgresBinaries();
  if (!bin) throw new Error('no PostgreSQL binaries with pg_basebackup (apt-get install postgresql-15)');
  const dir = await mkdtemp(path.join(os.tmpdir(), 'bugtrail-replicated-'));
  // PostgreSQL refuses to run as root: as root, its programs run as the 'postgres' user.
  const ids = await osUserIds();
  if (ids) {
    await chmod(dir, 0o755);
    await chown(dir, ids.uid, ids.gid);
  }
  const as = ids ? { uid: ids.uid, gid: ids.gid } : {};
  const tool = (name: string, args: string[]) =>
    run(path.join(bin, name), args, { ...as, env: { PATH: process.env.PATH ?? '' } });
  const primaryDir = path.join(dir, 'primary');
  const standbyDir = path.join(dir, 'standby');
  const [primaryPort, standbyPort] = [await freePort(), await freePort()];

  await tool('initdb', ['-D', primaryDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C']);
  await appendFile(
    path.join(primaryDir, 'postgresql.conf'),
    [
      "listen_addresses = '127.0.0.1'",
      `unix_socket_directories = '${dir}'`,
      'wal_level = replica',
      'max_wal_senders = 8',
      'hot_standby = on',
      'fsync = off',
      'max_connections = 300',
      "wal_keep_size = '256MB'",
      // The projector commits asynchronously: its WAL reaches the standby when the WAL writer
      // flushes it, every wal_writer_delay (200 ms by default). ADR 022 recommends 10 ms.
      "wal_writer_delay = '10ms'",
      '',
    ].join('\n'),
  );
  const start = (dataDir: string, port: number, settings: string[] = []): Server => {
    const args = ['-D', dataDir, '-p', String(port), ...settings.flatMap((setting) => ['-c', setting])];
    const child = spawn(path.join(bin, 'postgres'), args, {
      ...as,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-8_000);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const killOnExit = () => child.kill('SIGKILL');
    process.once('exit', killOnExit);
    void exited.then(() => process.off('exit', killOnExit));
    return { child, exited, output: () => output };
  };
  const stopServer = async (server: Server | null) => {
    if (!server || server.child.exitCode !== null || server.child.signalCode !== null) return;
    server.child.kill('SIGINT'); // fast shutdown
    await server.exited;
  };
  const url = (port: number, database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`;

  let primary: Server | null = start(primaryDir, primaryPort);
  let standby: Server | null = null;
  try {
    await waitUntilAnswering(url(primaryPort), primary);
    await tool('pg_basebackup', [
      '-h',
      '127.0.0.1',
      '-p',
      String(primaryPort),
      '-U',
      'postgres',
      '-D',
      standbyDir,
      '-R',
      '-X',
      'stream',
      '--checkpoint=fast',
    ]);
    standby = start(standbyDir, standbyPort);
    await waitUntilAnswering(url(standbyPort), standby, true);
  } catch (error) {
    await stopServer(standby);
    await stopServer(primary);
    await rm(dir, { recursive: true, force: true });
    throw error;
  }

  return {
    primaryUrl: url(primaryPort),
    standbyUrl: url(standbyPort),
    urls: (database) => ({ primary: url(primaryPort, database), standby: url(standbyPort, database) }),
    async createDatabase(name) {
      const admin = new pg.Client({ connectionString: url(primaryPort) });
      await admin.connect();
      try {
        await admin.query(`create database "${name.replace(/"/g, '')}"`);
      } finally {
        await admin.end();
      }
      const urls = { primary: url(primaryPort, name), standby: url(standbyPort, name) };
      await waitUntilAnswering(urls.standby, standby, true);
      return urls;
    },
    async stopStandby() {
      await stopServer(standby);
    },
    async startStandby({ streaming = true } = {}) {
      standby = start(standbyDir, standbyPort, streaming ? [] : ['primary_conninfo=']);
      await waitUntilAnswering(url(standbyPort), standby, true);
    },
    async stop() {
      await stopServer(standby);
      await stopServer(primary);
      primary = null;
      standby = null;
      await rm(dir, { recursive: true, force: true });
    },
  };
}

async function osUserIds(): Promise<{ uid: number; gid: number } | null> {
  if (process.getuid?.() !== 0) return null;
  const [uid, gid] = await Promise.all([run('id', ['-u', 'postgres']), run('id', ['-g', 'postgres'])]);
  return { uid: Number(uid.stdout), gid: Number(gid.stdout) };
}

/**
 * Polls until the server takes connections (and, for a standby, is in recovery). A server
 * that exits meanwhile fails it at once, with what the server printed.
 */
async function waitUntilAnswering(
  connectionString: string,
  server: Server | null,
  inRecovery = false,
  timeoutMs = 60_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (server && (server.child.exitCode !== null || server.child.signalCode !== null)) {
      throw new Error(
        `PostgreSQL for ${connectionString} exited (${server.child.signalCode ?? server.child.exitCode}):\n${server.output()}`,
      );
    }
    const client = new pg.Client({ connectionString, connectionTimeoutMillis: 2000 });
    try {
      await client.connect();
      const { rows } = await client.query<{ recovery: boolean }>('select pg_is_in_recovery() as recovery');
      if (!inRecovery || rows[0]?.recovery) return;
    } catch (error) {
      if (Date.now() > deadline) {
        throw new Error(`PostgreSQL at ${connectionString} did not answer: ${error}\n${server?.output() ?? ''}`);
      }
    } finally {
      await client.end().catch(() => {});
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
