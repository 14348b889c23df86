import { registerEvents } from '../core/registry.js';
import { milestoneEventSchemas } from './milestone.schemas.js';

registerEvents(milestoneEventSchemas);

export * from './milestone.js';
export * from './milestone.schemas.js';
