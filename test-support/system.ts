import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createSystem, type Part, type System } from '@bugtrail/cli';
import { type Config, listen, loadConfig, silentLogger } from '@bugtrail/platform';
import { createTestDatabase } from './database.js';

export const TEST_INVITE_CODE = '246810';

export type TestSystem = {
  url: string;
  system: System;
  databaseUrl: string;
  dataDir: string;
  close(): Promise<void>;
};

/**
 * The real servers on a fresh database, listening on a free loopback port.
 * Tests talk to them over HTTP, exactly as clients do.
 */
export async function startTestSystem(
  options: { parts?: Part[]; config?: Partial<Config>; webDir?: string; databaseUrl?: string } = {},
): Promise<TestSystem> {
  const database = options.databaseUrl ? null : await createTestDatabase();
  const databaseUrl = options.databaseUrl ?? database!.url;
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'bugtrail-data-'));
  const base = loadConfig({});
  const config: Config = {
    ...base,
    dataDir,
    port: 0,
    logLevel: 'silent',
    adminInviteCode: TEST_INVITE_CODE,
    ...options.config,
    rateLimits: { ...base.rateLimits, ...options.config?.rateLimits },
  };
  const system = await createSystem({
    config,
    databaseUrl,
    logger: silentLogger,
    ...(options.parts ? { parts: options.parts } : {}),
    ...(options.webDir ? { webDir: options.webDir } : {}),
  });
  const server = await listen({ fetch: system.fetch }, 0, '127.0.0.1');
  return {
    url: server.url,
    system,
    databaseUrl,
    dataDir,
    async close() {
      system.readApi?.close();
      await server.close();
      await system.close();
      await database?.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
