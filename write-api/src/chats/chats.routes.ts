import { randomUUID } from 'node:crypto';
import {
  type Attachment,
  aiAssistantTexts,
  aiModels,
  type ChatCommand,
  type ChatState,
  chatDecider,
  chatMessages,
  chatPermissions,
  ForbiddenError,
  NotFoundError,
  streams,
  type TimelineCommand,
  type TimelineState,
  timelineDecider,
  ValidationError,
  visibleChat,
} from '@bugtrail/domain';
import { type CommandContext, deriveEventId, type HandleOptions } from '@bugtrail/eventstore';
import {
  AI_STOP_CHANNEL,
  type AuthEnv,
  aiModelCatalog,
  createUploadLinks,
  readJson,
  requireAuth,
} from '@bugtrail/platform';
import { type Context, Hono } from 'hono';
import { z } from 'zod';
import { commandContext, settle, type WriteApiDeps } from '../deps.js';
import { attachmentFiles } from './attachment-files.js';
import { checkAttachments, isMultipart, readAttachmentsForm } from './attachments.js';
import { chatAnswer, messageAnswer } from './chat-answers.js';

const idText = z.string().trim().min(1).max(100);
/** The spec shows participants "as users or user ids": accept both, keep ids. */
const userRef = z.union([idText, z.object({ _id: idText }).transform((u) => u._id)]);
const aiInput = z.object({
  enabled: z.boolean().optional(),
  model: z.string().max(100).optional(),
  systemPrompt: z.string().max(20_000).optional(),
});
export const chatBody = z.object({
  name: z.string().max(10_000).optional().nullable(),
  type: z.string().max(100).optional().nullable(),
  participants: z.array(userRef).max(5000).optional().nullable(),
  admins: z.array(userRef).max(5000).optional().nullable(),
  aiAssistant: aiInput.optional().nullable(),
});
export const messageBody = z.object({
  content: z.string().max(100_000).optional().nullable(),
  mentions: z.array(userRef).max(1000).optional().nullable(),
  replyTo: userRef.optional().nullable(),
});

const undefinedIfNull = <T>(value: T | null | undefined): T | undefined => value ?? undefined;

/**
 * Chat commands: `/api/chats` and the spec's chat-server paths `/chats` mount the
 * same routes. Each decides from the chat's own stream (`chat-{id}`: membership,
 * admins, the assistant) and its timeline (`chatmsgs-{id}`: senders, deletions,
 * read marks), never from a read model, and goes through the one command handler.
 */
