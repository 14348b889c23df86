import {
  aiAssistantSettingsSchema,
  aiModels,
  type ChatMessageEvent,
  type ChatState,
  type Command,
  chatDecider,
  chatMessages,
  chatTypeSchema,
  type Decider,
  type DeleteMessage,
  evolveTimeline,
  initialTimelineState,
  type MarkChatRead,
  NotFoundError,
  streams,
  type TimelineCommand,
  type TimelineState,
  timelineDecider,
} from '@bugtrail/domain';
import type { Handled } from '@bugtrail/eventstore';
import {
  aiModelCatalog,
  chatSchema,
  forbiddenAnswer,
  invalidAnswer,
  messageSchema,
  notFoundAnswer,
} from '@bugtrail/platform';
import { z } from 'zod';
import { type CommandAnswer, type CommandRequest, defineCommand } from '../command.js';
import { positionHeaders } from '../commands.openapi.js';
import type { WriteApiDeps } from '../deps.js';
import { attachmentFiles } from './attachment-files.js';
import { chatAnswer, chatLinks, messageAnswer } from './chat-answers.js';
import { chatBody, idText } from './chat-input.js';
import { chatIdParam } from './chats.openapi.js';

/**
 * Chat commands (api.md "Chats"), one declaration each (issue 34): `/api/chats` and the spec's
 * chat-server paths `/chats` serve the same list (commands.ts). Each decides from the chat's
 * own stream (`chat-{id}`: membership, admins, the assistant) and, for what happens on its
 * timeline (`chatmsgs-{id}`: senders, deletions, read marks), from the two together; never
 * from a read model. Sending a message (JSON or multipart, with files) stays in chats.routes.ts.
 */

const tags = ['chats'];
const chatFields = {
  type: chatTypeSchema.optional().describe('Defaults to private; never changes'),
  participants: 'User ids (or `{_id}` objects); the creator is always one',
  admins: 'User ids (or `{_id}` objects); admins are always participants; the last admin cannot be removed',
  aiAssistant: aiAssistantSettingsSchema.partial().optional(),
} satisfies Record<string, string | z.ZodType>;
const body = { schema: chatBody, fields: chatFields };

/** An id that cannot name a chat (blank, over-long) is one that does not exist: 404, as for bugs. */
const chatParams = {
  schema: z.object({ id: idText }),
  notFound: chatMessages.notFound,
  openapi: chatIdParam,
};
const messageParams = {
  // The chat id is checked first: a bad one is the chat's 404, then the message's.
  schema: z.object({ id: idText, messageId: idText }),
  notFound: { id: chatMessages.notFound, messageId: chatMessages.messageNotFound },
  openapi: chatIdParam.extend({ messageId: z.string() }),
};

const undefinedIfNull = <T>(value: T | null | undefined): T | undefined => value ?? undefined;

/** Models beyond the spec's four that the chat may name: looked up only when it names one. */
async function providerModels(deps: WriteApiDeps, model: string | null | undefined): Promise<string[]> {
  return model && !(aiModels as readonly string[]).includes(model)
    ? (await aiModelCatalog.list(deps.pool)).map((listed) => listed.id)
    : [];
}

/** What CreateChat and UpdateChat are checked against: who is registered, which models exist. */
async function lookups(deps: WriteApiDeps, input: z.infer<typeof chatBody>) {
  const referenced = [...(input.participants ?? []), ...(input.admins ?? [])];
  return {
    registeredUserIds: await deps.accounts.registered(referenced),
    providerModels: await providerModels(deps, input.aiAssistant?.model),
  };
}

/** The chat as the command left it, as the caller sees it (with its timeline's last message and unread count). */
async function answerChat(
  deps: WriteApiDeps,
  id: string,
  handled: Handled<ChatState>,
  { actor }: CommandRequest<unknown, unknown>,
  status: 200 | 201,
): Promise<CommandAnswer> {
  const chat = handled.state;
  const timeline = (await deps.commands.load(streams.chatMessages(id), timelineDecider(chat))).state;
  return { status, body: await chatAnswer(deps.accounts, chat, timeline, actor.id) };
}

