import { notificationLimits, notificationMessages, notificationsDecider, streams } from '@bugtrail/domain';
import { invalidAnswer } from '@bugtrail/platform';
import { z } from 'zod';
import { defineCommand } from '../command.js';
import { positionHeaders } from '../commands.openapi.js';

export const markReadBody = z.object({
  ids: z
    .array(z.string().max(300))
    .max(notificationLimits.idsPerRead * 2)
    .nullable()
    .optional(),
  all: z.boolean().nullable().optional(),
});

/**
 * POST /api/notifications/read `{ ids }` or `{ all: true }` (api.md "People"): the caller
 * marks their own notifications read, as an event of `notifications-{userId}`. Answers
 * once the read model has the event: GET /api/notifications already shows them read.
 */
export const markNotificationsRead = defineCommand({
  method: 'post',
  path: '/read',
  summary: 'Mark some of the caller’s notifications read, or all of them',
  description: `\`{ ids }\` (at most ${notificationLimits.idsPerRead}) or \`{ all: true }\`; ids that are not the caller's change nothing.`,
  tags: ['notifications'],
  body: {
    schema: markReadBody,
    fields: { ids: 'Notification ids (`_id`)', all: 'true: every notification made so far' },
  },
  stream: ({ actor }) => streams.notifications(actor.id),
  decider: notificationsDecider,
  command: ({ actor, body }) => ({
    type: 'MarkNotificationsRead',
    data: { userId: actor.id, ids: body.ids ?? [], all: body.all === true },
  }),
  // The stream only records reads and decides on nothing it holds: no revision to check.
  policy: { anyRevision: true },
  answer: () => ({ status: 200, body: { message: 'Notifications marked as read' } }),
  responses: {
    200: { description: 'Marked', schema: z.object({ message: z.string() }), headers: positionHeaders },
    400: { ...invalidAnswer, description: `"${notificationMessages.nothingToMark}"` },
  },
});

export const notificationCommands = [markNotificationsRead];