export function createChatRoutes(deps: WriteApiDeps) {
  const now = () => (deps.now?.() ?? new Date()).toISOString();
  // Attachments are answered as links signed per answer; the events keep the unsigned path.
  const links = createUploadLinks({
    secret: deps.config.uploadsSigningSecret,
    pool: deps.pool,
    ...(deps.now ? { now: deps.now } : {}),
  });
  const chatFiles = attachmentFiles({ store: deps.commands.store, blobs: deps.blobs, logger: deps.logger });
  const app = new Hono<AuthEnv>();
  app.use('*', requireAuth(deps.tokens));

  // An id that cannot name a chat (blank, over-long) is one that does not exist: 404, as for bugs.
  const pathId = (c: Context, name: string, notFound: string) => {
    const parsed = idText.safeParse(c.req.param(name));
    if (!parsed.success) throw new NotFoundError(notFound);
    return parsed.data;
  };
  const chatId = (c: Context) => pathId(c, 'id', chatMessages.notFound);
  /** Models beyond the spec's four that the chat may name: looked up only when it names one. */
  const providerModels = async (model: string | null | undefined): Promise<string[]> =>
    model && !(aiModels as readonly string[]).includes(model)
      ? (await aiModelCatalog.list(deps.pool)).map((listed) => listed.id)
      : [];
  const loadChat = async (id: string) => (await deps.commands.load(streams.chat(id), chatDecider)).state;
  const loadTimeline = async (chat: ChatState, id: string) =>
    (await deps.commands.load(streams.chatMessages(id), timelineDecider(chat))).state;

  async function runChatCommand(
    c: Context<AuthEnv>,
    context: CommandContext,
    id: string,
    command: ChatCommand,
    options: HandleOptions = {},
  ) {
    const handled = await deps.commands.handle(streams.chat(id), chatDecider, command, context, options);
    await settle(c, deps, handled.position);
    return handled;
  }

  /** Appends to the timeline without a revision check: a busy chat never conflicts. */
  async function runTimelineCommand(
    c: Context<AuthEnv>,
    context: CommandContext,
    chat: ChatState,
    id: string,
    command: TimelineCommand,
    options: HandleOptions = {},
  ) {
    const handled = await deps.commands.handle(streams.chatMessages(id), timelineDecider(chat), command, context, {
      ...options,
      anyRevision: true,
    });
    await settle(c, deps, handled.position);
    return handled;
  }

  async function answerChat(c: Context<AuthEnv>, id: string, state: ChatState, status: 200 | 201) {
    const timeline: TimelineState = await loadTimeline(state, id);
    return c.json(await chatAnswer(deps.accounts, state, timeline, c.var.actor.id), status);
  }

  app.post('/', async (c) => {
    const body = await readJson(c, chatBody);
    const context = commandContext(c, c.var.actor);
    // A retried create (same Idempotency-Key) lands on the same chat.
    const id = context.idempotencyKey
      ? deriveEventId(context.idempotencyKey, `${c.var.actor.id}:CreateChat`, 0)
      : randomUUID();
    const referenced = [...(body.participants ?? []), ...(body.admins ?? [])];
    const handled = await runChatCommand(
      c,
      context,
      id,
      {
        type: 'CreateChat',
        data: {
          chatId: id,
          name: body.name ?? '',
          type: undefinedIfNull(body.type),
          participants: undefinedIfNull(body.participants),
          admins: undefinedIfNull(body.admins),
          aiAssistant: undefinedIfNull(body.aiAssistant),
          registeredUserIds: await deps.accounts.registered(referenced),
          providerModels: await providerModels(body.aiAssistant?.model),
        },
        metadata: { actor: c.var.actor, now: now() },
      },
      { mustBeNew: true },
    );
    return answerChat(c, id, handled.state, 201);
  });

  app.put('/:id', async (c) => {
    const id = chatId(c);
    const body = await readJson(c, chatBody);
    const referenced = [...(body.participants ?? []), ...(body.admins ?? [])];
    const handled = await runChatCommand(
      c,
      commandContext(c, c.var.actor),
      id,
      {
        type: 'UpdateChat',
        data: {
          name: undefinedIfNull(body.name),
          type: undefinedIfNull(body.type),
          participants: undefinedIfNull(body.participants),
          admins: undefinedIfNull(body.admins),
          aiAssistant: undefinedIfNull(body.aiAssistant),
          registeredUserIds: await deps.accounts.registered(referenced),
          providerModels: await providerModels(body.aiAssistant?.model),
        },
        metadata: { actor: c.var.actor, now: now() },
      },
      // The body is the whole edited chat: re-deciding it on a newer state keeps every rule.
      { retryOnConflict: true },
    );
    return answerChat(c, id, handled.state, 200);
  });

  app.delete('/:id', async (c) => {
    const id = chatId(c);
    await runChatCommand(c, commandContext(c, c.var.actor), id, {
      type: 'DeleteChat',
      data: {},
      metadata: { actor: c.var.actor, now: now() },
    });
    // Only once the chat is deleted (by this request, or by the first of a retried one).
    await chatFiles.removeChatFiles(id);
    return c.json({ message: 'Chat deleted', _id: id }, 200);
  });

  app.post('/:id/join', async (c) => {
    const id = chatId(c);
    const handled = await runChatCommand(
      c,
      commandContext(c, c.var.actor),
      id,
      { type: 'JoinChat', data: {}, metadata: { actor: c.var.actor, now: now() } },
      { retryOnConflict: true },
    );
    return answerChat(c, id, handled.state, 200);
  });

  app.post('/:id/read', async (c) => {
    const id = chatId(c);
    const chat = await loadChat(id);
    await runTimelineCommand(c, commandContext(c, c.var.actor), chat, id, {
      type: 'MarkChatRead',
      data: {},
      metadata: { actor: c.var.actor, now: now() },
    });
    return c.json({ _id: id, unreadCount: 0 }, 200);
  });

  app.post('/:id/messages', async (c) => {
    const id = chatId(c);
    const input = isMultipart(c) ? await readMessageForm(c) : await readMessageJson(c);
    const files = await checkAttachments(input.files);
    const context = commandContext(c, c.var.actor);
    const messageId = context.idempotencyKey
      ? deriveEventId(context.idempotencyKey, `${c.var.actor.id}:${id}:message`, 0)
      : randomUUID();
    const chat = await loadChat(id);
    const commandWith = (attachments: Attachment[]): TimelineCommand => ({
      type: 'SendMessage',
      data: { messageId, content: input.content, attachments, mentions: input.mentions, replyTo: input.replyTo },
      metadata: { actor: c.var.actor, now: now() },
    });
    // Decide once before storing anything, so a refused message leaves no files behind.
    const pending = files.map((f) => ({
      filename: f.filename,
      path: '/uploads/pending',
      mimetype: f.mimetype,
      size: f.bytes.byteLength,
    }));
    timelineDecider(chat).decide(commandWith(pending), await loadTimeline(chat, id));
    const stored: string[] = [];
    try {
      const attachments: Attachment[] = [];
      for (const file of files) {
        const blob = await deps.blobs.put('chat', file.bytes, file.mimetype, file.extension);
        stored.push(blob.key);
        attachments.push({
          filename: file.filename,
          path: `/uploads/${blob.key}`,
          mimetype: blob.mimetype,
          size: blob.size,
        });
      }
      const handled = await runTimelineCommand(c, context, chat, id, commandWith(attachments));
      // A retried request: the first one's files are the message's; these are spare.
      if (handled.newEvents.length === 0) await removeBlobs(stored);
      const message = handled.state.messages.get(messageId);
      if (!message) throw new NotFoundError(chatMessages.messageNotFound);
      return c.json(await messageAnswer(deps.accounts, links, id, message, handled.state), 201);
    } catch (error) {
      await removeBlobs(stored);
      throw error;
    }
  });

  async function removeBlobs(keys: readonly string[]) {
    await Promise.all(keys.map((key) => deps.blobs.remove(key).catch(() => {})));
  }

  app.delete('/:id/messages/:messageId', async (c) => {
    const id = chatId(c);
    const messageId = pathId(c, 'messageId', chatMessages.messageNotFound);
    const chat = await loadChat(id);
    // Two deletes of one message append one MessageDeleted: its id derives from the message.
    const handled = await runTimelineCommand(
      c,
      commandContext(c, c.var.actor),
      chat,
      id,
      { type: 'DeleteMessage', data: { messageId }, metadata: { actor: c.var.actor, now: now() } },
      { naturalKey: messageId },
    );
    const message = handled.state.messages.get(messageId);
    if (!message) throw new NotFoundError(chatMessages.messageNotFound);
    // Only once the message is deleted (by this request or an earlier one, whose removal may have been cut short).
    await chatFiles.removeMessageFiles(id, messageId, handled.state);
    return c.json(await messageAnswer(deps.accounts, links, id, message, handled.state), 200);
  });

  /**
   * POST /api/chats/{id}/messages/{messageId}/stop: Stop on an AI answer being written
   * (`messageId` is the one its `ai-draft` events carry). Any member may press it; the
   * assistant posts what it wrote so far, marked as stopped. An answer that is no longer
   * being written is not touched: 202 either way, since Stop and the last word can cross.
   */
  app.post('/:id/messages/:messageId/stop', async (c) => {
    const id = chatId(c);
    const messageId = pathId(c, 'messageId', chatMessages.messageNotFound);
    const chat = visibleChat(await loadChat(id), c.var.actor.id);
    if (!chatPermissions.isParticipant(c.var.actor.id, chat)) throw new ForbiddenError(chatMessages.joinToSend);
    await deps.pool.query('select pg_notify($1, $2)', [
      AI_STOP_CHANNEL,
      JSON.stringify({ chatId: id, messageId, stoppedBy: c.var.actor.id }),
    ]);
    return c.json({ message: aiAssistantTexts.stopping }, 202);
  });

  return app;
}

