import { registerEvents } from '../core/registry.js';
import { slaBreachEventSchemas, slaEventSchemas } from './sla.schemas.js';

registerEvents(slaEventSchemas);
registerEvents(slaBreachEventSchemas);

export * from './sla.js';
export * from './sla.schemas.js';
export * from './sla-vocabulary.js';
