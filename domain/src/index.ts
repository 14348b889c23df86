export * from './bugs/index.js';
export * from './chats/index.js';
export * from './core/index.js';
export * from './events.js';
export * from './notifications/index.js';
export * from './users/index.js';
export * from './views/index.js';
export * from './webhooks/index.js';
