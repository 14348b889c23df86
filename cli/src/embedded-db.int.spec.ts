/**
 * The embedded database the way `bugtrail start` opens it (no DATABASE_URL), with real
 * launcher processes from the sources (testing/src/run-ts.mjs), real PostgreSQL and real
 * SIGKILLs: a killed launcher must not keep the next start on its DATA_DIR from coming up.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { http, registerUser, TEST_INVITE_CODE } from '@bugtrail/testing';
import { afterEach, describe, expect, it } from 'vitest';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const isRoot = process.getuid?.() === 0;

/** What the launcher inherits: enough to run node, nothing of this process's Bugtrail settings. */
const INHERITED_ENV = ['PATH', 'HOME', 'TMPDIR', 'TZ', 'LANG'];

type Launcher = {
  pid: number;
  /** The URL it prints once it listens; rejects if it exits first. */
  url: Promise<string>;
  /** Its exit code, or the signal that ended it. */
  exited: Promise<number | NodeJS.Signals | null>;
  stderr(): string;
};

const launchers: ChildProcess[] = [];
const folders: string[] = [];

/** `bugtrail start` on `dataDir` from the sources, in a process of its own. */
function launch(dataDir: string): Launcher {
  const env: Record<string, string> = {};
  for (const name of INHERITED_ENV) if (process.env[name] !== undefined) env[name] = process.env[name]!;
  const child = spawn(
    process.execPath,
    [path.join(repoRoot, 'testing/src/run-ts.mjs'), path.join(repoRoot, 'cli/src/bench/source-start.ts')],
    {
      cwd: repoRoot,
      env: {
        ...env,
        DATA_DIR: dataDir,
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        ADMIN_INVITE_CODE: TEST_INVITE_CODE,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  launchers.push(child);
  const exited = new Promise<number | NodeJS.Signals | null>((resolve) =>
    child.once('exit', (code, signal) => resolve(signal ?? code)),
  );
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const url = new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const found = /URL:\s+(http\S+)/.exec(stdout);
      if (found) resolve(found[1]!);
    });
    void exited.then((how) => reject(new Error(`bugtrail exited (${String(how)}) before it listened:\n${stderr}`)));
  });
  url.catch(() => {}); // a test that expects the exit awaits `exited` instead
  return { pid: child.pid!, url, exited, stderr: () => stderr };
}

/** A fresh folder to hold DATA_DIR; `open` lets the database user in (it is not root). */
async function tempFolder(open: boolean): Promise<string> {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'bugtrail-embedded-db-'));
  folders.push(folder);
  if (open) await chmod(folder, 0o755);
  return folder;
}

/** The pid on the first line of PostgreSQL's lock file in the data directory. */
async function postmasterPid(dataDir: string): Promise<number> {
  const text = await readFile(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8');
  return Number(text.split('\n')[0]);
}

async function procStatus(pid: number): Promise<string | undefined> {
  return readFile(`/proc/${pid}/status`, 'utf8').catch(() => undefined);
}

/** Alive and not a zombie waiting to be reaped. */
async function isRunning(pid: number): Promise<boolean> {
  const status = await procStatus(pid);
  return status !== undefined && !/^State:\s*[ZX]/m.test(status);
}

async function childrenOf(pid: number): Promise<number[]> {
  const children: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const ppid = /^PPid:\s*(\d+)/m.exec((await procStatus(Number(entry))) ?? '')?.[1];
    if (Number(ppid) === pid) children.push(Number(entry));
  }
  return children;
}

/** Polls until `check` holds; the test's timeout bounds the wait. */
async function until(check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 100));
}

async function canLogIn(url: string, email: string): Promise<string> {
  const login = await http(url).post('/api/auth/login', { email, password: 'correct horse battery' });
  expect(login.status).toBe(200);
  return login.body._id;
}

afterEach(async () => {
  for (const child of launchers.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
  }
  // A postmaster a test orphaned on purpose and no launcher stopped.
  for (const folder of folders.splice(0)) {
    const pid = await postmasterPid(path.join(folder, 'data')).catch(() => 0);
    if (pid && (await isRunning(pid)) && (await readFile(`/proc/${pid}/cmdline`, 'utf8')).includes(folder)) {
      process.kill(pid, 'SIGINT');
      await until(async () => !(await isRunning(pid)));
    }
    await rm(folder, { recursive: true, force: true });
  }
});

