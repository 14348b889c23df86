import type { UsersTable } from './users/users.projection.js';

/** The read-model tables (schema `rm`), as read-api queries them with kysely. */
export interface ReadModelDb {
  users: UsersTable;
}
