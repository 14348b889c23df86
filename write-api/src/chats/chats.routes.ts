import { randomUUID } from 'node:crypto';
import {
  type ActiveChat,
  type Attachment,
  type ChatCommand,
  type ChatDto,
  type ChatEvent,
  type ChatMessageCommand,
  type ChatMessageEvent,
  type ChatState,
  chatDecider,
  chatMessages,
  decideChatMessage,
  eventSchemaVersion,
  type MessageDto,
  NotFoundError,
  streams,
  ValidationError,
} from '@bugtrail/domain';
import { type AuthEnv, createDb, readJson, requireAuth } from '@bugtrail/platform';
import { findChatFor, findMessage, findMessageFacts, unreadCount } from '@bugtrail/projector';
import { type Context, Hono } from 'hono';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { type CommandContext, deriveEventId, handleCommand } from '../commands/handle-command.js';
import { commandContext, settle, type WriteApiDeps } from '../deps.js';
import { checkAttachments, isMultipart, readMultipart } from './attachments.js';
import { chatDtoFromState, messageDtoFromEvent } from './fallback-answers.js';

const idText = z.string().trim().min(1).max(100);
/** The spec shows participants "as users or user ids": accept both, keep ids. */
const userRef = z.union([idText, z.object({ _id: idText }).transform((u) => u._id)]);
const aiInput = z.object({
  enabled: z.boolean().optional(),
  model: z.string().max(100).optional(),
  systemPrompt: z.string().max(20_000).optional(),
});
const chatBody = z.object({
  name: z.string().max(10_000).optional().nullable(),
  type: z.string().max(100).optional().nullable(),
  participants: z.array(userRef).max(5000).optional().nullable(),
  admins: z.array(userRef).max(5000).optional().nullable(),
  aiAssistant: aiInput.optional().nullable(),
});
const messageBody = z.object({
  content: z.string().max(100_000).optional().nullable(),
  mentions: z.array(userRef).max(1000).optional().nullable(),
  replyTo: userRef.optional().nullable(),
});

const undefinedIfNull = <T>(value: T | null | undefined): T | undefined => value ?? undefined;

