import { userMessages } from '@bugtrail/domain';
import { invalidAnswer, type RouteSpec } from '@bugtrail/platform';
import { z } from 'zod';
import { idempotencyHeader, positionHeaders } from '../commands.openapi.js';
import { unsubscribeBody } from './notifications.routes.js';

/** Mounted at /api/notifications; POST /read is a declared command (notifications.commands.ts). */
export const notificationOperations: RouteSpec[] = [
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

/** RFC 8058 one-click unsubscribe, at the root (the List-Unsubscribe URI of notification mail). */
export const oneClickUnsubscribeOperations: RouteSpec[] = [
  {
    method: 'post',
    path: '/unsubscribe',
    operationId: 'postOneClickUnsubscribe',
    summary: 'One-click unsubscribe (RFC 8058): what a mail client posts to the List-Unsubscribe URI',
    description:
      'Mail carries `List-Unsubscribe: <PUBLIC_URL/unsubscribe?token=…>` and `List-Unsubscribe-Post: ' +
      'List-Unsubscribe=One-Click`; the client posts that body here. The body is not read. The same URI ' +
      "opened in a browser is the web app's page, which asks before it unsubscribes.",
    tags: ['notifications'],
    auth: false,
    query: z.object({ token: z.string().describe('The token of the mail’s unsubscribe link') }),
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
