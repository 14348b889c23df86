import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../embedded-db.js';

export type ServerProcess = { url: string; child: ChildProcess; stop(): Promise<void> };

export const BENCH_INVITE_CODE = '135790';

/**
 * The real launcher (`bugtrail start`) in its own process, so the load generator
 * does not share its event loop with the server it measures.
 */
export async function startServerProcess(
  root: string,
  databaseUrl: string,
  env: Record<string, string> = {},
): Promise<ServerProcess> {
  const port = await freePort();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'bugtrail-bench-data-'));
  // The built launcher; from source (vite's module runner) with BENCH_FROM_SOURCE=1 or without a build.
  const dist = path.join(root, 'cli', 'dist', 'main.js');
  const fromSource = process.env.BENCH_FROM_SOURCE === '1' || !existsSync(dist);
  const args = fromSource
    ? [path.join(root, 'testing', 'src', 'run-ts.mjs'), path.join(root, 'cli', 'src', 'bench', 'source-start.ts')]
    : [dist, 'start'];
  const child = spawn(process.execPath, args, {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      ADMIN_INVITE_CODE: BENCH_INVITE_CODE,
      RATE_LIMIT_LOGIN_PER_IP: '100000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`server did not start: ${output}`)), 120_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Bugtrail is running')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code}: ${output}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    child,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * CPU time a process has used so far (user + system, every thread), in ms; null where
 * /proc is not there. Linux reports it in ticks of 1/100 s (USER_HZ).
 */
export function processCpuMs(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which may hold spaces: utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

/** A JSON call for the bench: GET without a body, else the method given (POST by default). */
export async function benchCall(
  url: string,
  options: { method?: string; body?: unknown; token?: string } = {},
): Promise<any> {
  const { body, token } = options;
  const response = await fetch(url, {
    method: options.method ?? (body === undefined ? 'GET' : 'POST'),
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${options.method ?? 'GET/POST'} ${url}: ${response.status} ${text.slice(0, 200)}`);
  return text ? JSON.parse(text) : null;
}

export type BenchUser = { id: string; token: string };

export async function registerBenchUser(
  base: string,
  role: 'admin' | 'tester' | 'developer',
  n: number,
): Promise<BenchUser> {
  const answer = await benchCall(`${base}/api/auth/register`, {
    body: {
      name: `Bench ${role} ${n}`,
      email: `bench.${role}.${n}.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.com`,
      password: 'bench password 1',
      role,
      ...(role === 'admin' ? { adminInviteToken: BENCH_INVITE_CODE } : {}),
    },
  });
  return { id: answer._id, token: answer.token };
}
