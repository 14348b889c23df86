import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '@bugtrail/platform';
import { isWriteApiRead, writeApiReadPaths } from '@bugtrail/write-api';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ALL_PARTS } from './system.js';

/**
 * docker-compose.yml, the Dockerfile and deploy/nginx.conf describe what the topology
 * test runs as local processes (issue 18): the same commands, the same environment names,
 * the same ports and routes. Nothing here can run them (no container engine); this holds
 * them to the launcher instead.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

type Service = {
  image?: string;
  build?: unknown;
  command?: string[];
  environment?: Record<string, string>;
  volumes?: string[];
};
const compose = parse(read('docker-compose.yml'), { merge: true }) as { services: Record<string, Service> };
const ours = Object.entries(compose.services).filter(([, service]) => service.build !== undefined);

/** Every environment name the launcher's configuration reads (found by reading it through a recorder). */
function configNames(): Set<string> {
  const names = new Set<string>();
  const env = new Proxy({} as NodeJS.ProcessEnv, {
    get(_target, name) {
      if (typeof name === 'string') names.add(name);
      return undefined;
    },
  });
  loadConfig(env);
  return names;
}

describe('the deploy files agree with the launcher', () => {
  it('each of our services runs one part with `--only`, and every part has a service', () => {
    expect(ours.length).toBeGreaterThan(0);
    const parts = ours.map(([name, service]) => {
      expect(service.command, name).toEqual(['--only', expect.any(String)]);
      const part = service.command![1]!;
      expect(ALL_PARTS, `${name} runs ${part}`).toContain(part);
      return part;
    });
    expect(new Set(parts)).toEqual(new Set(ALL_PARTS));
  });

  it('sets only environment names the launcher reads, and the ones it needs', () => {
    const known = configNames();
    for (const [name, service] of ours) {
      const environment = Object.keys(service.environment ?? {});
      expect(
        environment.filter((key) => !known.has(key)),
        `${name} sets names no part reads`,
      ).toEqual([]);
      expect(environment, name).toEqual(expect.arrayContaining(['DATABASE_URL', 'JWT_SECRET', 'DATA_DIR']));
    }
  });

  it('the image starts the launcher on the port nginx proxies to, on the current Node.js LTS', () => {
    const dockerfile = read('Dockerfile');
    expect(dockerfile).toMatch(/^ENTRYPOINT \["node", "cli\/dist\/main\.js", "start"\]$/m);
    const port = /^ENV .*\bPORT=(\d+)/m.exec(dockerfile)?.[1];
    expect(port).toBeDefined();
    const nginx = read('deploy/nginx.conf');
    const upstreams = [...nginx.matchAll(/upstream (\w+) \{ server ([\w-]+):(\d+); \}/g)];
    expect(upstreams.map((u) => u[1]).sort()).toEqual(['read_api', 'write_api']);
    for (const [, , host, upstreamPort] of upstreams) {
      expect(Object.keys(compose.services), `nginx proxies to ${host}`).toContain(host);
      expect(compose.services[host!]!.command).toEqual(['--only', host]);
      expect(upstreamPort).toBe(port);
    }
    // Node.js 20 is past its end of life: the image runs the active LTS (24).
    for (const from of dockerfile.matchAll(/^FROM node:(\d+)/gm)) expect(Number(from[1])).toBeGreaterThanOrEqual(24);
  });

  it("nginx sends write-api's GETs (writeApiReadPaths) to write-api, as the in-process split does", () => {
    const nginx = read('deploy/nginx.conf');
    const toWriteApi = [...nginx.matchAll(/location\s+(~\s+(\S+)|=\s+(\S+)|(\S+))\s*\{([^}]*)\}/g)]
      .filter((block) => /proxy_pass http:\/\/write_api;/.test(block[5] ?? ''))
      .map(
        ([, , regex, exact, prefix]) =>
          (path: string) =>
            regex ? new RegExp(regex).test(path) : exact ? path === exact : path.startsWith(prefix!),
      );
    for (const base of writeApiReadPaths) {
      for (const path of [base, `${base}/some-id`]) {
        expect(isWriteApiRead(path), path).toBe(true);
        expect(
          toWriteApi.some((matches) => matches(path)),
          `nginx routes GET ${path} to write-api`,
        ).toBe(true);
      }
    }
    expect(toWriteApi.some((matches) => matches('/api/bugs'))).toBe(false);
  });

  it('the replicas share the uploads folder (ADR 005)', () => {
    for (const [name, service] of ours) {
      expect(service.volumes ?? [], name).toContain('uploads:/data/uploads');
      expect(service.environment?.DATA_DIR).toBe('/data');
    }
  });
});
