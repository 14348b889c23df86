/**
 * A PostgreSQL cluster for one test file alone. Tests that hold transactions open
 * hold back every event-store reader of the cluster (the xmin gate spans all its
 * databases), and tests that stop the server would break every other file: both
 * need a cluster nobody else uses.
 */
import { startCluster } from './cluster.js';
import { createThrowawayDatabase } from './throwaway-database.js';

export type OwnCluster = {
  /** The admin url (database `postgres`). */
  url: string;
  /** Creates a database and answers its url. */
  createDatabase(name: string): Promise<string>;
  stop(): Promise<void>;
};

const createDatabaseOn = async (adminUrl: string, name: string) => (await createThrowawayDatabase(adminUrl, name)).url;

export async function startOwnCluster(): Promise<OwnCluster> {
  const cluster = await startCluster('bugtrail-own-cluster-');
  return {
    url: cluster.url,
    createDatabase: (name) => createDatabaseOn(cluster.url, name),
    stop: () => cluster.stop(),
  };
}

export type RestartableCluster = OwnCluster & {
  /** Stops the server (fast shutdown: open connections are cut) and keeps its data. */
  pause(): Promise<void>;
  /** Starts it again on the same port and data: clients' urls stay valid. */
  resume(): Promise<void>;
};

/** A cluster of its own that can be stopped and started again with the same data. */
export async function startRestartableCluster(): Promise<RestartableCluster> {
  const cluster = await startCluster('bugtrail-own-cluster-');
  return { ...cluster, createDatabase: (name) => createDatabaseOn(cluster.url, name) };
}
