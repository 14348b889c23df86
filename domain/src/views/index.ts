import { registerEvents } from '../core/registry.js';
import { viewEventSchemas } from './view.schemas.js';

registerEvents(viewEventSchemas);

export * from './decide.js';
export * from './view.js';
export * from './view.schemas.js';
