import {
  aiAssistantSettingsSchema,
  attachmentSchema,
  type BugDto,
  bugStatusSchema,
  type ChatDto,
  chatTypeSchema,
  type MessageDto,
  prioritySchema,
  roleSchema,
  severitySchema,
  type UserDto,
} from '@bugtrail/domain';
import { z } from 'zod';
import { errorSchema, type ResponseSpec, schemaNames } from './document.js';

/**
 * Answer shapes both APIs publish: write-api answers the same bug, user, chat and
 * message DTOs read-api does (domain's `toBugDto`, `toUserDto`, chat DTOs). The DTO
 * types are the domain's; these are their zod descriptions for the OpenAPI document,
 * checked against those types below so the two cannot drift apart.
 */

export const userDtoSchema = z.object({
  _id: z.string(),
  name: z.string(),
  email: z.string().optional(),
  role: roleSchema.optional(),
  profileImageURL: z.string().nullable(),
  profileImageUrl: z.string().nullable(),
  /** Present (true) for someone an admin deactivated (api.md "People"): still listed and named, no longer signed in. */
  deactivated: z.literal(true).optional(),
});

export const userRefSchema = z.object({ _id: z.string(), name: z.string() });

/** A comment as every answer shows it (api.md "People"): the comment commands' and the comments read. */
export const commentDtoSchema = z.object({
  _id: z.string(),
  author: z.object({ _id: z.string(), name: z.string() }),
  body: z.string(),
  mentions: z.array(z.string()),
  createdAt: z.string(),
  editedAt: z.string().nullable(),
  isDeleted: z.boolean(),
});

const linkedBugSchema = z.object({
  _id: z.string(),
  number: z.number().int().nullable(),
  key: z.string().nullable(),
  title: z.string(),
  status: bugStatusSchema,
  projectId: z.string(),
});

export const bugDtoSchema = z.object({
  _id: z.string(),
  number: z.number().int().nullable().describe('The short name (#42): 1, 2, 3, … in report order, never reused'),
  projectId: z.string().describe('Its project’s `_id`'),
  project: z.object({ _id: z.string(), key: z.string(), name: z.string() }),
  key: z
    .string()
    .nullable()
    .describe('`WEB-7`: the project’s key and the bug’s number within it, never reused; an old key keeps naming it'),
  title: z.string(),
  description: z.string(),
  priority: prioritySchema,
  severity: severitySchema,
  status: bugStatusSchema,
  module: z.string().nullable(),
  dueDate: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  createdBy: userRefSchema,
  assignedTo: z.array(userDtoSchema),
  checklist: z.array(
    z.object({
      _id: z.string(),
      text: z.string(),
      completed: z.boolean(),
      completedBy: userRefSchema.nullable(),
      completedAt: z.string().nullable(),
    }),
  ),
  attachments: z.array(z.string()),
  files: z
    .array(
      z.object({
        _id: z.string(),
        name: z.string().describe("The uploader's file name (metadata only)"),
        size: z.number().int().describe('Bytes'),
        contentType: z.string().describe('As the bytes say: PNG, JPEG, GIF, WebP, PDF, zip or text/plain'),
        url: z
          .string()
          .describe(
            '`/api/bugs/{id}/attachments/{fileId}`: fetched with the bearer token by those who may see the bug',
          ),
      }),
    )
    .describe('Uploaded files (`attachments` stays the list of links)'),
  labels: z
    .array(z.object({ _id: z.string(), name: z.string(), color: z.string().describe('#rrggbb') }))
    .describe('Its labels, in the order they were put on'),
  rank: z.string().describe('Its place in its board column: sorts ascending, byte by byte (`collate "C"`)'),
  relations: z
    .array(
      z.object({
        type: z.enum(['blocks', 'blocked_by', 'duplicate_of', 'duplicated_by', 'relates_to']),
        bug: linkedBugSchema,
      }),
    )
    .describe('Its relations, each named from this bug’s side (the other bug shows the inverse)'),
  parent: linkedBugSchema.omit({ number: true }).nullable().describe('The bug it is a sub-bug of'),
  subBugs: z.object({ total: z.number().int(), closed: z.number().int() }).describe('Its sub-bugs'),
  milestoneId: z.string().nullable().describe('The milestone it is planned into (`GET /api/milestones/{id}`)'),
  state: z
    .object({ _id: z.string(), name: z.string(), category: z.enum(['Open', 'In Progress', 'Closed']) })
    .describe('Its workflow state (`GET /api/projects/{id}/states`); `category` is always its `status`'),
  estimate: z.number().nullable().describe('Hours it is expected to take, or null'),
  timeSpentMinutes: z.number().int().describe('Minutes logged on it (`POST /api/bugs/{id}/worklog`)'),
  respondedAt: z.string().nullable().describe('When it first left Open (null: not yet)'),
  resolvedAt: z.string().nullable().describe('When it was first Closed (null: not yet)'),
  sla: z
    .object({
      policy: z.object({ _id: z.string(), name: z.string() }).describe('The SLA policy that holds for it'),
      respondBy: z.string().nullable().describe('When it must leave Open: the report plus `respondWithin`'),
      resolveBy: z.string().nullable().describe('When it must be Closed: the report plus `resolveWithin`'),
      respondedAt: z.string().nullable(),
      resolvedAt: z.string().nullable(),
      breached: z.array(z.enum(['respond', 'resolve'])).describe('Targets met late, or unmet and past due'),
      atRisk: z.boolean().describe('A target not met yet is in the last quarter of its window'),
    })
    .nullable()
    .describe('Its SLA (`POST /api/sla`), or null when no policy holds for it'),
  fields: z
    .record(z.string(), z.union([z.string(), z.number(), z.array(z.string())]).nullable())
    .describe(
      'Its project’s custom fields by key (`GET /api/projects/{id}/fields`): text, a number, a day, an option’s name, option names, a user’s `_id`, a link; null where it has none',
    ),
  code: z
    .object({
      commits: z.array(
        z.object({
          sha: z.string(),
          message: z.string(),
          url: z.string(),
          author: z.string().describe("The commit author's name"),
          repository: z.string().describe('`owner/name` (GitHub) or `group/project` (GitLab)'),
          at: z.string().describe('When the commit was made'),
        }),
      ),
      pullRequests: z.array(
        z.object({
          number: z.number().int(),
          title: z.string(),
          url: z.string(),
          state: z.enum(['open', 'closed', 'merged']),
          repository: z.string(),
        }),
      ),
    })
    .describe('Commits and pull (merge) requests whose message, title or body names the bug (`#42`), oldest first'),
  archived: z.boolean().describe('Put away once closed (admins): out of lists and counts until restored or reopened'),
  version: z.number().int().describe('Stream revision: send it back as If-Match to edit'),
});

