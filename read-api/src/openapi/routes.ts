import {
  aiAssistantSettingsSchema,
  attachmentSchema,
  chatTypeSchema,
  prioritySchema,
  roleSchema,
  severitySchema,
} from '@bugtrail/domain';
import { z } from 'zod';
import {
  bugAtSchema,
  bugDtoSchema,
  bugListSchema,
  dashboardSchema,
  historyQuery,
  historySchema,
  listQuery,
  statusSummarySchema,
  userDtoSchema,
} from '../bugs/bugs.schemas.js';
import { errorSchema, type RouteSpec, schemaNames } from './document.js';

/**
 * Every endpoint the server answers, with its zod request and answer shapes: the
 * source of /api/openapi.json. Reads use the very schemas the routes validate with;
 * the write endpoints' bodies mirror write-api's payload schemas (read-api may not
 * import write-api; a test compares the two).
 */

schemaNames.add(bugDtoSchema, { id: 'Bug' });
schemaNames.add(userDtoSchema, { id: 'User' });
schemaNames.add(statusSummarySchema, { id: 'StatusSummary' });
schemaNames.add(dashboardSchema, { id: 'Dashboard' });
schemaNames.add(errorSchema, { id: 'Error' });

const idParam = z.object({ id: z.string().describe('The object id (`_id`)') });
const error = (description: string) => ({ description, schema: errorSchema });
const forbidden = error('The caller may not see or do this');
const notFound = error('No such object');
const invalid = error('Invalid input: `details` lists each field with its message');

const teamMember = userDtoSchema.extend({
  pendingTasks: z.number().int(),
  inProgressTasks: z.number().int(),
  completedTasks: z.number().int(),
  createdBugs: z.number().int(),
  assignedBugs: z.number().int(),
});

const authAnswer = userDtoSchema.extend({ token: z.string(), role: roleSchema, user: userDtoSchema });
const positionHeaders = {
  'X-Event-Position': 'Checkpoint token of the last event written; send it as X-Min-Position to read your write',
  'X-Read-Model-Lag': 'Present (1) when the read models had not caught up within the wait',
};

// Write payloads, as clients send them (write-api reads them tolerantly).
const userRefInput = z.union([z.string(), z.object({ _id: z.string() })]);
const checklistItemInput = z.union([
  z.string(),
  z.object({
    _id: z.string().nullable().optional(),
    text: z.string(),
    completed: z.boolean().optional().describe('Counts only from an assigned developer or an admin'),
  }),
]);
export const bugPayloadDoc = z.object({
  title: z.string().describe('5 to 100 characters'),
  description: z.string().describe('At least 10 characters'),
  priority: prioritySchema.optional(),
  severity: severitySchema.optional(),
  status: z
    .string()
    .optional()
    .describe(
      'Ignored on create (always Open). On edit: applied when the caller may change status (admin); also Pending, Resolved',
    ),
  module: z.string().nullable().optional().describe('At most 50 characters'),
  dueDate: z.string().nullable().optional().describe('ISO date-time or YYYY-MM-DD; not before today (UTC)'),
  assignedTo: z.array(userRefInput).optional().describe('Developer ids; at least one'),
  checklist: z.array(checklistItemInput).optional(),
  attachments: z.array(z.string()).optional().describe('http(s) links'),
});
export const registerPayloadDoc = z.object({
  name: z.string(),
  email: z.string(),
  password: z.string().describe('8 to 128 characters'),
  role: roleSchema.optional().describe('Defaults to tester'),
  adminInviteToken: z
    .union([z.string(), z.number()])
    .optional()
    .describe('Required for the admin role: the configured code or a minted 6-digit one'),
  profileImageURL: z.string().nullable().optional(),
  profileImageUrl: z.string().nullable().optional(),
});
export const loginPayloadDoc = z.object({ email: z.string(), password: z.string() });
export const statusPayloadDoc = z.object({
  status: z.string().describe('Open, In Progress, Closed, or Pending, Resolved; any case'),
});
export const checklistPayloadDoc = z.object({ checklist: z.array(checklistItemInput) });
const profilePayload = z.object({
  name: z.string().optional(),
  email: z.string().optional(),
  password: z.string().optional(),
  profileImageURL: z.string().nullable().optional(),
});
const bugAnswer = z.object({ message: z.string(), bug: bugDtoSchema });
const idempotencyHeader = z.object({
  'Idempotency-Key': z.string().optional().describe('A retried request with the same key appends nothing new'),
});
const ifMatchHeader = z.object({
  'If-Match': z.string().optional().describe('The bug `version` the edit was based on: 409 when stale'),
});

