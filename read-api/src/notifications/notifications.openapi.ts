import { notificationKinds, notificationLimits } from '@bugtrail/domain';
import type { RouteSpec } from '@bugtrail/platform';
import { z } from 'zod';

export const notificationDtoSchema = z.object({
  _id: z.string(),
  kind: z.enum(notificationKinds),
  text: z.string(),
  bugId: z.string().nullable(),
  chatId: z.string().nullable(),
  actor: z.object({ _id: z.string(), name: z.string() }).nullable(),
  createdAt: z.string(),
  readAt: z.string().nullable(),
});

/** Mounted at /api/notifications. */
export const notificationReadOperations: RouteSpec[] = [
  {
    method: 'get',
    path: '/',
    summary: `The caller's newest notifications (at most ${notificationLimits.listed}) and the unread count`,
    tags: ['notifications'],
    responses: {
      200: {
        description: 'Newest first',
        schema: z.object({ notifications: z.array(notificationDtoSchema), unread: z.number().int() }),
      },
    },
  },
];
