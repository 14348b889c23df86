import type { BugCountersTable, BugsTable, BugUsersTable } from './bugs/bugs.tables.js';
import type { ChatMembersTable, ChatMessagesTable, ChatsTable } from './chats/chats.tables.js';
import type { UsersTable } from './users/users.projection.js';

/** The read-model tables (schema `rm`), as read-api queries them with kysely. */
export interface ReadModelDb {
  users: UsersTable;
  bugs: BugsTable;
  bug_counters: BugCountersTable;
  bug_users: BugUsersTable;
  chats: ChatsTable;
  chat_members: ChatMembersTable;
  chat_messages: ChatMessagesTable;
}
