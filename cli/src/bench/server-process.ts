import { type ChildProcess, spawn } from 'node:child_process';
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
  const child = spawn(process.execPath, [path.join(root, 'cli', 'dist', 'main.js'), 'start'], {
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
    const timer = setTimeout(() => reject(new Error(`server did not start: ${output}`)), 60_000);
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