/**
 * A timeline command with the chat it is decided on. The timeline's decider needs the chat's
 * configuration, another stream's state, while a declaration names one decider: so `command`
 * reads the chat first and hands it over inside the command. The type stays the timeline
 * command's (event ids derive from it), and so do the state and its fold (the cache is shared).
 */
type OnChat<C extends TimelineCommand> = Command<C['type'], Readonly<{ chat: ChatState; command: C }>>;

function decidedOnChat<C extends TimelineCommand>(): Decider<TimelineState, OnChat<C>, ChatMessageEvent> {
  return {
    initialState: initialTimelineState,
    evolve: evolveTimeline,
    decide: ({ data }, timeline) => timelineDecider(data.chat).decide(data.command, timeline),
  };
}

/** The timeline command, with the chat it is decided on read from the chat's own stream now. */
async function onChat<C extends TimelineCommand>(
  deps: WriteApiDeps,
  chatId: string,
  command: C,
): Promise<Pick<OnChat<C>, 'type' | 'data'>> {
  const chat = (await deps.commands.load(streams.chat(chatId), chatDecider)).state;
  return { type: command.type, data: { chat, command } };
}

/** A retried create (same Idempotency-Key, same caller) lands on the same chat. */
const newChatId = ({ newId }: CommandRequest<unknown, unknown>) => newId('CreateChat');

export const createChat = defineCommand({
  method: 'post',
  path: '/',
  summary: 'Create a chat (the creator becomes participant and admin)',
  tags,
  body,
  stream: (request) => streams.chat(newChatId(request)),
  decider: chatDecider,
  command: async (request, deps) => ({
    type: 'CreateChat',
    data: {
      chatId: newChatId(request),
      name: request.body.name ?? '',
      type: undefinedIfNull(request.body.type),
      participants: undefinedIfNull(request.body.participants),
      admins: undefinedIfNull(request.body.admins),
      aiAssistant: undefinedIfNull(request.body.aiAssistant),
      ...(await lookups(deps, request.body)),
    },
  }),
  policy: { mustBeNew: true },
  answer: (handled, request, _command, deps) => answerChat(deps, newChatId(request), handled, request, 201),
  responses: { 201: { description: 'Created', schema: chatSchema, headers: positionHeaders }, 400: invalidAnswer },
});

export const updateChat = defineCommand({
  method: 'put',
  path: '/:id',
  summary: 'Edit a chat (chat admins)',
  tags,
  params: chatParams,
  body,
  stream: ({ params }) => streams.chat(params.id),
  decider: chatDecider,
  command: async ({ body }, deps) => ({
    type: 'UpdateChat',
    data: {
      name: undefinedIfNull(body.name),
      type: undefinedIfNull(body.type),
      participants: undefinedIfNull(body.participants),
      admins: undefinedIfNull(body.admins),
      aiAssistant: undefinedIfNull(body.aiAssistant),
      ...(await lookups(deps, body)),
    },
  }),
  // The body is the whole edited chat: re-deciding it on a newer state keeps every rule.
  policy: { retryOnConflict: true },
  answer: (handled, request, _command, deps) => answerChat(deps, request.params.id, handled, request, 200),
  responses: {
    200: { description: 'Updated', schema: chatSchema, headers: positionHeaders },
    400: invalidAnswer,
    403: forbiddenAnswer,
    404: notFoundAnswer,
  },
});

