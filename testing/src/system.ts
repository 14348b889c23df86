/**
 * `@bugtrail/testing/system`: the whole product in the test's own process (every
 * server package loads). For int tests that reach inside (the store, the change feed);
 * a test that only needs the product from outside can use `./process.ts` instead.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createSystem, type Part, type System } from '@bugtrail/cli';
import type { ExpectedRevision, NewEvent } from '@bugtrail/eventstore';
import { type Config, type DnsLookup, listen, loadConfig, silentLogger } from '@bugtrail/platform';
import { createTestDatabase } from './database.js';
import { TEST_INVITE_CODE } from './users.js';

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
  options: {
    parts?: Part[];
    config?: Partial<Config>;
    webDir?: string;
    databaseUrl?: string;
    webhookLookup?: DnsLookup;
  } = {},
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
    // Read-your-writes waits for the projector up to this long, then answers anyway (with
    // X-Read-Model-Lag). The product's 2 s is a fine bound for people, but on a busy CI machine
    // the projector can lag longer, and a test reading right after a command then saw the state
    // before it (issue 40: depend on events, not on speed). A test of the bound sets its own.
    readYourWritesTimeoutMs: 20_000,
    ...options.config,
    rateLimits: { ...base.rateLimits, ...options.config?.rateLimits },
  };
  const system = await createSystem({
    config,
    databaseUrl,
    logger: silentLogger,
    ...(options.parts ? { parts: options.parts } : {}),
    ...(options.webDir ? { webDir: options.webDir } : {}),
    ...(options.webhookLookup ? { webhookLookup: options.webhookLookup } : {}),
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

/** Appends events as write-api would after deciding, then waits until every read model has them. */
export async function appendAndSettle(
  t: TestSystem,
  streamId: string,
  events: NewEvent[],
  expected: ExpectedRevision = 'any',
): Promise<string> {
  const result = await t.system.store.append(streamId, events, expected);
  const caughtUp = await t.system.changeFeed.waitFor(result.position, 10_000);
  if (!caughtUp) throw new Error(`read models did not reach ${result.position}`);
  return result.position;
}
