/**
 * deploy/nginx.conf, run by the machine's nginx (Debian's) in front of local processes:
 * the compose file's proxy with its upstreams pointed at 127.0.0.1 ports. The routing
 * rules are the file's own; only the upstream servers and the listen port are replaced.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './free-port.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export function findNginx(): string | null {
  return ['/usr/sbin/nginx', '/usr/bin/nginx'].find((bin) => existsSync(bin)) ?? null;
}

export type RunningNginx = { url: string; stop(): Promise<void> };

export async function startNginx(upstreams: { readApi: string[]; writeApi: string[] }): Promise<RunningNginx> {
  const bin = findNginx();
  if (!bin) throw new Error('nginx is not installed (apt-get install nginx-light)');
  const dir = await mkdtemp(path.join(os.tmpdir(), 'bugtrail-nginx-'));
  await mkdir(path.join(dir, 'logs'));
  const port = await freePort();
  const servers = (urls: string[]) =>
    // A dead upstream is skipped for 2 s after one failure (connect errors retry on the next).
    urls.map((url) => `server ${new URL(url).host} max_fails=1 fail_timeout=2s;`).join(' ');
  let site = await readFile(path.join(repoRoot, 'deploy', 'nginx.conf'), 'utf8');
  const replace = (pattern: RegExp, by: string) => {
    if (!pattern.test(site)) throw new Error(`deploy/nginx.conf no longer has ${pattern}`);
    site = site.replace(pattern, by);
  };
  replace(/upstream read_api \{ server [^}]*\}/, `upstream read_api { ${servers(upstreams.readApi)} keepalive 16; }`);
  replace(
    /upstream write_api \{ server [^}]*\}/,
    `upstream write_api { ${servers(upstreams.writeApi)} keepalive 16; }`,
  );
  replace(/listen 80;/, `listen 127.0.0.1:${port};`);
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']
    .map((name) => `${name}_temp_path ${path.join(dir, `${name}_temp`)};`)
    .join('\n  ');
  const conf = `${process.getuid?.() === 0 ? 'user root;\n' : ''}worker_processes 1;
pid ${path.join(dir, 'nginx.pid')};
error_log ${path.join(dir, 'logs', 'error.log')} warn;
events { worker_connections 4096; }
http {
  access_log off;
  ${temp}
  ${site}
}
`;
  await writeFile(path.join(dir, 'nginx.conf'), conf);
  const child: ChildProcess = spawn(bin, ['-p', dir, '-c', path.join(dir, 'nginx.conf'), '-g', 'daemon off;'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let output = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-8000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  void exited.then(() => process.off('exit', killOnExit));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited: ${output}`);
    try {
      await fetch(`${url}/health`);
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`nginx did not answer: ${output}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  return {
    url,
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGQUIT'); // graceful
        const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
        await exited;
        clearTimeout(timer);
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
