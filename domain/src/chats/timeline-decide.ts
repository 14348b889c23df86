import { ForbiddenError, NotFoundError, ValidationError } from '../core/errors.js';
import { assertNever, type Command, type Decider } from '../core/event.js';
import { rolePermissions } from '../users/permissions.js';
import { userMessages } from '../users/user-vocabulary.js';
import type { ChatMessageEvent, ChatState } from './chat.js';
import { type Attachment, chatLimits, chatMessages } from './chat.schemas.js';
import { visibleChat } from './decide.js';
import { chatPermissions } from './permissions.js';
import { evolveTimeline, hasUnreadFor, initialTimelineState, type TimelineState } from './timeline.js';

/**
 * Commands on a chat's timeline (`chatmsgs-{id}`), decided from the chat's
 * configuration (`chat-{id}`: membership, admins, the assistant) and the timeline's
 * own state (who sent what, what is deleted, answered, read). The timeline is
 * appended without a revision check, so a busy chat never conflicts; what must
 * happen once (a deletion, the assistant's answer) gets an event id derived from
 * what it is about, so a second append of it is recognised by the store.
 */
export type SendMessage = Command<
  'SendMessage',
  {
    messageId: string;
    content: string;
    attachments: readonly Attachment[];
    mentions: readonly string[];
    replyTo: string | null;
  }
>;
export type DeleteMessage = Command<'DeleteMessage', { messageId: string }>;
export type MarkChatRead = Command<'MarkChatRead', Record<string, never>>;
/** The assistant's answer to one human message (from the AI reactor). */
export type PostAiReply = Command<
  'PostAiReply',
  { messageId: string; replyTo: string; content: string; model?: string; stopped?: boolean; failed?: boolean }
>;
export type TimelineCommand = SendMessage | DeleteMessage | MarkChatRead | PostAiReply;

const uniq = (ids: readonly string[]) => [...new Set(ids)];

/** The acting user; auditors neither send, delete nor mark messages. */
function userOf(command: TimelineCommand): string {
  const actor = command.metadata.actor;
  if (!actor) throw new ForbiddenError('Sign in to use chats');
  if (rolePermissions.isReadOnly(actor)) throw new ForbiddenError(userMessages.readOnlyRole);
  return actor.id;
}

function send(command: SendMessage, chatState: ChatState, timeline: TimelineState): ChatMessageEvent[] {
  const senderId = userOf(command);
  const chat = visibleChat(chatState, senderId);
  if (!chatPermissions.isParticipant(senderId, chat)) throw new ForbiddenError(chatMessages.joinToSend);
  const d = command.data;
  // The same message again (a retried request): it is there already.
  if (timeline.messages.get(d.messageId)?.senderId === senderId) return [];
  const content = d.content.trim();
  if (!content && d.attachments.length === 0) throw ValidationError.field('content', chatMessages.messageEmpty);
  if (content.length > chatLimits.messageMax) throw ValidationError.field('content', chatMessages.messageTooLong);
  if (d.attachments.length > chatLimits.attachmentsPerMessage) {
    throw ValidationError.field('attachments', chatMessages.tooManyAttachments);
  }
  const mentions = uniq(d.mentions);
  if (mentions.some((m) => !chat.participants.includes(m))) {
    throw ValidationError.field('mentions', chatMessages.mentionsNotMembers);
  }
  if (d.replyTo !== null && !timeline.messages.has(d.replyTo)) {
    throw ValidationError.field('replyTo', chatMessages.replyNotInChat);
  }
  return [
    {
      type: 'MessageSent',
      data: {
        chatId: chat.id,
        messageId: d.messageId,
        senderId,
        content,
        attachments: [...d.attachments],
        mentions,
        replyTo: d.replyTo,
      },
    },
  ];
}

function deleteMessage(command: DeleteMessage, chatState: ChatState, timeline: TimelineState): ChatMessageEvent[] {
  const userId = userOf(command);
  const chat = visibleChat(chatState, userId);
  const target = timeline.messages.get(command.data.messageId);
  if (!target) throw new NotFoundError(chatMessages.messageNotFound);
  if (!chatPermissions.canDeleteMessage(userId, chat, target)) {
    throw new ForbiddenError(chatMessages.cannotDeleteMessage);
  }
  if (target.isDeleted) return [];
  return [{ type: 'MessageDeleted', data: { chatId: chat.id, messageId: target.messageId, deletedBy: userId } }];
}

function markRead(command: MarkChatRead, chatState: ChatState, timeline: TimelineState): ChatMessageEvent[] {
  const userId = userOf(command);
  const chat = visibleChat(chatState, userId);
  // A reader of a public chat they have not joined has no unread count to reset.
  if (!chatPermissions.isParticipant(userId, chat)) return [];
  // Opening a chat marks it read: nothing to record when nobody wrote since.
  if (!hasUnreadFor(timeline, userId)) return [];
  return [{ type: 'ChatReadMarked', data: { chatId: chat.id, userId, throughRevision: timeline.eventCount - 1 } }];
}

/**
 * Decided on the chat as it was when the question arrived: an assistant switched
 * off afterwards still answers what was asked while it was on.
 */
function postAiReply(command: PostAiReply, chatWhenAsked: ChatState, timeline: TimelineState): ChatMessageEvent[] {
  if (chatWhenAsked.status !== 'active' || !chatWhenAsked.aiAssistant.enabled) return [];
  const question = timeline.messages.get(command.data.replyTo);
  if (!question || question.isAIMessage || question.isAnswered || question.isDeleted) return [];
  const content = command.data.content.trim();
  if (!content) return [];
  return [
    {
      type: 'AiMessagePosted',
      data: {
        chatId: chatWhenAsked.id,
        messageId: command.data.messageId,
        content: content.slice(0, 20_000),
        replyTo: question.messageId,
        model: command.data.model ?? chatWhenAsked.aiAssistant.model,
        ...(command.data.stopped ? { stopped: true } : {}),
        ...(command.data.failed ? { failed: true } : {}),
      },
    },
  ];
}

export function decideTimeline(command: TimelineCommand, chat: ChatState, timeline: TimelineState): ChatMessageEvent[] {
  switch (command.type) {
    case 'SendMessage':
      return send(command, chat, timeline);
    case 'DeleteMessage':
      return deleteMessage(command, chat, timeline);
    case 'MarkChatRead':
      return markRead(command, chat, timeline);
    case 'PostAiReply':
      return postAiReply(command, chat, timeline);
    default:
      return assertNever(command);
  }
}

/** The timeline's decider, deciding with the chat's configuration as it is given. */
export function timelineDecider(chat: ChatState): Decider<TimelineState, TimelineCommand, ChatMessageEvent> {
  return {
    initialState: initialTimelineState,
    evolve: evolveTimeline,
    decide: (command, timeline) => decideTimeline(command, chat, timeline),
  };
}
