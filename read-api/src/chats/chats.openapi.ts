import {
  chatSchema,
  invalidAnswer,
  messageSchema,
  notFoundAnswer,
  type RouteSpec,
  userRefSchema,
} from '@bugtrail/platform';
import { z } from 'zod';
import { pageQuery } from './chats.routes.js';

/**
 * The chat reads (chats.routes.ts), relative to the router's mount: app.ts mounts it
 * at /api/chats and at the spec's chat-server path /chats, and so does the document.
 */

const tags = ['chats'];
const chatIdParam = z.object({ id: z.string().describe('The chat id') });

export const chatReadOperations: RouteSpec[] = [
  {
    method: 'get',
    path: '/',
    summary: "The caller's chats and public ones, most recent activity first",
    tags,
    responses: { 200: { description: 'Bare array', schema: z.array(chatSchema) } },
  },
  {
    method: 'get',
    path: '/ai-models',
    summary: "The AI model picker's choices",
    description:
      "The spec's four names and every model the configured providers listed at the assistant's start " +
      '(`listed`, with the provider). A chat may be set to any of `models`; `claude-*` goes to Anthropic when it is set up. ' +
      '`configured`: whether any provider is set up (without one, no message gets an answer).',
    tags,
    responses: {
      200: {
        description: 'The choices',
        schema: z.object({
          models: z.array(z.string()),
          listed: z.array(z.object({ id: z.string(), provider: z.enum(['openai', 'anthropic']) })),
          /** Whether any provider is set up; without one the assistant answers nothing. */
          configured: z.boolean(),
        }),
      },
    },
  },
  {
    method: 'get',
    path: '/{id}',
    summary: 'One chat',
    tags,
    params: chatIdParam,
    responses: { 200: { description: 'The chat', schema: chatSchema }, 404: notFoundAnswer },
  },
  {
    method: 'get',
    path: '/{id}/messages',
    summary: 'A page of messages (50; page 1 the newest; oldest first inside a page)',
    description:
      "Each message's `attachments[].path` is a link signed for this answer, " +
      '`/uploads/chat/<yyyy>/<mm>/<file>?exp=<unix seconds>&sig=<signature>`: valid 24 hours, fetched without ' +
      'Authorization (GET /uploads/chat/{year}/{month}/{file}); unsigned, expired or altered it answers 404. ' +
      'A deleted message has no attachments.',
    tags,
    params: chatIdParam,
    query: pageQuery,
    responses: {
      200: {
        description: 'Messages; `hasMore` only when older messages exist',
        schema: z.object({ messages: z.array(messageSchema), page: z.number().int(), hasMore: z.boolean() }),
      },
      400: invalidAnswer,
      404: notFoundAnswer,
    },
  },
];

/** GET /users on the chat path (createChatUsersRoutes), mounted at /users. */
export const chatUsersOperations: RouteSpec[] = [
  {
    method: 'get',
    path: '/',
    summary: 'Everyone, for chat pickers and mentions (chat-server path)',
    tags,
    responses: { 200: { description: 'Bare array', schema: z.array(userRefSchema) } },
  },
];