describe('when the launcher is SIGKILLed', () => {
  it('the next start on the same DATA_DIR stops the PostgreSQL left running, comes up and has the data', async () => {
    const dataDir = path.join(await tempFolder(true), 'data');
    const first = launch(dataDir);
    const user = await registerUser(await first.url, 'admin');
    const orphan = await postmasterPid(dataDir);

    // Everything of the launcher's dies at once except PostgreSQL: the worst case, where
    // nothing is left to stop the postmaster.
    const helpers = (await childrenOf(first.pid)).filter((pid) => pid !== orphan);
    for (const pid of [first.pid, ...helpers]) process.kill(pid, 'SIGKILL');
    expect(await first.exited).toBe('SIGKILL');
    expect(await isRunning(orphan)).toBe(true);

    const second = launch(dataDir);
    const url = await second.url;
    expect((await http(url).get('/health')).status).toBe(200);
    expect((await http(url).get('/ready')).status).toBe(200);
    expect(await canLogIn(url, user.email)).toBe(user.id);
    expect(await isRunning(orphan)).toBe(false);
    expect(await postmasterPid(dataDir)).not.toBe(orphan);
  }, 180_000);

  it('its PostgreSQL shuts down by itself, and a lock file naming a reused pid does not stop the next start', async () => {
    const dataDir = path.join(await tempFolder(true), 'data');
    const first = launch(dataDir);
    const user = await registerUser(await first.url, 'admin');
    const postmaster = await postmasterPid(dataDir);
    const lockFile = await readFile(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8');

    process.kill(first.pid, 'SIGKILL');
    expect(await first.exited).toBe('SIGKILL');
    await until(async () => !(await isRunning(postmaster)) && !existsSync(path.join(dataDir, 'pg', 'postmaster.pid')));

    // As after a reboot: the lock file is back, and its pid now belongs to another program (this one).
    await writeFile(path.join(dataDir, 'pg', 'postmaster.pid'), lockFile.replace(/^\d+/, String(process.pid)));

    const second = launch(dataDir);
    const url = await second.url;
    expect((await http(url).get('/ready')).status).toBe(200);
    expect(await canLogIn(url, user.email)).toBe(user.id);
  }, 180_000);
});

describe('when a launcher already runs on the DATA_DIR', () => {
  it('a second start is refused in one line and the first keeps serving', async () => {
    const dataDir = path.join(await tempFolder(true), 'data');
    const first = launch(dataDir);
    const url = await first.url;
    const user = await registerUser(url, 'admin');

    const second = launch(dataDir);
    expect(await second.exited).toBe(1);
    expect(second.stderr().trim().split('\n')).toEqual([expect.stringContaining(`DATA_DIR ${dataDir} is in use`)]);

    expect((await http(url).get('/ready')).status).toBe(200);
    expect(await canLogIn(url, user.email)).toBe(user.id);
  }, 180_000);
});

describe('when the database user cannot enter the DATA_DIR', () => {
  it('the start fails before initdb with one line naming the path and the fix', async (context) => {
    context.skip(
      !isRoot,
      'only meaningful as root: PostgreSQL then runs as the user "postgres"; otherwise it runs as this user, who reaches the folder',
    );
    // mkdtemp makes the folder 0700 and root-owned: the 'postgres' user cannot pass it.
    const folder = await tempFolder(false);
    const dataDir = path.join(folder, 'data');

    const start = launch(dataDir);
    expect(await start.exited).toBe(1);
    const lines = start.stderr().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`DATA_DIR ${dataDir} is not reachable by the database user 'postgres'`);
    expect(lines[0]).toContain(`cannot enter ${folder}.`);
    expect(lines[0]).toContain(`chmod o+x ${folder}`);
    expect(existsSync(path.join(dataDir, 'pg'))).toBe(false);
  }, 120_000);
});