export const deleteChat = defineCommand({
  method: 'delete',
  path: '/:id',
  summary: 'Delete a chat (chat admins)',
  description: "The chat's messages go with it, and so do their attachments' files.",
  tags,
  params: chatParams,
  stream: ({ params }) => streams.chat(params.id),
  decider: chatDecider,
  command: () => ({ type: 'DeleteChat', data: {} }),
  answer: async (_handled, { params }, _command, deps) => {
    // Only once the chat is deleted (by this request, or by the first of a retried one).
    await attachmentFiles({ store: deps.commands.store, blobs: deps.blobs, logger: deps.logger }).removeChatFiles(
      params.id,
    );
    return { status: 200, body: { message: 'Chat deleted', _id: params.id } };
  },
  responses: {
    200: {
      description: 'Deleted',
      schema: z.object({ message: z.string(), _id: z.string() }),
      headers: positionHeaders,
    },
    403: forbiddenAnswer,
    404: notFoundAnswer,
  },
});

export const joinChat = defineCommand({
  method: 'post',
  path: '/:id/join',
  summary: 'Join a public chat',
  tags,
  params: chatParams,
  stream: ({ params }) => streams.chat(params.id),
  decider: chatDecider,
  command: () => ({ type: 'JoinChat', data: {} }),
  policy: { retryOnConflict: true },
  answer: (handled, request, _command, deps) => answerChat(deps, request.params.id, handled, request, 200),
  responses: {
    200: { description: 'Joined', schema: chatSchema, headers: positionHeaders },
    403: forbiddenAnswer,
    404: notFoundAnswer,
  },
});

export const markChatRead = defineCommand({
  method: 'post',
  path: '/:id/read',
  summary: 'Mark every message read',
  tags,
  params: chatParams,
  stream: ({ params }) => streams.chatMessages(params.id),
  decider: decidedOnChat<MarkChatRead>(),
  command: ({ params, actor, now }, deps) =>
    onChat<MarkChatRead>(deps, params.id, { type: 'MarkChatRead', data: {}, metadata: { actor, now } }),
  // The timeline is appended without a revision check: a busy chat never conflicts.
  policy: { anyRevision: true },
  answer: (_handled, { params }) => ({ status: 200, body: { _id: params.id, unreadCount: 0 } }),
  responses: {
    200: {
      description: 'Marked',
      schema: z.object({ _id: z.string(), unreadCount: z.literal(0) }),
      headers: positionHeaders,
    },
    404: notFoundAnswer,
  },
});

export const deleteMessage = defineCommand({
  method: 'delete',
  path: '/:id/messages/:messageId',
  summary: 'Delete a message (its sender or a chat admin)',
  description: "The message's attachment files are deleted too; their links answer 404 from then on.",
  tags,
  params: messageParams,
  stream: ({ params }) => streams.chatMessages(params.id),
  decider: decidedOnChat<DeleteMessage>(),
  command: ({ params, actor, now }, deps) =>
    onChat<DeleteMessage>(deps, params.id, {
      type: 'DeleteMessage',
      data: { messageId: params.messageId },
      metadata: { actor, now },
    }),
  // Two deletes of one message append one MessageDeleted: its id derives from the message.
  policy: ({ params }) => ({ naturalKey: params.messageId, anyRevision: true }),
  answer: async (handled, { params }, _command, deps) => {
    const message = handled.state.messages.get(params.messageId);
    if (!message) throw new NotFoundError(chatMessages.messageNotFound);
    // Only once the message is deleted (by this request or an earlier one, whose removal may have been cut short).
    await attachmentFiles({ store: deps.commands.store, blobs: deps.blobs, logger: deps.logger }).removeMessageFiles(
      params.id,
      params.messageId,
      handled.state,
    );
    return {
      status: 200,
      body: await messageAnswer(deps.accounts, chatLinks(deps), params.id, message, handled.state),
    };
  },
  responses: {
    200: {
      description: 'The message, now reading "This message was deleted" with isDeleted: true',
      schema: messageSchema,
      headers: positionHeaders,
    },
    403: forbiddenAnswer,
    404: notFoundAnswer,
  },
});

export const chatCommands = [createChat, updateChat, deleteChat, joinChat, markChatRead, deleteMessage];
