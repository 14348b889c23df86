import { randomUUID } from 'node:crypto';
import {
  type Attachment,
  aiAssistantTexts,
  type ChatState,
  chatDecider,
  chatMessages,
  chatPermissions,
  ForbiddenError,
  NotFoundError,
  streams,
  type TimelineCommand,
  timelineDecider,
  ValidationError,
  visibleChat,
} from '@bugtrail/domain';
import { type CommandContext, deriveEventId } from '@bugtrail/eventstore';
import { AI_STOP_CHANNEL, type AuthEnv, readJson, requireAuth, type UploadSpool } from '@bugtrail/platform';
import { type Context, Hono } from 'hono';
import { z } from 'zod';
import { commandContext, settle, type WriteApiDeps } from '../deps.js';
import { checkAttachments, isMultipart, readAttachmentsForm } from './attachments.js';
import { chatLinks, messageAnswer } from './chat-answers.js';
import { idText, messageBody, userRef } from './chat-input.js';

/**
 * The chat routes that are not one declared command (chats.commands.ts has those):
 * sending a message, JSON or multipart with files, decided before its body is read and
 * again before its files are stored; and Stop on an AI answer being written, a signal
 * rather than an event. `/api/chats` and the spec's chat-server paths `/chats` mount the
 * same routes.
 */
export function createChatRoutes(deps: WriteApiDeps) {
  const now = () => (deps.now?.() ?? new Date()).toISOString();
  const links = chatLinks(deps);
  const app = new Hono<AuthEnv>();
  app.use('*', requireAuth(deps.tokens));

  // An id that cannot name a chat (blank, over-long) is one that does not exist: 404, as for bugs.
  const pathId = (c: Context, name: string, notFound: string) => {
    const parsed = idText.safeParse(c.req.param(name));
    if (!parsed.success) throw new NotFoundError(notFound);
    return parsed.data;
  };
  const chatId = (c: Context) => pathId(c, 'id', chatMessages.notFound);
  const loadChat = async (id: string) => (await deps.commands.load(streams.chat(id), chatDecider)).state;
  const loadTimeline = async (chat: ChatState, id: string) =>
    (await deps.commands.load(streams.chatMessages(id), timelineDecider(chat))).state;

  /** Appends to the timeline without a revision check: a busy chat never conflicts. */
  async function runTimelineCommand(
    c: Context<AuthEnv>,
    context: CommandContext,
    chat: ChatState,
    id: string,
    command: TimelineCommand,
  ) {
    const handled = await deps.commands.handle(streams.chatMessages(id), timelineDecider(chat), command, context, {
      anyRevision: true,
    });
    await settle(c, deps, handled.position);
    return handled;
  }

  app.post('/:id/messages', async (c) => {
    const id = chatId(c);
    const context = commandContext(c, c.var.actor);
    const messageId = context.idempotencyKey
      ? deriveEventId(context.idempotencyKey, `${c.var.actor.id}:${id}:message`, 0)
      : randomUUID();
    let chat = await loadChat(id);
    const decideSend = async (
      input: Pick<MessageInput, 'content' | 'mentions' | 'replyTo'>,
      attachments: Attachment[],
    ) =>
      timelineDecider(chat).decide(
        {
          type: 'SendMessage',
          data: { messageId, content: input.content, attachments, mentions: input.mentions, replyTo: input.replyTo },
          metadata: { actor: c.var.actor, now: now() },
        },
        await loadTimeline(chat, id),
      );
    // Whether the chat exists and the caller may send to it is known before a byte of the body
    // is read (api.md "Second round of safety"): a stranger's upload is refused without spooling it.
    await decideSend({ content: 'pending', mentions: [], replyTo: null }, []);
    const input = isMultipart(c) ? await readMessageForm(c, deps.spool) : await readMessageJson(c);
    const files = await checkAttachments(input.files);
    // Read again: the body may have taken a while to arrive.
    chat = await loadChat(id);
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
    await decideSend(input, pending);
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
async function readMessageForm(c: Context, spool: UploadSpool): Promise<MessageInput> {
  const form = await readAttachmentsForm(c, spool);
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
