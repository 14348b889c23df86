import { registerEvents } from '../core/registry.js';
import { defaultProjectEventSchemas } from './default-project.js';
import { projectEventSchemas } from './project.schemas.js';

registerEvents(projectEventSchemas);
registerEvents(defaultProjectEventSchemas);

export * from './default-project.js';
export * from './fields.js';
export * from './project.js';
export * from './project.schemas.js';
export * from './states.js';
