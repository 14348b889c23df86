import { streamCategory } from '@bugtrail/domain';
import { type Selectable, sql, type Transaction } from 'kysely';
import { chunks } from '../runtime/chunks.js';
import { defineProjection, type Recorded } from '../runtime/handlers.js';
import type { ReadModelDb } from '../schema.js';
import {
  type ChatMembersTable,
  type ChatMessagesTable,
  type ChatsTable,
  chatTables,
  createChatTables,
} from './chats.tables.js';

type ChatRow = ChatsTable;
type MessageRow = Selectable<ChatMessagesTable>;
const memberKey = (chatId: string, userId: string) => `${chatId}\u0000${userId}`;
const INSERT_CHUNK = 1000;

/**
 * A batch's changes, folded in memory over the rows it touches by the handlers below, then
 * written once: the chats and members of every chat in the batch are read up front (`load`),
 * messages are inserted in bulk and deletions of older messages become one update.
 */
export class ChatBatch {
  readonly chats = new Map<string, ChatRow>();
  /** chat id → user id → read revision, for the chats in the batch. */
  readonly members = new Map<string, Map<string, number>>();
  /** Rows to write. */
  readonly dirtyChats = new Set<string>();
  /** Chats whose audience hears of the batch (a read marker alone concerns only its reader). */
  readonly announced = new Set<string>();
  readonly memberUpserts = new Map<string, ChatMembersTable>();
  readonly memberDeletes = new Map<string, { chat_id: string; user_id: string }>();
  readonly newMessages = new Map<string, MessageRow>();
  /** Messages from earlier batches deleted in this one. */
  readonly erasedMessages = new Set<string>();
  readonly deletedChats = new Set<string>();
  /** Who could see each chat before or after the batch (`*` for public chats). */
  readonly audiences = new Map<string, Set<string> | '*'>();
  readonly readerTopics = new Set<string>();

  constructor(rows: readonly ChatRow[], memberRows: readonly ChatMembersTable[]) {
    for (const row of rows) {
      this.chats.set(row.id, row);
      this.audience(row, row.participants);
    }
    for (const m of memberRows) this.memberMap(m.chat_id).set(m.user_id, Number(m.read_revision));
  }

  memberMap(chatId: string): Map<string, number> {
    let map = this.members.get(chatId);
    if (!map) this.members.set(chatId, (map = new Map()));
    return map;
  }

  audience(chat: Pick<ChatRow, 'id' | 'type'>, users: readonly string[]): void {
    if (chat.type === 'public') {
      this.audiences.set(chat.id, '*');
      return;
    }
    let set = this.audiences.get(chat.id);
    if (set === '*') return;
    if (!set) this.audiences.set(chat.id, (set = new Set()));
    for (const u of users) set.add(u);
  }

  touch(row: ChatRow, at: string): void {
    row.updated_at = at;
    this.dirtyChats.add(row.id);
    this.announce(row);
  }

  announce(row: ChatRow): void {
    this.announced.add(row.id);
    this.audience(row, row.participants);
  }

  setMember(chatId: string, userId: string, readRevision: number): void {
    this.memberMap(chatId).set(userId, readRevision);
    const key = memberKey(chatId, userId);
    this.memberDeletes.delete(key);
    this.memberUpserts.set(key, { chat_id: chatId, user_id: userId, read_revision: readRevision });
  }

  removeMember(chatId: string, userId: string): void {
    this.members.get(chatId)?.delete(userId);
    const key = memberKey(chatId, userId);
    this.memberUpserts.delete(key);
    this.memberDeletes.set(key, { chat_id: chatId, user_id: userId });
  }

  seeRevision(row: ChatRow, revision: number): void {
    if (revision > Number(row.last_revision)) row.last_revision = revision;
    this.dirtyChats.add(row.id);
  }

  topics(): string[] {
    const list = [...this.readerTopics];
    for (const [chatId, audience] of this.audiences) {
      if (!this.announced.has(chatId) && !this.deletedChats.has(chatId)) continue;
      if (audience === '*') list.push(`chat:${chatId}|*`);
      else if (audience.size > 0) list.push(`chat:${chatId}|${[...audience].sort().join(',')}`);
    }
    return list;
  }
}