// Chats (served at /api/chats and at the spec's chat-server paths /chats).
const chatUser = z.object({
  _id: z.string(),
  name: z.string(),
  profileImageURL: z.string().nullable(),
  profileImageUrl: z.string().nullable(),
});
const senderRef = z.object({ _id: z.string(), name: z.string() });
export const chatSchema = z.object({
  _id: z.string(),
  name: z.string(),
  type: chatTypeSchema,
  participants: z.array(chatUser),
  admins: z.array(chatUser),
  aiAssistant: aiAssistantSettingsSchema,
  createdBy: senderRef,
  createdAt: z.string(),
  updatedAt: z.string(),
  lastMessage: z
    .object({
      _id: z.string(),
      content: z.string(),
      createdAt: z.string(),
      isDeleted: z.boolean(),
      isAIMessage: z.boolean(),
      sender: senderRef,
    })
    .nullable(),
  unreadCount: z.number().int(),
});
export const messageSchema = z.object({
  _id: z.string(),
  chat: z.string(),
  sender: chatUser,
  content: z.string(),
  attachments: z.array(attachmentSchema),
  mentions: z.array(z.string()),
  replyTo: z
    .object({
      _id: z.string(),
      content: z.string(),
      sender: senderRef,
      isDeleted: z.boolean(),
      isAIMessage: z.boolean(),
      createdAt: z.string(),
    })
    .nullable(),
  isDeleted: z.boolean(),
  isAIMessage: z.boolean(),
  createdAt: z.string(),
});
schemaNames.add(chatSchema, { id: 'Chat' });
schemaNames.add(messageSchema, { id: 'Message' });
const userRefList = z.array(z.union([z.string(), z.object({ _id: z.string() })]));
export const chatPayloadDoc = z.object({
  name: z.string().optional(),
  type: chatTypeSchema.optional().describe('Defaults to private; never changes'),
  participants: userRefList.optional(),
  admins: userRefList.optional(),
  aiAssistant: aiAssistantSettingsSchema.partial().optional(),
});
export const messagePayloadDoc = z.object({
  content: z.string().optional(),
  mentions: userRefList.optional(),
  replyTo: z.string().nullable().optional(),
});
const chatIdParam = z.object({ id: z.string().describe('The chat id') });

function chatRoutes(base: string): RouteSpec[] {
  const tags = ['chats'];
  return [
    {
      method: 'get',
      path: base,
      summary: "The caller's chats and public ones, most recent activity first",
      tags,
      responses: { 200: { description: 'Bare array', schema: z.array(chatSchema) } },
    },
    {
      method: 'post',
      path: base,
      summary: 'Create a chat (the creator becomes participant and admin)',
      tags,
      body: { schema: chatPayloadDoc },
      responses: { 201: { description: 'Created', schema: chatSchema, headers: positionHeaders }, 400: invalid },
    },
    {
      method: 'get',
      path: `${base}/{id}`,
      summary: 'One chat',
      tags,
      params: chatIdParam,
      responses: { 200: { description: 'The chat', schema: chatSchema }, 404: notFound },
    },
    {
      method: 'put',
      path: `${base}/{id}`,
      summary: 'Edit a chat (chat admins)',
      tags,
      params: chatIdParam,
      body: { schema: chatPayloadDoc },
      responses: {
        200: { description: 'Updated', schema: chatSchema, headers: positionHeaders },
        400: invalid,
        403: forbidden,
        404: notFound,
      },
    },
    {
      method: 'delete',
      path: `${base}/{id}`,
      summary: 'Delete a chat (chat admins)',
      tags,
      params: chatIdParam,
      responses: {
        200: { description: 'Deleted', schema: z.object({ message: z.string() }).loose() },
        403: forbidden,
        404: notFound,
      },
    },
    {
      method: 'post',
      path: `${base}/{id}/join`,
      summary: 'Join a public chat',
      tags,
      params: chatIdParam,
      responses: { 200: { description: 'Joined', schema: chatSchema }, 403: forbidden, 404: notFound },
    },
    {
      method: 'post',
      path: `${base}/{id}/read`,
      summary: 'Mark every message read',
      tags,
      params: chatIdParam,
      responses: { 200: { description: 'Marked', schema: z.object({}).loose() }, 404: notFound },
    },
    {
      method: 'get',
      path: `${base}/{id}/messages`,
      summary: 'A page of messages (50; page 1 the newest; oldest first inside a page)',
      tags,
      params: chatIdParam,
      query: z.object({ page: z.string().optional().describe('From 1') }),
      responses: {
        200: {
          description: 'Messages',
          schema: z.object({ messages: z.array(messageSchema), page: z.number().int(), hasMore: z.boolean() }),
        },
        400: invalid,
        404: notFound,
      },
    },
    {
      method: 'post',
      path: `${base}/{id}/messages`,
      summary: 'Send a message (JSON, or multipart with up to 5 `attachments` files of at most 20 MB)',
      tags,
      params: chatIdParam,
      body: { schema: messagePayloadDoc },
      responses: {
        201: { description: "The sender's message", schema: messageSchema, headers: positionHeaders },
        400: invalid,
        403: forbidden,
        404: notFound,
        413: error('Too large'),
      },
    },
    {
      method: 'delete',
      path: `${base}/{id}/messages/{messageId}`,
      summary: 'Delete a message (its sender or a chat admin)',
      tags,
      params: chatIdParam.extend({ messageId: z.string() }),
      responses: {
        200: { description: 'Deleted', schema: z.object({}).loose() },
        403: forbidden,
        404: notFound,
      },
    },
  ];
}

