import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'vitest';
import { describeEventStoreContract } from '../contract/event-store.contract.js';
import { EsdbEventStore } from './esdb-event-store.js';

const connectionString = process.env.EVENTSTORE_CONNECTION_STRING;

/**
 * Whether a container engine could run EventStoreDB here: a reachable daemon socket,
 * not merely a CLI on the PATH (this machine has a docker CLI and no daemon).
 */
function hasContainerEngine(): boolean {
  const sockets = [
    '/var/run/docker.sock',
    '/run/podman/podman.sock',
    path.join(process.env.XDG_RUNTIME_DIR ?? '/nonexistent', 'podman', 'podman.sock'),
  ];
  return Boolean(process.env.DOCKER_HOST) || sockets.some((socket) => existsSync(socket));
}

if (connectionString) {
  describeEventStoreContract('EventStoreDB', {
    async open() {
      const store = new EsdbEventStore(connectionString);
      return { store, close: () => store.close() };
    },
    heldTransactions: {
      notApplicable: 'EventStoreDB commits each append on its own; no client transaction can be held open',
    },
  });
} else {
  const reason = hasContainerEngine()
    ? 'no EVENTSTORE_CONNECTION_STRING (a container engine exists, but testcontainers is not installed)'
    : 'no EVENTSTORE_CONNECTION_STRING and no container engine on this machine';
  describe.skip(`EventStoreDB contract — skipped: ${reason}`, () => {
    it('runs the event store contract suite against EventStoreDB', () => {});
  });
}