async function write(db: Transaction<ReadModelDb>, schema: string, batch: ChatBatch): Promise<void> {
  const q = () => db.withSchema(schema);
  const gone = [...batch.deletedChats];
  if (gone.length > 0) {
    await q().deleteFrom('chat_messages').where('chat_id', 'in', gone).execute();
    await q().deleteFrom('chat_members').where('chat_id', 'in', gone).execute();
    await q().deleteFrom('chats').where('id', 'in', gone).execute();
  }
  const rows = [...batch.dirtyChats].map((id) => batch.chats.get(id)).filter((r): r is ChatRow => r !== undefined);
  for (const slice of chunks(rows)) {
    await q()
      .insertInto('chats')
      .values(slice)
      .onConflict((oc) =>
        oc.column('id').doUpdateSet((eb) => {
          // Every column the rows carry but the chat's identity and creation.
          const columns = (Object.keys(slice[0]!) as (keyof ChatRow)[]).filter(
            (c): c is Exclude<keyof ChatRow, 'id' | 'created_at' | 'created_by'> =>
              c !== 'id' && c !== 'created_at' && c !== 'created_by',
          );
          return Object.fromEntries(columns.map((c) => [c, eb.ref(`excluded.${c}`)]));
        }),
      )
      .execute();
  }
  const removed = [...batch.memberDeletes.values()];
  if (removed.length > 0) {
    await sql`delete from ${sql.id(schema, 'chat_members')} m
      using unnest(${removed.map((r) => r.chat_id)}::text[], ${removed.map((r) => r.user_id)}::text[]) as gone(chat_id, user_id)
      where m.chat_id = gone.chat_id and m.user_id = gone.user_id`.execute(db);
  }
  const upserts = [...batch.memberUpserts.values()];
  for (let i = 0; i < upserts.length; i += INSERT_CHUNK) {
    await q()
      .insertInto('chat_members')
      .values(upserts.slice(i, i + INSERT_CHUNK))
      .onConflict((oc) =>
        oc.columns(['user_id', 'chat_id']).doUpdateSet((eb) => ({ read_revision: eb.ref('excluded.read_revision') })),
      )
      .execute();
  }
  const messages = [...batch.newMessages.values()].map((m) => ({ ...m, attachments: JSON.stringify(m.attachments) }));
  for (let i = 0; i < messages.length; i += INSERT_CHUNK) {
    await q()
      .insertInto('chat_messages')
      .values(messages.slice(i, i + INSERT_CHUNK))
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
  }
  if (batch.erasedMessages.size > 0) {
    // A deleted message keeps its place in the timeline but loses its content.
    await q()
      .updateTable('chat_messages')
      .set({ is_deleted: true, content: '', attachments: JSON.stringify([]) })
      .where('id', 'in', [...batch.erasedMessages])
      .execute();
  }
}

/** A message in the timeline (a person's or the assistant's), and the chat's last message. */
function messagePosted(batch: ChatBatch, event: Recorded<'MessageSent' | 'AiMessagePosted'>): void {
  const at = event.metadata.occurredAt;
  const isAi = event.type === 'AiMessagePosted';
  const d = event.data;
  const row = batch.chats.get(d.chatId);
  if (!row) return;
  const sent = event.type === 'MessageSent' ? event.data : null;
  batch.newMessages.set(d.messageId, {
    id: d.messageId,
    chat_id: d.chatId,
    revision: event.revision,
    sender_id: sent?.senderId ?? null,
    content: d.content,
    attachments: sent?.attachments ?? [],
    mentions: sent?.mentions ?? [],
    reply_to: d.replyTo,
    is_deleted: false,
    is_ai: isAi,
    created_at: at,
  });
  row.last_message_id = d.messageId;
  row.last_message_content = d.content;
  row.last_message_sender_id = sent?.senderId ?? null;
  row.last_message_is_ai = isAi;
  row.last_message_is_deleted = false;
  row.last_message_at = at;
  row.last_activity_at = at;
  batch.seeRevision(row, event.revision);
  batch.announce(row);
}

