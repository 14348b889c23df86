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
  const cluster = await startCluster();
  project.provide('adminDatabaseUrl', cluster.url);
  return () => cluster.stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    adminDatabaseUrl: string;
  }
}
