export { allProjections } from './projections.js';
export { projectorMigrations } from './runtime/migrations.js';
export type { Projection, ProjectionContext } from './runtime/projection.js';
export { READ_MODEL_SCHEMA } from './runtime/projection.js';
export { chunkNotices, Projector, type ProjectorOptions, type ProjectorStatus } from './runtime/projector.js';
export type { ReadModelDb } from './schema.js';
export { type UsersTable, usersProjection } from './users/users.projection.js';
