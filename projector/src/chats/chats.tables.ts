import type { Attachment, ChatType } from '@bugtrail/domain';
import { type ColumnType, type Kysely, sql } from 'kysely';
import type { ReadModelDb } from '../schema.js';

/** One row per live chat; deleted chats have no row. */
export interface ChatsTable {
  id: string;
  name: string;
  type: ChatType;
  participants: string[];
  admins: string[];
  ai_enabled: boolean;
  ai_model: string;
  ai_system_prompt: string;
  created_by: string;
  created_at: Date | string;
  updated_at: Date | string;
  /** Creation or the newest message: what the chat list sorts by. */
  last_activity_at: Date | string;
  /** The newest revision of `chatmsgs-{id}` seen: where a new member's reading starts. */
  last_revision: string | number;
  last_message_id: string | null;
  last_message_content: string | null;
  last_message_sender_id: string | null;
  last_message_is_ai: boolean;
  last_message_is_deleted: boolean;
  last_message_at: Date | string | null;
}

/** A participant's read position: messages after it, from others, are unread. */
export interface ChatMembersTable {
  chat_id: string;
  user_id: string;
  read_revision: string | number;
}

/** The timeline, ordered by the message's revision in `chatmsgs-{id}`. */
export interface ChatMessagesTable {
  id: string;
  chat_id: string;
  revision: string | number;
  sender_id: string | null;
  content: string;
  /** jsonb: read as the array, written as its JSON text. */
  attachments: ColumnType<Attachment[], string, string>;
  mentions: string[];
  reply_to: string | null;
  is_deleted: boolean;
  is_ai: boolean;
  created_at: Date | string;
}

export const chatTables = ['chats', 'chat_members', 'chat_messages'] as const;

export async function createChatTables(db: Kysely<ReadModelDb>, schema: string): Promise<void> {
  const t = (name: string) => sql.id(schema, name);
  const ix = (name: string) => sql.id(`${schema}_${name}`);
  await sql`create table ${t('chats')} (
    id text primary key,
    name text not null,
    type text not null,
    participants text[] not null,
    admins text[] not null,
    ai_enabled boolean not null,
    ai_model text not null,
    ai_system_prompt text not null,
    created_by text not null,
    created_at timestamptz not null,
    updated_at timestamptz not null,
    last_activity_at timestamptz not null,
    last_revision bigint not null default -1,
    last_message_id text,
    last_message_content text,
    last_message_sender_id text,
    last_message_is_ai boolean not null default false,
    last_message_is_deleted boolean not null default false,
    last_message_at timestamptz
  )`.execute(db);
  await sql`create index ${ix('chats_public')} on ${t('chats')} (last_activity_at desc) where type = 'public'`.execute(
    db,
  );
  await sql`create table ${t('chat_members')} (
    chat_id text not null,
    user_id text not null,
    read_revision bigint not null,
    primary key (user_id, chat_id)
  )`.execute(db);
  await sql`create index ${ix('chat_members_chat')} on ${t('chat_members')} (chat_id)`.execute(db);
  await sql`create table ${t('chat_messages')} (
    id text primary key,
    chat_id text not null,
    revision bigint not null,
    sender_id text,
    content text not null,
    attachments jsonb not null,
    mentions text[] not null,
    reply_to text,
    is_deleted boolean not null,
    is_ai boolean not null,
    created_at timestamptz not null
  )`.execute(db);
  await sql`create unique index ${ix('chat_messages_timeline')} on ${t('chat_messages')} (chat_id, revision desc)`.execute(
    db,
  );
}
