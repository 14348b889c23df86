import { forbiddenAnswer, invalidAnswer, type RouteSpec } from '@bugtrail/platform';
import { activityAnswerSchema } from '../bugs/bugs.schemas.js';
import { auditActivityQuery, auditEventsQuery, verifyAnswerSchema } from './audit.schemas.js';

/** The audit endpoints (audit.routes.ts), relative to their mount at /api/audit. */

const tags = ['audit'];

export const auditOperations: RouteSpec[] = [
  {
    method: 'get',
    path: '/verify',
    summary: 'Check every stream’s hash chain and revisions over the whole store',
    tags,
    roles: ['admin', 'auditor'],
    responses: {
      200: { description: 'ok, counts, and every break by stream and revision', schema: verifyAnswerSchema },
      403: forbiddenAnswer,
    },
  },
  {
    method: 'get',
    path: '/activity',
    summary: 'The newest changes across all bugs, newest first, in the bug history’s words',
    description:
      'Each entry is a bug history entry (`GET /api/bugs/{id}/history`) with its `position` and the bug as it was then; page with `before` set to `next`.',
    tags,
    roles: ['admin', 'auditor'],
    query: auditActivityQuery,
    responses: {
      200: { description: 'entries and the next page’s `before`', schema: activityAnswerSchema },
      400: invalidAnswer,
      403: forbiddenAnswer,
    },
  },
  {
    method: 'get',
    path: '/events',
    summary: 'Every event in global order as NDJSON, for archiving',
    description:
      'One `{ position, stream, revision, type, data, metadata, hash }` a line; continue with `after` set to the last line’s position. A line of a private or team chat’s stream (`chat-{id}`, `chatmsgs-{id}`) the reader is not a participant of carries `"data": null, "redacted": true` and keeps its `hash`; `GET /api/audit/verify` still checks it on the server.',
    tags,
    roles: ['admin', 'auditor'],
    query: auditEventsQuery,
    responses: {
      200: { description: 'application/x-ndjson, streamed', contentType: 'application/x-ndjson' },
      400: invalidAnswer,
      403: forbiddenAnswer,
    },
  },
];
