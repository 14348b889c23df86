import { registerEvents } from '../core/registry.js';
import { notificationEventSchemas } from './notifications.js';

registerEvents(notificationEventSchemas);

export * from './notifications.js';
