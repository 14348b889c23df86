import { mountOperations, type RouteSpec } from '@bugtrail/platform';
import { authOperations } from './auth/auth.openapi.js';
import { mfaOperations } from './auth/mfa.openapi.js';
import { oidcOperations } from './auth/oidc.openapi.js';
import { bugOperations } from './bugs/bugs.openapi.js';
import { chatOperations } from './chats/chats.openapi.js';
import { commandOperations } from './command.js';
import { declaredCommands } from './commands.js';
import { importOperations } from './import/import.openapi.js';
import { codeLinkOperations } from './integrations/code-links.openapi.js';
import { notificationOperations, oneClickUnsubscribeOperations } from './notifications/notifications.openapi.js';
import { tokenOperations } from './tokens/tokens.openapi.js';
import { uploadOperations } from './uploads/uploads.openapi.js';
import { userOperations } from './users/users.openapi.js';
import { webhookOperations } from './webhooks/webhooks.openapi.js';

/**
 * Every operation write-api serves, mounted where app.ts mounts each router, for the
 * OpenAPI document (read-api publishes it; the launcher hands it these).
 */
export const writeApiOperations: readonly RouteSpec[] = [
  ...mountOperations('/api/auth', authOperations),
  ...mountOperations('/api/auth', uploadOperations),
  ...mountOperations('/api/auth/mfa', mfaOperations),
  ...mountOperations('/api/auth/oidc', oidcOperations),
  ...mountOperations('/api/users', userOperations),
  ...mountOperations('/api/bugs', bugOperations),
  ...mountOperations('/api/tokens', tokenOperations),
  ...mountOperations('/api/webhooks', webhookOperations),
  ...mountOperations('/api/import', importOperations),
  ...mountOperations('/api/integrations', codeLinkOperations),
  ...mountOperations('/api/notifications', notificationOperations),
  ...mountOperations('', oneClickUnsubscribeOperations),
  ...mountOperations('/api/chats', chatOperations),
  // The spec's chat-server paths: the same router, the same declaration.
  ...mountOperations('/chats', chatOperations, { operationIdPrefix: 'chatServer' }),
  ...declaredCommands.flatMap(({ base, commands, operationIdPrefix }) =>
    mountOperations(base, commandOperations(commands), operationIdPrefix ? { operationIdPrefix } : {}),
  ),
];
