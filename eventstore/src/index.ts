export * from './audit/hash-chain.js';
export * from './audit/verify-store.js';
export * from './commands/command-handler.js';
export { EsdbEventStore } from './esdb/esdb-event-store.js';
export * from './port.js';
export { PostgresEventStore, type PostgresEventStoreOptions } from './postgres/postgres-event-store.js';
export { EVENTSTORE_SCHEMA_SQL, migrateEventStore } from './postgres/schema.js';
export { timeAppends } from './timed-store.js';