export const routes: RouteSpec[] = [
  // System
  {
    method: 'get',
    path: '/health',
    summary: 'Liveness',
    tags: ['system'],
    auth: false,
    responses: { 200: { description: 'Up', schema: z.object({ status: z.literal('ok') }) } },
  },
  {
    method: 'get',
    path: '/ready',
    summary: 'Readiness: database reachable and projector caught up',
    tags: ['system'],
    auth: false,
    responses: {
      200: { description: 'Ready', schema: z.object({ status: z.string() }).loose() },
      503: { description: 'Lagging or unavailable', schema: z.object({ status: z.string() }).loose() },
    },
  },
  {
    method: 'get',
    path: '/api/openapi.json',
    summary: 'This document',
    tags: ['system'],
    auth: false,
    responses: { 200: { description: 'OpenAPI 3.1 document', schema: z.object({}).loose() } },
  },
  // Auth and users
  {
    method: 'post',
    path: '/api/auth/register',
    summary: 'Register (role defaults to tester; admin needs an invite code)',
    tags: ['auth'],
    auth: false,
    body: { schema: registerPayloadDoc },
    responses: {
      201: { description: 'Registered', schema: authAnswer, headers: positionHeaders },
      400: invalid,
      403: error('Invalid admin invite token'),
      429: error('Too many wrong invite codes'),
    },
  },
  {
    method: 'post',
    path: '/api/auth/login',
    summary: 'Log in',
    tags: ['auth'],
    auth: false,
    body: { schema: loginPayloadDoc },
    responses: {
      200: { description: 'Logged in', schema: authAnswer },
      400: invalid,
      401: error('Invalid email or password'),
      429: error('Too many failed logins'),
    },
  },
  {
    method: 'post',
    path: '/api/auth/logout',
    summary: "Revoke the caller's tokens issued so far",
    tags: ['auth'],
    responses: { 200: { description: 'Logged out', schema: z.object({ message: z.string() }) } },
  },
  {
    method: 'post',
    path: '/api/auth/invite-codes',
    summary: 'Mint a single-use admin invite code (24 h)',
    tags: ['auth'],
    roles: ['admin'],
    responses: {
      201: {
        description: 'Minted',
        schema: z.object({ code: z.string(), expiresAt: z.string(), singleUse: z.boolean() }),
      },
      403: forbidden,
    },
  },
  {
    method: 'get',
    path: '/api/auth/profile',
    summary: 'The caller',
    tags: ['auth'],
    responses: { 200: { description: 'The caller', schema: z.object({ user: userDtoSchema }) }, 404: notFound },
  },
  {
    method: 'post',
    path: '/api/auth/upload-image',
    summary: 'Upload a profile image (JPEG, PNG, WebP, GIF; at most 5 MB; no token needed)',
    tags: ['auth'],
    auth: false,
    body: { schema: z.object({ image: z.string().describe('The file (binary)') }), contentType: 'multipart/form-data' },
    responses: {
      201: {
        description: 'Stored',
        schema: z.object({ message: z.string(), imageURL: z.string(), imageUrl: z.string() }),
      },
      400: invalid,
      413: error('Over 5 MB'),
      415: error('Not an image'),
      429: error('Too many uploads'),
    },
  },
  {
    method: 'get',
    path: '/api/users',
    summary: 'Team list (admin: every user with task counters) or directory (others)',
    tags: ['users'],
    responses: {
      200: { description: 'Bare array', schema: z.array(z.union([teamMember, userDtoSchema])) },
    },
  },
  {
    method: 'get',
    path: '/api/users/developers',
    summary: 'Every developer (assign pickers)',
    tags: ['users'],
    roles: ['admin', 'tester'],
    responses: { 200: { description: 'Bare array', schema: z.array(userDtoSchema) }, 403: forbidden },
  },
  {
    method: 'get',
    path: '/api/users/{id}',
    summary: 'One user',
    tags: ['users'],
    params: idParam,
    responses: { 200: { description: 'The user', schema: userDtoSchema }, 404: notFound },
  },
  {
    method: 'put',
    path: '/api/users/{id}',
    description: 'PATCH is accepted too.',
    summary: 'Update a profile (self, or admin); the role is not writable',
    tags: ['users'],
    params: idParam,
    body: { schema: profilePayload },
    responses: {
      200: {
        description: 'Updated (a new token when the password changed)',
        schema: userDtoSchema.extend({ message: z.string(), user: userDtoSchema, token: z.string().optional() }),
        headers: positionHeaders,
      },
      400: invalid,
      403: forbidden,
      404: notFound,
    },
  },
  // Bugs (reads)
  {
    method: 'get',
    path: '/api/bugs',
    summary: "The caller's bugs (admin all, tester reported, developer assigned), newest first",
    tags: ['bugs'],
    query: listQuery,
    responses: {
      200: {
        description: 'bugs and statusSummary (over the unfiltered scope)',
        schema: bugListSchema,
        headers: { 'X-Next-Cursor': 'The next page cursor, when there is one' },
      },
      400: invalid,
    },
  },
  {
    method: 'get',
    path: '/api/bugs/all-viewable',
    summary: 'Every bug the caller may list (tester: all bugs; developer: assigned; admin: all)',
    tags: ['bugs'],
    query: listQuery,
    responses: { 200: { description: 'bugs and statusSummary', schema: bugListSchema }, 400: invalid },
  },
  {
    method: 'get',
    path: '/api/bugs/assigned',
    summary: 'Bugs assigned to the caller',
    tags: ['bugs'],
    roles: ['developer', 'admin'],
    query: listQuery,
    responses: {
      200: {
        description: 'Bare array',
        schema: z.array(bugDtoSchema),
        headers: { 'X-Next-Cursor': 'The next page cursor, when there is one' },
      },
      400: invalid,
      403: forbidden,
    },
  },
  {
    method: 'get',
    path: '/api/bugs/user/{id}',
    summary: 'Bugs a user reported (admin: anyone; tester: own id only)',
    tags: ['bugs'],
    roles: ['admin', 'tester'],
    params: idParam,
    query: listQuery,
    responses: {
      200: { description: 'Bare array', schema: z.array(bugDtoSchema) },
      400: invalid,
      403: forbidden,
      404: notFound,
    },
  },
  ...(['admin', 'tester', 'developer'] as const).map(
    (role): RouteSpec => ({
      method: 'get',
      path: `/api/bugs/${role}-dashboard`,
      summary: `The ${role} dashboard: statistics, charts and the 10 newest bugs of the caller's scope`,
      tags: ['dashboards'],
      roles: [role],
      responses: { 200: { description: 'Dashboard', schema: dashboardSchema }, 403: forbidden },
    }),
  ),
  {
    method: 'get',
    path: '/api/bugs/{id}',
    summary: 'One bug',
    tags: ['bugs'],
    params: idParam,
    responses: {
      200: { description: 'The bug', schema: bugDtoSchema },
      403: error("You don't have permission to view this bug"),
      404: error('Bug not found (also deleted bugs)'),
    },
  },
  {
    method: 'get',
    path: '/api/bugs/{id}/history',
    summary: "The bug's audit history (admins also of deleted bugs); with ?at, the bug as it was then",
    tags: ['bugs'],
    params: idParam,
    query: historyQuery,
    responses: {
      200: {
        description: 'Every event in order, or (with ?at) the bug',
        schema: z.union([historySchema, bugAtSchema]),
      },
      400: invalid,
      403: forbidden,
      404: notFound,
    },
  },
  // Bugs (commands)
  {
    method: 'post',
    path: '/api/bugs',
    summary: 'Report a bug (always Open)',
    tags: ['bugs'],
    roles: ['tester', 'admin'],
    headers: idempotencyHeader,
    body: { schema: bugPayloadDoc },
    responses: {
      201: { description: 'Reported', schema: bugAnswer, headers: positionHeaders },
      400: invalid,
      403: forbidden,
    },
  },
  {
    method: 'put',
    path: '/api/bugs/{id}',
    summary: 'Edit a bug (details, assignees, checklist, links); absent fields stay',
    tags: ['bugs'],
    roles: ['admin', 'tester (own)'],
    params: idParam,
    headers: ifMatchHeader,
    body: { schema: bugPayloadDoc.partial() },
    responses: {
      200: { description: 'Updated', schema: bugAnswer, headers: positionHeaders },
      400: invalid,
      403: forbidden,
      404: notFound,
      409: error('Stale edit (If-Match)'),
    },
  },
  {
    method: 'delete',
    path: '/api/bugs/{id}',
    summary: 'Delete a bug',
    tags: ['bugs'],
    roles: ['admin', 'tester (own)'],
    params: idParam,
    responses: {
      200: { description: 'Deleted', schema: z.object({ message: z.string() }), headers: positionHeaders },
      403: forbidden,
      404: notFound,
    },
  },
  {
    method: 'put',
    path: '/api/bugs/{id}/status',
    summary: 'Change the status (any to any)',
    tags: ['bugs'],
    roles: ['admin', 'developer (assigned)'],
    params: idParam,
    body: { schema: statusPayloadDoc },
    responses: {
      200: { description: 'Changed', schema: bugAnswer, headers: positionHeaders },
      400: invalid,
      403: forbidden,
      404: notFound,
    },
  },
  {
    method: 'put',
    path: '/api/bugs/{id}/checklist',
    summary: 'Replace the checklist (matched by _id, else by position)',
    tags: ['bugs'],
    roles: ['admin', 'developer (assigned)', 'tester (own, text only)'],
    params: idParam,
    body: { schema: checklistPayloadDoc },
    responses: {
      200: { description: 'Updated', schema: bugAnswer, headers: positionHeaders },
      400: invalid,
      403: forbidden,
      404: notFound,
    },
  },
  // Reports
  ...(['bugs', 'users'] as const).map(
    (what): RouteSpec => ({
      method: 'get',
      path: `/api/reports/export/${what}`,
      summary: `Export ${what} as a spreadsheet (${what === 'bugs' ? 'bug_details.xlsx' : 'user_details.xlsx'})`,
      tags: ['reports'],
      roles: ['admin'],
      responses: {
        200: {
          description: 'xlsx, streamed (Content-Disposition: attachment)',
          contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        },
        403: forbidden,
      },
    }),
  ),
  ...chatRoutes('/api/chats'),
  ...chatRoutes('/chats'),
  {
    method: 'get',
    path: '/users',
    summary: 'Everyone, for chat pickers and mentions (chat-server path)',
    tags: ['chats'],
    responses: { 200: { description: 'Bare array', schema: z.array(senderRef) } },
  },
  // Live updates
  {
    method: 'get',
    path: '/api/events',
    summary: 'Server-sent events: topics that changed (id = checkpoint token)',
    tags: ['live'],
    headers: z.object({ 'Last-Event-ID': z.string().optional().describe('Resume after this token') }),
    responses: {
      200: { description: 'text/event-stream', contentType: 'text/event-stream' },
      429: error('Too many live connections for this user'),
    },
  },
];

// PATCH /api/users/{id} is the same command as PUT.
const profileUpdate = routes.find((r) => r.method === 'put' && r.path === '/api/users/{id}');
if (profileUpdate) routes.push({ ...profileUpdate, method: 'patch' });
