export { freePort, openDatabase, startEmbeddedPostgres } from './embedded-db.js';
export {
  ALL_PARTS,
  createSystem,
  migrateAll,
  type Part,
  type System,
  type SystemOptions,
  serveSystem,
} from './system.js';
