import type { BugState } from '@bugtrail/domain';
import type { ColumnType } from 'kysely';

type Time = ColumnType<Date, string, string>;

/** One row per bug this projection has seen: when it lived, and the state the next batch folds on. */
export interface FlowBugsTable {
  bug_id: string;
  reporter_id: string;
  created_at: Time;
  /** When it was deleted (null while it lives). */
  deleted_at: ColumnType<Date | null, string | null, string | null>;
  revision: number;
  state: BugState;
}

/** The fields whose every stay is kept: what flow metrics and `?asOf=` answers group and count by. */
export const INTERVAL_FIELDS = [
  'status',
  'severity',
  'priority',
  'module',
  'assignee',
  'project',
  'milestone',
  'state',
] as const;
export type IntervalField = (typeof INTERVAL_FIELDS)[number];

/**
 * Each stay of a bug's field in one value: entered at an event, left at a later one (null
 * while it lasts). `assignee` has one row per developer's stay; `module` may stay in null.
 */
export interface BugIntervalsTable {
  bug_id: string;
  field: IntervalField;
  value: string | null;
  entered_at: Time;
  /** Who made the event that entered it (the reporter for a report). */
  entered_by: string | null;
  /** The bug stream's revision of that event. */
  entered_revision: number;
  left_at: ColumnType<Date | null, string | null, string | null>;
}

/** Every bug event, what it changed field by field (ids, not names): `analytics.bug_events`. */
export interface BugChangesTable {
  position: string;
  bug_id: string;
  revision: number;
  type: string;
  actor_id: string | null;
  occurred_at: Time;
  changes: ColumnType<unknown, string, string>;
}
