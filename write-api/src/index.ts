export { createWriteApi, isWriteApiRead, writeApiReadPaths } from './app.js';
export { Accounts } from './auth/accounts.js';
export { InviteCodes } from './auth/invite-codes.js';
export { writeApiMigrations } from './auth/migrations.js';
export { BugNumbers } from './bugs/bug-numbers.js';
export { ClaimOwner } from './claim-owner.js';
export type { WriteApiDeps } from './deps.js';
export { writeApiOperations } from './operations.js';
export { ensureGeneralProject } from './projects/general-project.js';
