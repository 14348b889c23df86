import {
  type AiAssistantSettings,
  aiAssistantSender,
  type ChatDto,
  type ChatUserDto,
  chatLimits,
  chatMessages,
  type MessageDto,
  type RepliedMessageDto,
} from '@bugtrail/domain';
import { type Kysely, type Selectable, sql } from 'kysely';
import { READ_MODEL_SCHEMA } from '../runtime/projection.js';
import type { ReadModelDb } from '../schema.js';
import { findUserNames, listUserNames, type UserNameRow } from '../users/users.queries.js';
import type { ChatMessagesTable, ChatsTable } from './chats.tables.js';

/**
 * The queries read-api runs
 * on the chats read model. Names and images come from the users read model at
 * query time, so a renamed user shows the new name everywhere at once.
 */
const chats = sql.id(READ_MODEL_SCHEMA, 'chats');
const members = sql.id(READ_MODEL_SCHEMA, 'chat_members');
const messages = sql.id(READ_MODEL_SCHEMA, 'chat_messages');
const from = (db: Kysely<ReadModelDb>) => db.withSchema(READ_MODEL_SCHEMA);

type ChatListRow = Selectable<ChatsTable> & { unread_count: string | number };
type Directory = Map<string, UserNameRow>;

const iso = (value: Date | string) => (value instanceof Date ? value : new Date(value)).toISOString();

async function directory(db: Kysely<ReadModelDb>, ids: Iterable<string | null>): Promise<Directory> {
  const rows = await findUserNames(
    db,
    [...ids].filter((id): id is string => !!id),
  );
  return new Map(rows.map((r) => [r.id, r]));
}

function userDto(dir: Directory, id: string): ChatUserDto {
  const user = dir.get(id);
  const image = user?.profile_image_url ?? null;
  return { _id: id, name: user?.name ?? 'Unknown user', profileImageURL: image, profileImageUrl: image };
}

function senderRef(dir: Directory, senderId: string | null, isAi: boolean): { _id: string; name: string } {
  if (isAi || !senderId) return { _id: aiAssistantSender._id, name: aiAssistantSender.name };
  const { _id, name } = userDto(dir, senderId);
  return { _id, name };
}

function toChatDto(row: ChatListRow, dir: Directory): ChatDto {
  const aiAssistant: AiAssistantSettings = {
    enabled: row.ai_enabled,
    model: row.ai_model as AiAssistantSettings['model'],
    systemPrompt: row.ai_system_prompt,
  };
  return {
    _id: row.id,
    name: row.name,
    type: row.type,
    participants: row.participants.map((id) => userDto(dir, id)),
    admins: row.admins.map((id) => userDto(dir, id)),
    aiAssistant,
    createdBy: senderRef(dir, row.created_by, false),
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
    lastMessage:
      row.last_message_id && row.last_message_at
        ? {
            _id: row.last_message_id,
            content: row.last_message_is_deleted ? chatMessages.deletedMessage : (row.last_message_content ?? ''),
            createdAt: iso(row.last_message_at),
            isDeleted: row.last_message_is_deleted,
            isAIMessage: row.last_message_is_ai,
            sender: senderRef(dir, row.last_message_sender_id, row.last_message_is_ai),
          }
        : null,
    unreadCount: Number(row.unread_count),
  };
}

/** The caller's chats and every public chat, most recent activity first. */
async function selectChats(db: Kysely<ReadModelDb>, userId: string, chatId: string | null): Promise<ChatListRow[]> {
  const { rows } = await sql<ChatListRow>`
    select c.*,
      case when m.user_id is null then 0 else (
        select count(*) from ${messages} x
        where x.chat_id = c.id and x.revision > m.read_revision
          and x.sender_id is distinct from ${userId} and not x.is_deleted
      ) end as unread_count
    from ${chats} c
    left join ${members} m on m.chat_id = c.id and m.user_id = ${userId}
    where (m.user_id is not null or c.type = 'public')
      ${chatId === null ? sql`` : sql`and c.id = ${chatId}`}
    order by c.last_activity_at desc, c.id`.execute(db);
  return rows;
}

