import { mountOperations, type RouteSpec } from '@bugtrail/platform';
import { z } from 'zod';
import { auditOperations } from './audit/audit.openapi.js';
import { automationReadOperations } from './automations/automations.openapi.js';
import { bugReadOperations } from './bugs/bugs.openapi.js';
import { suggestionReadOperations } from './bugs/suggestions.openapi.js';
import { chatReadOperations, chatUsersOperations } from './chats/chats.openapi.js';
import { labelReadOperations } from './labels/labels.openapi.js';
import { liveOperations } from './live/live.openapi.js';
import { metricsOperations } from './metrics/metrics.openapi.js';
import { milestoneReadOperations } from './milestones/milestones.openapi.js';
import { notificationReadOperations } from './notifications/notifications.openapi.js';
import { openApiOperations } from './openapi/openapi.openapi.js';
import { projectReadOperations } from './projects/projects.openapi.js';
import { reportOperations } from './reports/reports.openapi.js';
import { slaReadOperations } from './sla/sla.openapi.js';
import { systemOperations } from './system/system.openapi.js';
import { uploadOperations } from './uploads/uploads.openapi.js';
import { profileOperations, usersOperations } from './users/users.openapi.js';
import { viewReadOperations } from './views/views.openapi.js';
import { worklogExportOperations, worklogOperations } from './worklog/worklog.openapi.js';

/** Every GET read-api serves (and its read-only POSTs), mounted where app.ts mounts each router. */

// app.ts waits for X-Min-Position on every request (read-your-writes).
const minPosition = z.object({
  'X-Min-Position': z
    .string()
    .optional()
    .describe("A command's X-Event-Position: wait (bounded) until the read models have passed it"),
});
const withMinPosition = (operation: RouteSpec): RouteSpec =>
  operation.auth === false
    ? operation
    : { ...operation, headers: operation.headers ? operation.headers.extend(minPosition.shape) : minPosition };

export const readApiOperations: readonly RouteSpec[] = [
  ...mountOperations('/', systemOperations),
  ...mountOperations('/api', openApiOperations),
  ...mountOperations('/api/auth', profileOperations),
  ...mountOperations('/api/users', usersOperations),
  ...mountOperations('/api/bugs/suggestions', suggestionReadOperations),
  ...mountOperations('/api/bugs', bugReadOperations),
  ...mountOperations('/api/reports', worklogExportOperations),
  ...mountOperations('/api/reports', reportOperations),
  ...mountOperations('/api/worklog', worklogOperations),
  ...mountOperations('/api/audit', auditOperations),
  ...mountOperations('/api/metrics', metricsOperations),
  ...mountOperations('/api/sla', slaReadOperations),
  ...mountOperations('/api/views', viewReadOperations),
  ...mountOperations('/api/projects', projectReadOperations),
  ...mountOperations('/api/labels', labelReadOperations),
  ...mountOperations('/api/milestones', milestoneReadOperations),
  ...mountOperations('/api/notifications', notificationReadOperations),
  ...mountOperations('/api/automations', automationReadOperations),
  ...mountOperations('/api/events', liveOperations),
  ...mountOperations('/api/chats', chatReadOperations),
  // The spec's chat-server paths: the same routers, the same declarations.
  ...mountOperations('/chats', chatReadOperations, { operationIdPrefix: 'chatServer' }),
  ...mountOperations('/users', chatUsersOperations, { operationIdPrefix: 'chatServer' }),
  ...mountOperations('/uploads', uploadOperations),
].map(withMinPosition);
