import type { ActiveChat, ChatDto, ChatMessageEvent, ChatUserDto, MessageDto } from '@bugtrail/domain';
import type pg from 'pg';

/**
 * Answers built from the write side when the read model has not caught up within
 * the read-your-writes wait (the answer then also carries X-Read-Model-Lag).
 */
async function usersById(pool: pg.Pool, ids: readonly string[]): Promise<Map<string, ChatUserDto>> {
  const { rows } = await pool.query<{ id: string; name: string; profile_image_url: string | null }>(
    'select id, name, profile_image_url from rm.users where id = any($1::text[])',
    [[...new Set(ids)]],
  );
  return new Map(
    rows.map((r) => [
      r.id,
      { _id: r.id, name: r.name, profileImageURL: r.profile_image_url, profileImageUrl: r.profile_image_url },
    ]),
  );
}

const unknown = (id: string): ChatUserDto => ({
  _id: id,
  name: 'Unknown user',
  profileImageURL: null,
  profileImageUrl: null,
});

export async function chatDtoFromState(pool: pg.Pool, chat: ActiveChat): Promise<ChatDto> {
  const users = await usersById(pool, [...chat.participants, ...chat.admins, chat.createdBy]);
  const user = (id: string) => users.get(id) ?? unknown(id);
  const creator = user(chat.createdBy);
  return {
    _id: chat.id,
    name: chat.name,
    type: chat.type,
    participants: chat.participants.map(user),
    admins: chat.admins.map(user),
    aiAssistant: chat.aiAssistant,
    createdBy: { _id: creator._id, name: creator.name },
    createdAt: chat.createdAt,
    updatedAt: chat.createdAt,
    lastMessage: null,
    unreadCount: 0,
  };
}

export async function messageDtoFromEvent(pool: pg.Pool, event: ChatMessageEvent, at: string): Promise<MessageDto> {
  if (event.type !== 'MessageSent') throw new Error(`not a sent message: ${event.type}`);
  const d = event.data;
  const sender = (await usersById(pool, [d.senderId])).get(d.senderId) ?? unknown(d.senderId);
  return {
    _id: d.messageId,
    chat: d.chatId,
    sender,
    content: d.content,
    attachments: [...d.attachments],
    mentions: [...d.mentions],
    // Only the id is known here; GET shows the quoted message.
    replyTo: d.replyTo
      ? {
          _id: d.replyTo,
          content: '',
          sender: { _id: '', name: '' },
          isDeleted: false,
          isAIMessage: false,
          createdAt: at,
        }
      : null,
    isDeleted: false,
    isAIMessage: false,
    createdAt: at,
  };
}
