import type { AutomationState } from '@bugtrail/domain';
import type { ColumnType } from 'kysely';

type Time = ColumnType<Date, Date | string, Date | string>;

/**
 * Automation rules (api.md "Automation rules", issue 38): one row per rule, its stream folded by
 * the domain's `evolveAutomation` (`state`), deleted ones flagged (their run log stays readable).
 */
export interface AutomationsTable {
  id: string;
  project_id: string | null;
  name: string;
  deleted: boolean;
  state: ColumnType<AutomationState, string, string>;
  created_by: string | null;
  created_at: Time;
  updated_at: Time;
  /** The store position of its `AutomationCreated`: the order rules are listed in, the same after every rebuild. */
  position: string;
}

/** What a rule did on one triggering event (`AutomationRan`), newest read first. */
export interface AutomationRunsTable {
  /** The `AutomationRan` event's store position. */
  position: string;
  automation_id: string;
  bug_id: string;
  trigger: string;
  trigger_event_id: string;
  /** When the trigger happened. */
  at: Time;
  outcomes: ColumnType<{ type: string; outcome: 'done' | 'unchanged' | 'failed'; message?: string }[], string, string>;
  failed: boolean;
}
