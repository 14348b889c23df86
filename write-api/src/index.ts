export { createWriteApi } from './app.js';
export { InviteCodes } from './auth/invite-codes.js';
export { writeApiMigrations } from './auth/migrations.js';
export { deriveEventId, handleCommand } from './commands/handle-command.js';
export type { WriteApiDeps } from './deps.js';
