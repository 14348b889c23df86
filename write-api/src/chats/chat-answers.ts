import {
  aiAssistantSender,
  type ChatDto,
  type ChatState,
  type ChatUserDto,
  chatMessages,
  lastMessageOf,
  type MessageDto,
  NotFoundError,
  type TimelineMessage,
  type TimelineState,
  unreadCountFor,
} from '@bugtrail/domain';
import { createUploadLinks, type UploadLinks } from '@bugtrail/platform';
import type { Accounts } from '../auth/accounts.js';
import type { WriteApiDeps } from '../deps.js';

/**
 * Chats and messages as write answers show them (the same shapes GET answers),
 * built from the write side's own state: the chat's stream, its timeline and the
 * accounts, never a read model.
 */
/** The signing secret is read once per process (or made): one set of links for every chat answer. */
const linksOf = new WeakMap<WriteApiDeps, UploadLinks>();

/** Attachments are answered as links signed per answer; the events keep the unsigned path. */
export function chatLinks(deps: WriteApiDeps): UploadLinks {
  let links = linksOf.get(deps);
  if (!links) {
    links = createUploadLinks({
      secret: deps.config.uploadsSigningSecret,
      pool: deps.pool,
      ...(deps.now ? { now: deps.now } : {}),
    });
    linksOf.set(deps, links);
  }
  return links;
}

const unknownUser = (id: string): ChatUserDto => ({
  _id: id,
  name: 'Unknown user',
  profileImageURL: null,
  profileImageUrl: null,
});

async function directory(accounts: Accounts, ids: Iterable<string | null>) {
  const refs = await accounts.refs([...ids].filter((id): id is string => Boolean(id)));
  return (id: string): ChatUserDto => {
    const ref = refs.get(id);
    return ref
      ? { _id: id, name: ref.name, profileImageURL: ref.profileImageURL, profileImageUrl: ref.profileImageURL }
      : unknownUser(id);
  };
}

const senderRef = (user: ChatUserDto) => ({ _id: user._id, name: user.name });
const textOf = (message: TimelineMessage) => (message.isDeleted ? chatMessages.deletedMessage : message.content);

export async function chatAnswer(
  accounts: Accounts,
  chat: ChatState,
  timeline: TimelineState,
  userId: string,
): Promise<ChatDto> {
  if (chat.status !== 'active') throw new NotFoundError(chatMessages.notFound);
  const last = lastMessageOf(timeline);
  const user = await directory(accounts, [
    ...chat.participants,
    ...chat.admins,
    chat.createdBy,
    last?.senderId ?? null,
  ]);
  const sender = (message: TimelineMessage) =>
    message.isAIMessage || !message.senderId ? aiAssistantSender : user(message.senderId);
  return {
    _id: chat.id,
    name: chat.name,
    type: chat.type,
    participants: chat.participants.map(user),
    admins: chat.admins.map(user),
    aiAssistant: chat.aiAssistant,
    createdBy: senderRef(user(chat.createdBy)),
    createdAt: chat.createdAt,
    updatedAt: last && last.createdAt > chat.createdAt ? last.createdAt : chat.createdAt,
    lastMessage: last
      ? {
          _id: last.messageId,
          content: textOf(last),
          createdAt: last.createdAt,
          isDeleted: last.isDeleted,
          isAIMessage: last.isAIMessage,
          sender: senderRef(sender(last)),
        }
      : null,
    unreadCount: chat.participants.includes(userId) ? unreadCountFor(timeline, userId) : 0,
  };
}

/** The message; its attachments carry links signed now, for whoever this answer is for (a member). */
export async function messageAnswer(
  accounts: Accounts,
  links: UploadLinks,
  chatId: string,
  message: TimelineMessage,
  timeline: TimelineState,
): Promise<MessageDto> {
  const replied = message.replyTo ? timeline.messages.get(message.replyTo) : undefined;
  const user = await directory(accounts, [message.senderId, replied?.senderId ?? null]);
  const sender = (m: TimelineMessage) => (m.isAIMessage || !m.senderId ? aiAssistantSender : user(m.senderId));
  return {
    _id: message.messageId,
    chat: chatId,
    sender: sender(message),
    content: textOf(message),
    attachments: message.isDeleted ? [] : await links.signAttachments(message.attachments),
    mentions: [...message.mentions],
    replyTo: replied
      ? {
          _id: replied.messageId,
          content: textOf(replied),
          sender: senderRef(sender(replied)),
          isDeleted: replied.isDeleted,
          isAIMessage: replied.isAIMessage,
          createdAt: replied.createdAt,
        }
      : null,
    isDeleted: message.isDeleted,
    isAIMessage: message.isAIMessage,
    createdAt: message.createdAt,
  };
}