/** Chat commands: `/api/chats` and the spec's chat-server paths `/chats` mount the same routes. */
export function createChatRoutes(deps: WriteApiDeps) {
  const db: Kysely<any> = createDb(deps.pool);
  const now = () => (deps.now?.() ?? new Date()).toISOString();
  const app = new Hono<AuthEnv>();
  app.use('*', requireAuth(deps.tokens));

  const chatId = (c: Context) => idText.parse(c.req.param('id'));

  async function loadChat(id: string): Promise<ChatState> {
    const events = await deps.store.readStream(streams.chat(id));
    return events.reduce<ChatState>(
      (s, e) => chatDecider.evolve(s, e as unknown as ChatEvent),
      chatDecider.initialState(),
    );
  }

  /** Which of the ids are registered users (the users read model is settled after every signup). */
  async function registered(ids: readonly string[]): Promise<string[]> {
    if (ids.length === 0) return [];
    const { rows } = await deps.pool.query<{ id: string }>('select id from rm.users where id = any($1::text[])', [
      [...new Set(ids)],
    ]);
    return rows.map((r) => r.id);
  }

  async function runChatCommand(c: Context<AuthEnv>, id: string, command: ChatCommand, options = {}) {
    const handled = await handleCommand(
      deps.store,
      streams.chat(id),
      chatDecider,
      command,
      commandContext(c, c.var.actor),
      options,
    );
    await settle(c, deps, handled.position);
    return handled;
  }

  /** The chat as GET shows it once settled; from the write side's state when the read model lags. */
  async function chatAnswer(id: string, userId: string, state: ChatState): Promise<ChatDto> {
    const view = await findChatFor(db, id, userId);
    if (view) return view;
    if (state.status !== 'active') throw new NotFoundError(chatMessages.notFound);
    return chatDtoFromState(deps.pool, state as ActiveChat);
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
          registeredUserIds: await registered(referenced),
        },
        metadata: { actor: c.var.actor, now: now() },
      },
      { mustBeNew: true },
    );
    return c.json(await chatAnswer(id, c.var.actor.id, handled.state), 201);
  });

  app.put('/:id', async (c) => {
    const id = chatId(c);
    const body = await readJson(c, chatBody);
    const referenced = [...(body.participants ?? []), ...(body.admins ?? [])];
    const handled = await runChatCommand(
      c,
      id,
      {
        type: 'UpdateChat',
        data: {
          name: undefinedIfNull(body.name),
          type: undefinedIfNull(body.type),
          participants: undefinedIfNull(body.participants),
          admins: undefinedIfNull(body.admins),
          aiAssistant: undefinedIfNull(body.aiAssistant),
          registeredUserIds: await registered(referenced),
        },
        metadata: { actor: c.var.actor, now: now() },
      },
      // The body is the whole edited chat: re-deciding it on a newer state keeps every rule.
      { retryOnConflict: true },
    );
    return c.json(await chatAnswer(id, c.var.actor.id, handled.state), 200);
  });

  app.delete('/:id', async (c) => {
    const id = chatId(c);
    await runChatCommand(c, id, { type: 'DeleteChat', data: {}, metadata: { actor: c.var.actor, now: now() } });
    return c.json({ message: 'Chat deleted', _id: id }, 200);
  });

  app.post('/:id/join', async (c) => {
    const id = chatId(c);
    const handled = await runChatCommand(
      c,
      id,
      { type: 'JoinChat', data: {}, metadata: { actor: c.var.actor, now: now() } },
      { retryOnConflict: true },
    );
    return c.json(await chatAnswer(id, c.var.actor.id, handled.state), 200);
  });

  /**
   * Appends to `chatmsgs-{id}` without a revision check (a busy chat never conflicts);
   * the decision is made on the chat's configuration, read from `chat-{id}`.
   */
  async function appendMessageEvents(
    context: CommandContext,
    id: string,
    command: ChatMessageCommand,
    events: readonly ChatMessageEvent[],
  ) {
    const scope = `${context.actor?.id}:${streams.chatMessages(id)}:${command.type}`;
    return deps.store.append(
      streams.chatMessages(id),
      events.map((event, index) => ({
        id: context.idempotencyKey ? deriveEventId(context.idempotencyKey, scope, index) : randomUUID(),
        type: event.type,
        data: event.data,
        metadata: {
          actorId: context.actor?.id ?? null,
          correlationId: context.correlationId,
          causationId: context.idempotencyKey,
          occurredAt: command.metadata.now,
          schemaVersion: eventSchemaVersion(event.type),
        },
      })),
      'any',
    );
  }

  app.post('/:id/read', async (c) => {
    const id = chatId(c);
    const command: ChatMessageCommand = {
      type: 'MarkChatRead',
      data: {},
      metadata: { actor: c.var.actor, now: now() },
    };
    const events = decideChatMessage(command, await loadChat(id));
    // Opening a chat marks it read: skip the event when there is nothing unread.
    if (events.length > 0 && (await unreadCount(db, id, c.var.actor.id)) > 0) {
      const result = await appendMessageEvents(commandContext(c, c.var.actor), id, command, events);
      await settle(c, deps, result.position);
    }
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
    const replyTarget = input.replyTo ? await findMessageFacts(db, input.replyTo) : null;
    const commandWith = (attachments: Attachment[]): ChatMessageCommand => ({
      type: 'SendMessage',
      data: {
        messageId,
        content: input.content,
        attachments,
        mentions: input.mentions,
        replyTo: input.replyTo,
        replyTarget,
      },
      metadata: { actor: c.var.actor, now: now() },
    });
    // Decide once before storing anything, so a refused message leaves no files behind.
    decideChatMessage(
      commandWith(
        files.map((f) => ({
          filename: f.filename,
          path: '/uploads/pending',
          mimetype: f.mimetype,
          size: f.bytes.byteLength,
        })),
      ),
      chat,
    );
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
      const command = commandWith(attachments);
      const events = decideChatMessage(command, chat);
      const result = await appendMessageEvents(context, id, command, events);
      // A retried request: the first one's files are the message's; these are spare.
      if (result.alreadyAppended) await Promise.all(stored.map((key) => deps.blobs.remove(key).catch(() => {})));
      await settle(c, deps, result.position);
      const answer: MessageDto =
        (await findMessage(db, id, messageId)) ??
        (await messageDtoFromEvent(deps.pool, events[0]!, command.metadata.now));
      return c.json(answer, 201);
    } catch (error) {
      await Promise.all(stored.map((key) => deps.blobs.remove(key).catch(() => {})));
      throw error;
    }
  });

  app.delete('/:id/messages/:messageId', async (c) => {
    const id = chatId(c);
    const messageId = idText.parse(c.req.param('messageId'));
    const command: ChatMessageCommand = {
      type: 'DeleteMessage',
      data: { messageId, target: await findMessageFacts(db, messageId) },
      metadata: { actor: c.var.actor, now: now() },
    };
    const events = decideChatMessage(command, await loadChat(id));
    if (events.length > 0) {
      const result = await appendMessageEvents(commandContext(c, c.var.actor), id, command, events);
      await settle(c, deps, result.position);
    }
    const answer = (await findMessage(db, id, messageId)) ?? {
      _id: messageId,
      chat: id,
      content: chatMessages.deletedMessage,
      isDeleted: true,
    };
    return c.json(answer, 200);
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
  const form = await readMultipart(c);
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