/** A chat participant as chat answers show it (no email, no role). */
export const chatUserSchema = z.object({
  _id: z.string(),
  name: z.string(),
  profileImageURL: z.string().nullable(),
  profileImageUrl: z.string().nullable(),
});

export const chatSchema = z.object({
  _id: z.string(),
  name: z.string(),
  type: chatTypeSchema,
  participants: z.array(chatUserSchema),
  admins: z.array(chatUserSchema),
  aiAssistant: aiAssistantSettingsSchema,
  createdBy: userRefSchema,
  createdAt: z.string(),
  updatedAt: z.string(),
  lastMessage: z
    .object({
      _id: z.string(),
      content: z.string(),
      createdAt: z.string(),
      isDeleted: z.boolean(),
      isAIMessage: z.boolean(),
      sender: userRefSchema,
    })
    .nullable(),
  unreadCount: z.number().int(),
});

export const messageSchema = z.object({
  _id: z.string(),
  chat: z.string(),
  sender: chatUserSchema,
  content: z.string(),
  attachments: z.array(attachmentSchema),
  mentions: z.array(z.string()),
  replyTo: z
    .object({
      _id: z.string(),
      content: z.string(),
      sender: userRefSchema,
      isDeleted: z.boolean(),
      isAIMessage: z.boolean(),
      createdAt: z.string(),
    })
    .nullable(),
  isDeleted: z.boolean(),
  isAIMessage: z.boolean(),
  createdAt: z.string(),
});

/** An SLA policy (api.md "Automation rules"): write-api's answers and read-api's alike. */
export const slaPolicySchema = z.object({
  _id: z.string(),
  name: z.string(),
  projectId: z.string().nullable().describe('Null: it may hold for every project’s bugs'),
  conditions: z.array(z.object({ field: z.string(), op: z.string(), value: z.unknown() })),
  respondWithin: z.string().nullable().describe('`4h`: the bug must leave Open by its report plus this'),
  resolveWithin: z.string().nullable().describe('The bug must be Closed by its report plus this'),
  createdAt: z.string(),
});

schemaNames.add(userDtoSchema, { id: 'User' });
schemaNames.add(slaPolicySchema, { id: 'SlaPolicy' });
schemaNames.add(bugDtoSchema, { id: 'Bug' });
schemaNames.add(chatSchema, { id: 'Chat' });
schemaNames.add(messageSchema, { id: 'Message' });

// The published shapes are exactly the domain's DTO types (a compile error otherwise).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameShapes: [
  Same<z.output<typeof userDtoSchema>, UserDto>,
  Same<z.output<typeof bugDtoSchema>, BugDto>,
  Same<z.output<typeof chatSchema>, ChatDto>,
  Same<z.output<typeof messageSchema>, MessageDto>,
] = [true, true, true, true];
void sameShapes;

/** `{id}` in a path: the object's `_id`. */
export const idParam = z.object({ id: z.string().describe('The object id (`_id`)') });

export const errorAnswer = (description: string): ResponseSpec => ({ description, schema: errorSchema });
export const invalidAnswer = errorAnswer('Invalid input: `details` lists each field with its message');
export const forbiddenAnswer = errorAnswer('The caller may not see or do this');
export const notFoundAnswer = errorAnswer('No such object');
