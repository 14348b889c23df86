import { registerEvents } from '../core/registry.js';
import { chatEventSchemas } from './chat.schemas.js';

registerEvents(chatEventSchemas);

export * from './chat.js';
export * from './chat.schemas.js';
export * from './chat-dto.js';
export * from './chat-vocabulary.js';
export * from './decide.js';
export * from './permissions.js';
export * from './timeline.js';
export * from './timeline-decide.js';