function chatUserIds(rows: readonly ChatListRow[]): string[] {
  return rows.flatMap((r) => [...r.participants, ...r.admins, r.created_by, r.last_message_sender_id ?? '']);
}

export async function listChatsFor(db: Kysely<ReadModelDb>, userId: string): Promise<ChatDto[]> {
  const rows = await selectChats(db, userId, null);
  const dir = await directory(db, chatUserIds(rows));
  return rows.map((row) => toChatDto(row, dir));
}

/** The chat, or null when it does not exist for the user (deleted, or private to others). */
export async function findChatFor(db: Kysely<ReadModelDb>, chatId: string, userId: string): Promise<ChatDto | null> {
  const [row] = await selectChats(db, userId, chatId);
  if (!row) return null;
  return toChatDto(row, await directory(db, chatUserIds([row])));
}

type MessageRow = Selectable<ChatMessagesTable>;

async function toMessageDtos(db: Kysely<ReadModelDb>, rows: readonly MessageRow[]): Promise<MessageDto[]> {
  const replyIds = [...new Set(rows.map((r) => r.reply_to).filter((id): id is string => !!id))];
  const replies = new Map<string, MessageRow>();
  if (replyIds.length > 0) {
    const found = await from(db)
      .selectFrom('chat_messages')
      .selectAll()
      .where('id', '=', sql<string>`any(${replyIds}::text[])`)
      .execute();
    for (const r of found) replies.set(r.id, r);
  }
  const dir = await directory(
    db,
    [...rows, ...replies.values()].map((r) => r.sender_id),
  );
  const content = (r: MessageRow) => (r.is_deleted ? chatMessages.deletedMessage : r.content);
  return rows.map((r) => {
    const replied = r.reply_to ? replies.get(r.reply_to) : undefined;
    const replyTo: RepliedMessageDto | null = replied
      ? {
          _id: replied.id,
          content: content(replied),
          sender: senderRef(dir, replied.sender_id, replied.is_ai),
          isDeleted: replied.is_deleted,
          isAIMessage: replied.is_ai,
          createdAt: iso(replied.created_at),
        }
      : null;
    return {
      _id: r.id,
      chat: r.chat_id,
      sender: r.is_ai || !r.sender_id ? aiAssistantSender : userDto(dir, r.sender_id),
      content: content(r),
      attachments: r.is_deleted ? [] : r.attachments,
      mentions: r.mentions,
      replyTo,
      isDeleted: r.is_deleted,
      isAIMessage: r.is_ai,
      createdAt: iso(r.created_at),
    };
  });
}

/**
 * Page 1 is the newest `pageSize` messages; each page is oldest first inside;
 * `hasMore` is true only when older messages exist beyond this page.
 */
export async function listMessages(
  db: Kysely<ReadModelDb>,
  chatId: string,
  page: number,
  pageSize: number = chatLimits.pageSize,
): Promise<{ messages: MessageDto[]; page: number; hasMore: boolean }> {
  const rows = await from(db)
    .selectFrom('chat_messages')
    .selectAll()
    .where('chat_id', '=', chatId)
    .orderBy('revision', 'desc')
    .offset((page - 1) * pageSize)
    .limit(pageSize + 1)
    .execute();
  const hasMore = rows.length > pageSize;
  const pageRows = rows.slice(0, pageSize).reverse();
  return { messages: await toMessageDtos(db, pageRows), page, hasMore };
}

export async function findMessage(
  db: Kysely<ReadModelDb>,
  chatId: string,
  messageId: string,
): Promise<MessageDto | null> {
  const rows = await from(db)
    .selectFrom('chat_messages')
    .selectAll()
    .where('id', '=', messageId)
    .where('chat_id', '=', chatId)
    .execute();
  if (rows.length === 0) return null;
  const [dto] = await toMessageDtos(db, rows);
  return dto ?? null;
}

/** Everyone, for the chat pickers: `[{ _id, name }]`. */
export async function listChatUsers(db: Kysely<ReadModelDb>): Promise<{ _id: string; name: string }[]> {
  const rows = await listUserNames(db);
  return rows.map((r) => ({ _id: r.id, name: r.name }));
}
