import { registerEvents } from '../core/registry.js';
import { automationEventSchemas } from './automation.schemas.js';

registerEvents(automationEventSchemas);

export * from './automation.js';
export * from './automation.schemas.js';
export * from './automation-vocabulary.js';
export * from './bug-facts.js';