/** The chat list per user (with unread counts) and each chat's message timeline. */
export const chatsProjection = defineProjection({
  name: 'chats',
  version: 1,
  tables: chatTables,
  createTables: createChatTables,

  // Chat events live in the chats' own streams and their message streams.
  where: (event) => {
    const category = streamCategory(event.streamId);
    return category === 'chat' || category === 'chatmsgs';
  },
  async load(events, { db, schema }) {
    const chatIds = [...new Set(events.map((e) => e.data.chatId))];
    const chats = await db.withSchema(schema).selectFrom('chats').selectAll().where('id', 'in', chatIds).execute();
    const members = await db
      .withSchema(schema)
      .selectFrom('chat_members')
      .selectAll()
      .where('chat_id', 'in', chatIds)
      .execute();
    return { chats, members };
  },
  begin: (stored: { chats: readonly ChatRow[]; members: readonly ChatMembersTable[] }) =>
    new ChatBatch(stored.chats, stored.members),
  on: {
    ChatCreated(batch, event) {
      const at = event.metadata.occurredAt;
      const d = event.data;
      const row: ChatRow = {
        id: d.chatId,
        name: d.name,
        type: d.type,
        participants: [...d.participants],
        admins: [...d.admins],
        ai_enabled: d.aiAssistant.enabled,
        ai_model: d.aiAssistant.model,
        ai_system_prompt: d.aiAssistant.systemPrompt,
        created_by: d.createdBy,
        created_at: d.createdAt,
        updated_at: at,
        last_activity_at: d.createdAt,
        last_revision: -1,
        last_message_id: null,
        last_message_content: null,
        last_message_sender_id: null,
        last_message_is_ai: false,
        last_message_is_deleted: false,
        last_message_at: null,
      };
      batch.chats.set(row.id, row);
      batch.deletedChats.delete(row.id);
      for (const userId of row.participants) batch.setMember(row.id, userId, -1);
      batch.touch(row, at);
    },
    ChatRenamed(batch, event) {
      const at = event.metadata.occurredAt;
      const d = event.data;
      const row = batch.chats.get(d.chatId);
      if (!row) return;
      row.name = d.name;
      batch.touch(row, at);
    },
    ChatMembersChanged(batch, event) {
      const at = event.metadata.occurredAt;
      const d = event.data;
      const row = batch.chats.get(d.chatId);
      if (!row) return;
      // The removed still hear of their removal (ADR 004: before ∪ after).
      batch.audience(row, d.removed);
      row.participants = [...row.participants.filter((p) => !d.removed.includes(p))];
      for (const userId of d.removed) batch.removeMember(row.id, userId);
      for (const userId of d.added) {
        if (row.participants.includes(userId)) continue;
        row.participants.push(userId);
        // A newcomer starts with the history read, not with hundreds of unread messages.
        batch.setMember(row.id, userId, Number(row.last_revision));
      }
      batch.touch(row, at);
    },
    ChatAdminsChanged(batch, event) {
      const at = event.metadata.occurredAt;
      const d = event.data;
      const row = batch.chats.get(d.chatId);
      if (!row) return;
      row.admins = [
        ...row.admins.filter((a) => !d.removed.includes(a)),
        ...d.added.filter((a) => !row.admins.includes(a)),
      ];
      batch.touch(row, at);
    },
    AiAssistantConfigured(batch, event) {
      const at = event.metadata.occurredAt;
      const d = event.data;
      const row = batch.chats.get(d.chatId);
      if (!row) return;
      row.ai_enabled = d.enabled;
      row.ai_model = d.model;
      row.ai_system_prompt = d.systemPrompt;
      batch.touch(row, at);
    },
    ChatDeleted(batch, event) {
      const { chatId } = event.data;
      const row = batch.chats.get(chatId);
      if (row) batch.audience(row, row.participants);
      batch.chats.delete(chatId);
      batch.dirtyChats.delete(chatId);
      batch.members.delete(chatId);
      for (const [key, m] of batch.memberUpserts) if (m.chat_id === chatId) batch.memberUpserts.delete(key);
      for (const [id, m] of batch.newMessages) if (m.chat_id === chatId) batch.newMessages.delete(id);
      batch.deletedChats.add(chatId);
    },
    MessageSent(batch, event) {
      messagePosted(batch, event);
    },
    AiMessagePosted(batch, event) {
      messagePosted(batch, event);
    },
    MessageDeleted(batch, event) {
      const d = event.data;
      const row = batch.chats.get(d.chatId);
      if (!row) return;
      const fresh = batch.newMessages.get(d.messageId);
      if (fresh) Object.assign(fresh, { is_deleted: true, content: '', attachments: [] });
      else batch.erasedMessages.add(d.messageId);
      if (row.last_message_id === d.messageId) {
        row.last_message_is_deleted = true;
        row.last_message_content = '';
      }
      batch.seeRevision(row, event.revision);
      batch.announce(row);
    },
    ChatReadMarked(batch, event) {
      const d = event.data;
      const row = batch.chats.get(d.chatId);
      if (!row) return;
      batch.seeRevision(row, event.revision);
      // How far the reader got (version 2); a version 1 marker: everything before it.
      const through = d.throughRevision ?? event.revision;
      if (batch.members.get(d.chatId)?.has(d.userId)) batch.setMember(d.chatId, d.userId, through);
      // Only the reader's own unread count changed.
      batch.readerTopics.add(`chat:${d.chatId}|${d.userId}`);
    },
  },
  async write(batch, { db, schema, topics }) {
    await write(db, schema, batch);
    for (const topic of batch.topics()) topics.add(topic);
  },
});
