import {
  errorAnswer,
  forbiddenAnswer,
  invalidAnswer,
  messageSchema,
  notFoundAnswer,
  type RouteSpec,
} from '@bugtrail/platform';
import { z } from 'zod';
import { idempotencyHeader, positionHeaders } from '../commands.openapi.js';
import { messageBody } from './chat-input.js';

/**
 * The chat routes that are not declared commands (chats.routes.ts), relative to the router's
 * mount: app.ts mounts it at /api/chats and at the spec's chat-server path /chats, and so does
 * the document. The declared ones (chats.commands.ts) document themselves, mounted the same.
 */

const tags = ['chats'];
/** What a message's attachment links are (api.md "Chat attachments"); read-api serves them. */
const attachmentLinks =
  "Each of the message's `attachments[].path` is a link signed for this answer, " +
  '`/uploads/chat/<yyyy>/<mm>/<file>?exp=<unix seconds>&sig=<signature>`: valid 24 hours, fetched without ' +
  'Authorization; unsigned, expired or altered it answers 404.';
export const chatIdParam = z.object({ id: z.string().describe('The chat id') });

export const chatOperations: RouteSpec[] = [
  {
    method: 'post',
    path: '/{id}/messages',
    summary: 'Send a message (JSON, or multipart with up to 5 `attachments` files of at most 20 MB)',
    description:
      'As multipart/form-data: `content`, `mentions` (repeated, comma-separated or a JSON array), `replyTo` and ' +
      'up to 5 `attachments` files. An AI reply arrives later as its own message. ' +
      attachmentLinks,
    tags,
    params: chatIdParam,
    headers: idempotencyHeader,
    body: {
      schema: messageBody,
      fields: { mentions: 'The ids of the people mentioned', replyTo: 'The id of the message replied to' },
    },
    responses: {
      201: { description: "The sender's message", schema: messageSchema, headers: positionHeaders },
      400: invalidAnswer,
      403: forbiddenAnswer,
      404: notFoundAnswer,
      413: errorAnswer('Too large'),
      429: errorAnswer(
        "The caller's uploads in progress are at their spool quota (ADR 025); `Retry-After` says when to try again",
      ),
      507: errorAnswer(
        'The server is short of disk space for uploads (SPOOL_MIN_FREE_MB); `Retry-After` says when to try again',
      ),
    },
  },
  {
    method: 'post',
    path: '/{id}/messages/{messageId}/stop',
    summary: 'Stop an AI answer being written (any member)',
    description:
      "`messageId` is the id the answer's `ai-draft` events carry. The assistant cancels its request and posts " +
      'what it wrote so far, marked as stopped. An answer already finished is not touched (202 either way).',
    tags,
    params: chatIdParam.extend({ messageId: z.string() }),
    responses: {
      202: { description: 'Asked to stop', schema: z.object({ message: z.string() }) },
      403: forbiddenAnswer,
      404: notFoundAnswer,
    },
  },
];
