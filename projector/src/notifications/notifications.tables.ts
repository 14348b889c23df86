import type { ColumnType, Generated } from 'kysely';

type Time = ColumnType<Date, Date | string, Date | string>;

/** What notifications need to know of a bug, as of the events folded so far (a rebuild sees the past right). */
export interface NotificationBugsTable {
  id: string;
  number: number | null;
  title: string;
  reporter_id: string;
  assignee_ids: string[];
  deleted: boolean;
  /** The project the bug is in (issue 35): its notifications' live topics name it. */
  project_id: string;
  /** Its status (issue 36): a closed blocker unblocks a bug once every other blocker is closed too. */
  status: Generated<string>;
  /** Who follows it besides its reporter and assignees: the reporters of its duplicates (issue 36). */
  watcher_ids: Generated<string[]>;
}

/** Which bug blocks which (issue 36), as of the events folded so far. */
export interface NotificationBlocksTable {
  blocker_id: string;
  blocked_id: string;
}

/** Chat names, for "mentioned you in …". */
export interface NotificationChatsTable {
  id: string;
  name: string;
}

/** How each person wants notifications mailed (immediate, daily, off). */
export interface NotificationPrefsTable {
  user_id: string;
  email: string;
}

/** One notification for one person (`{eventId}:{userId}`: made once per person per event). */
export interface NotificationsTable {
  id: string;
  user_id: string;
  kind: string;
  text: string;
  bug_id: string | null;
  chat_id: string | null;
  actor_id: string | null;
  created_at: Time;
  read_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** How it is to be mailed, as its person wanted when it was made: immediate, daily or off. */
  mail: string;
  position: string;
}
