import { aiAssistantSettingsSchema, chatTypeSchema } from '@bugtrail/domain';
import {
  chatSchema,
  errorAnswer,
  forbiddenAnswer,
  invalidAnswer,
  messageSchema,
  notFoundAnswer,
  type RouteSpec,
} from '@bugtrail/platform';
import { z } from 'zod';
import { idempotencyHeader, positionHeaders } from '../commands.openapi.js';
import { chatBody, messageBody } from './chats.routes.js';

/**
 * The chat commands (chats.routes.ts), relative to the router's mount: app.ts mounts
 * it at /api/chats and at the spec's chat-server path /chats, and so does the document.
 */

const tags = ['chats'];
/** What a message's attachment links are (api.md "Chat attachments"); read-api serves them. */
const attachmentLinks =
  "Each of the message's `attachments[].path` is a link signed for this answer, " +
  '`/uploads/chat/<yyyy>/<mm>/<file>?exp=<unix seconds>&sig=<signature>`: valid 24 hours, fetched without ' +
  'Authorization; unsigned, expired or altered it answers 404.';
const chatIdParam = z.object({ id: z.string().describe('The chat id') });
const chatFields = {
  type: chatTypeSchema.optional().describe('Defaults to private; never changes'),
  participants: 'User ids (or `{_id}` objects); the creator is always one',
  admins: 'User ids (or `{_id}` objects); admins are always participants; the last admin cannot be removed',
  aiAssistant: aiAssistantSettingsSchema.partial().optional(),
} satisfies Record<string, string | z.ZodType>;

export const chatOperations: RouteSpec[] = [
  {
    method: 'post',
    path: '/',
    summary: 'Create a chat (the creator becomes participant and admin)',
    tags,
    headers: idempotencyHeader,
    body: { schema: chatBody, fields: chatFields },
    responses: { 201: { description: 'Created', schema: chatSchema, headers: positionHeaders }, 400: invalidAnswer },
  },
  {
    method: 'put',
    path: '/{id}',
    summary: 'Edit a chat (chat admins)',
    tags,
    params: chatIdParam,
    headers: idempotencyHeader,
    body: { schema: chatBody, fields: chatFields },
    responses: {
      200: { description: 'Updated', schema: chatSchema, headers: positionHeaders },
      400: invalidAnswer,
      403: forbiddenAnswer,
      404: notFoundAnswer,
    },
  },
  {
    method: 'delete',
    path: '/{id}',
    summary: 'Delete a chat (chat admins)',
    description: "The chat's messages go with it, and so do their attachments' files.",
    tags,
    params: chatIdParam,
    headers: idempotencyHeader,
    responses: {
      200: {
        description: 'Deleted',
        schema: z.object({ message: z.string(), _id: z.string() }),
        headers: positionHeaders,
      },
      403: forbiddenAnswer,
      404: notFoundAnswer,
    },
  },
  {
    method: 'post',
    path: '/{id}/join',
    summary: 'Join a public chat',
    tags,
    params: chatIdParam,
    headers: idempotencyHeader,
    responses: {
      200: { description: 'Joined', schema: chatSchema, headers: positionHeaders },
      403: forbiddenAnswer,
      404: notFoundAnswer,
    },
  },
  {
    method: 'post',
    path: '/{id}/read',
    summary: 'Mark every message read',
    tags,
    params: chatIdParam,
    responses: {
      200: {
        description: 'Marked',
        schema: z.object({ _id: z.string(), unreadCount: z.literal(0) }),
        headers: positionHeaders,
      },
      404: notFoundAnswer,
    },
  },
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
    },
  },
  {
    method: 'delete',
    path: '/{id}/messages/{messageId}',
    summary: 'Delete a message (its sender or a chat admin)',
    description: "The message's attachment files are deleted too; their links answer 404 from then on.",
    tags,
    params: chatIdParam.extend({ messageId: z.string() }),
    headers: idempotencyHeader,
    responses: {
      200: {
        description: 'The message, now reading "This message was deleted" with isDeleted: true',
        schema: messageSchema,
        headers: positionHeaders,
      },
      403: forbiddenAnswer,
      404: notFoundAnswer,
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
