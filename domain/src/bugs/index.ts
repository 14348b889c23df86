import { registerEvents } from '../core/registry.js';
import { bugEventSchemas } from './bug.schemas.js';
import { bugCommentEventSchemas } from './comments.js';
import { dueEventSchemas } from './due.js';

registerEvents(bugEventSchemas);
registerEvents(bugCommentEventSchemas);
registerEvents(dueEventSchemas);

export * from './bug.js';
export * from './bug.schemas.js';
export * from './bug-dto.js';
export * from './bug-events.js';
export * from './bug-vocabulary.js';
export * from './changes.js';
export * from './checklist.js';
export * from './code-links.js';
export * from './comments.js';
export * from './decide.js';
export * from './due.js';
export * from './files.js';
export * from './imported-people.js';
export * from './permissions.js';
export * from './status.js';
export * from './triage.js';
export * from './triage.schemas.js';
export * from './validation.js';
