import { errorAnswer, type RouteSpec } from '@bugtrail/platform';
import { z } from 'zod';

/** GET /api/events (live.routes.ts), relative to its mount at /api/events. */

export const liveOperations: RouteSpec[] = [
  {
    method: 'get',
    path: '/',
    summary: 'Server-sent events: topics that changed (id = checkpoint token)',
    description:
      '`event:` a topic kind, `data:` `{ topics, position }`; a heartbeat comment every 15 s. ' +
      'When Last-Event-ID is too old, `event: reset` tells the client to refetch everything.',
    tags: ['live'],
    headers: z.object({ 'Last-Event-ID': z.string().optional().describe('Resume after this token') }),
    responses: {
      200: { description: 'text/event-stream', contentType: 'text/event-stream' },
      429: { ...errorAnswer('Too many live connections for this user'), headers: { 'Retry-After': 'Seconds' } },
    },
  },
];
