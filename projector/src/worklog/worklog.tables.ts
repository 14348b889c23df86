import type { ColumnType } from 'kysely';

/** Every worklog entry (api.md "time", issue 37), deleted ones flagged: timesheets and their exports. */
export interface WorklogTable {
  entry_id: string;
  bug_id: string;
  user_id: string;
  minutes: number;
  /** The day the work was done. */
  on: ColumnType<string, string, string>;
  note: string;
  logged_at: ColumnType<Date, string, string>;
  deleted: boolean;
}