type MessageInput = { content: string; mentions: string[]; replyTo: string | null; files: File[] };

async function readMessageJson(c: Context): Promise<MessageInput> {
  const body = await readJson(c, messageBody);
  return { content: body.content ?? '', mentions: body.mentions ?? [], replyTo: body.replyTo || null, files: [] };
}

/** Multipart: `attachments` files, and text fields as browsers' FormData sends them. */
async function readMessageForm(c: Context): Promise<MessageInput> {
  const form = await readAttachmentsForm(c);
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === 'string' ? value : '';
  };
  const mentions: string[] = [];
  for (const value of [...form.getAll('mentions'), ...form.getAll('mentions[]')]) {
    if (typeof value !== 'string' || !value.trim()) continue;
    let parsed: unknown = value;
    if (value.trim().startsWith('[')) {
      try {
        parsed = JSON.parse(value);
      } catch {
        throw ValidationError.field('mentions', 'Mentions must be a list of user ids');
      }
    }
    const list = Array.isArray(parsed) ? parsed : String(parsed).split(',');
    const ids = z.array(userRef).safeParse(list.map((v) => (typeof v === 'string' ? v.trim() : v)));
    if (!ids.success) throw ValidationError.field('mentions', 'Mentions must be a list of user ids');
    mentions.push(...ids.data);
  }
  const content = text('content');
  if (content.length > 100_000) throw ValidationError.field('content', chatMessages.messageTooLong);
  const files = form.getAll('attachments').filter((v) => typeof v !== 'string') as unknown as File[];
  return { content, mentions, replyTo: text('replyTo').trim() || null, files };
}
