import type { ColumnType } from 'kysely';

/** The discussion under each bug, one row per comment (a deleted one keeps its row, emptied). */
export interface BugCommentsTable {
  bug_id: string;
  id: string;
  author_id: string;
  body: string;
  mentions: string[];
  created_at: ColumnType<Date, Date | string, Date | string>;
  edited_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  deleted: ColumnType<boolean, boolean | undefined, boolean>;
  /** The event position that added it: the order comments are listed in. */
  position: string;
}
