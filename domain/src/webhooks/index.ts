import { registerEvents } from '../core/registry.js';
import { webhookEventSchemas } from './webhook.schemas.js';

registerEvents(webhookEventSchemas);

export * from './webhook.schemas.js';
export * from './webhook-types.js';
export * from './webhook-vocabulary.js';
