import { registerEvents } from '../core/registry.js';
import { labelEventSchemas } from './label.schemas.js';

registerEvents(labelEventSchemas);

export * from './label.js';
export * from './label.schemas.js';
