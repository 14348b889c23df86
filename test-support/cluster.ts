import { startThrowawayCluster, type ThrowawayCluster } from '../cli/src/embedded-db.js';

/** A throwaway PostgreSQL cluster for tests: fsync off, many connections. */
export function startCluster(prefix = 'bugtrail-test-'): Promise<ThrowawayCluster> {
  return startThrowawayCluster({ prefix, flags: ['-c', 'max_connections=400', '-c', 'fsync=off'] });
}
