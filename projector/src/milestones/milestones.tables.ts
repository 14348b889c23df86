import type { ColumnType } from 'kysely';

/** One row per milestone, deleted ones flagged. */
export interface MilestonesTable {
  id: string;
  project_id: string;
  name: string;
  description: string;
  start_date: string | null;
  due_date: string | null;
  closed_at: ColumnType<Date | null, string | null, string | null>;
  deleted: boolean;
  created_at: ColumnType<Date, string, string>;
}
