import { notificationLimits, notificationMessages, userMessages } from '@bugtrail/domain';
import { invalidAnswer, type RouteSpec } from '@bugtrail/platform';
import { z } from 'zod';
import { idempotencyHeader, positionHeaders } from '../commands.openapi.js';
import { markReadBody, unsubscribeBody } from './notifications.routes.js';

/** Mounted at /api/notifications. */
export const notificationOperations: RouteSpec[] = [
  {
    method: 'post',
    path: '/read',
    summary: 'Mark some of the caller’s notifications read, or all of them',
    description: `\`{ ids }\` (at most ${notificationLimits.idsPerRead}) or \`{ all: true }\`; ids that are not the caller's change nothing.`,
    tags: ['notifications'],
    headers: idempotencyHeader,
    body: {
      schema: markReadBody,
      fields: { ids: 'Notification ids (`_id`)', all: 'true: every notification made so far' },
    },
    responses: {
      200: { description: 'Marked', schema: z.object({ message: z.string() }), headers: positionHeaders },
      400: { ...invalidAnswer, description: `"${notificationMessages.nothingToMark}"` },
    },
  },
  {
    method: 'post',
    path: '/unsubscribe',
    summary: 'One-click unsubscribe from notification mail (the token of a mail’s link; no login)',
    tags: ['notifications'],
    auth: false,
    headers: idempotencyHeader,
    body: { schema: unsubscribeBody, fields: { token: 'The `token` parameter of the mail’s unsubscribe link' } },
    responses: {
      200: {
        description: `"${userMessages.unsubscribed}": the email preference is now "off"`,
        schema: z.object({ message: z.string(), email: z.string() }),
        headers: positionHeaders,
      },
      400: { ...invalidAnswer, description: `"${userMessages.unsubscribeInvalid}"` },
    },
  },
];
