import { createTestDatabase } from '@bugtrail/testing';
import { startEsdbProtocolServer } from '@bugtrail/testing/esdb';
import pg from 'pg';
import { describeEventStoreContract } from '../contract/event-store.contract.js';
import { EsdbEventStore } from './esdb-event-store.js';

const connectionString = process.env.EVENTSTORE_CONNECTION_STRING;
const heldTransactions = {
  notApplicable: 'EventStoreDB commits each append on its own; no client transaction can be held open',
};

/** The write side's own rows stay in PostgreSQL beside EventStoreDB (ADR 026): a test database of their own. */
async function openRows() {
  const database = await createTestDatabase();
  const rows = new pg.Pool({ connectionString: database.url, max: 4 });
  return {
    rows,
    async close() {
      await rows.end();
      await database.drop();
    },
  };
}

if (connectionString) {
  // A real EventStoreDB (or KurrentDB): EVENTSTORE_CONNECTION_STRING=esdb://host:2113?tls=false
  describeEventStoreContract('EventStoreDB', {
    async open() {
      const { rows, close } = await openRows();
      const store = new EsdbEventStore(connectionString, { rows });
      return {
        store,
        rows,
        async close() {
          await store.close();
          await close();
        },
      };
    },
    heldTransactions,
  });
} else {
  // No EventStoreDB can run here: the same suite against a gRPC double of its protocol
  // (testing/src/esdb-protocol-server.ts), once as newer servers answer (BatchAppend) and
  // once as 20.x servers do (no ServerFeatures: the client appends with Append).
  for (const batchAppend of [true, false]) {
    const how = batchAppend ? 'BatchAppend' : 'Append, no ServerFeatures';
    describeEventStoreContract(`EventStoreDB protocol server on 127.0.0.1, ${how} (a test double, not EventStoreDB)`, {
      async open() {
        const server = await startEsdbProtocolServer({ batchAppend });
        const { rows, close } = await openRows();
        const store = new EsdbEventStore(server.connectionString, { rows });
        return {
          store,
          rows,
          async close() {
            await store.close();
            await server.close();
            await close();
            // The client took the path this run is about.
            if (batchAppend ? server.counters.appends > 0 : server.counters.batchAppends > 0) {
              throw new Error(`expected only ${batchAppend ? 'BatchAppend' : 'Append'} calls`);
            }
          },
        };
      },
      heldTransactions,
    });
  }
}
