import type {
  AutomationCondition,
  BugDto,
  BugScope,
  BugStatus,
  FieldDef,
  FieldValues,
  Priority,
  Severity,
  WorkEntry,
  WorkflowState,
} from '@bugtrail/domain';
import type { ColumnType, Generated } from 'kysely';

/** One row per bug (deleted ones too, flagged): list filters, sort keys and the answer itself. */
export interface BugsTable {
  id: string;
  /** The bug's short name (#42); null only until the write side's backfill numbers an old bug. */
  number: number | null;
  /** Its project now (bug-project.ts). */
  project_id: string;
  reporter_id: string;
  assignee_ids: string[];
  /** Everyone whose name the DTO shows (reporter, assignees, checklist completers). */
  people: string[];
  status: BugStatus;
  priority: Priority;
  severity: Severity;
  created_at: ColumnType<Date, string, string>;
  updated_at: ColumnType<Date, string, string>;
  deleted: boolean;
  /** Archived (archive.ts): out of lists and counters until restored or reopened. */
  archived: boolean;
  /** Every label its events put on, deleted ones too (its answer shows the others; a filter names only those that exist). */
  label_ids: string[];
  /** Its place in its board column (`collate "C"`), as its answer says. */
  rank: string;
  /** The bug it is a sub-bug of. */
  parent_id: string | null;
  /** The milestone it is planned into. */
  milestone_id: string | null;
  /** The stream revision of the bug's last event. */
  revision: number;
  /** toBugDto's answer, names included: what every list and detail returns (and the
   * domain state the next batch folds on, see stateFromRow). */
  dto: BugDto;
  /** Where each file's bytes are in the blob store, by file id (never answered); null without files. */
  file_keys: FileKeys | null;
  /** Its custom field values by field id (option ids for selects), never answered as such; null without any. */
  field_values: FieldValues | null;
  /** The workflow state it chose (null: its status's first); its answer's `state` is the one it is in. */
  state_id: string | null;
  /** Its worklog entries (its answer says their total); null without any. */
  worklog: WorkEntry[] | null;
  /** The SLA policy that holds for it (its answer's `sla`), and when it is breached, at risk, has a breach to tell (bug-sla.ts). */
  sla_policy_id: string | null;
  sla_breached_at: ColumnType<Date, string | null, string | null> | null;
  sla_risk_at: ColumnType<Date, string | null, string | null> | null;
  sla_tell_at: ColumnType<Date, string | null, string | null> | null;
  /** The breaches told (`BugSlaBreached`), by key (`<policy>:<target>:<due>`); null: none. */
  sla_told: string[] | null;
  search: Generated<string>;
}

/** A bug's files' blob keys by file id. */
export type FileKeys = Record<string, string>;

/**
 * Counts of live (not deleted, not archived) bugs per scope × dimension × value, kept by deltas.
 * scope: `*` (everyone), `project:{id}`, `reporter:{id}`, `assignee:{id}`; dim: status | severity | priority.
 */
export interface BugCountersTable {
  scope: string;
  /** `field`: a select option's bugs by status in a project's scope, value `<field id>/<option id>/<status>`. */
  dim: 'status' | 'severity' | 'priority' | 'field';
  value: string;
  n: number;
}

/** A bug's place in lists sorted by one of its project's live fields (projects/field-sort.ts). */
export interface BugFieldSortTable {
  bug_id: string;
  field_id: string;
  sort_key: string;
}

/** The names and images bug answers show, kept by this projection so a rebuild needs nothing else. */
export interface BugUsersTable {
  id: string;
  name: string;
  profile_image_url: string | null;
}

/** Each relation both ways: `type` as `bug_id` names it (blocks, blocked_by, duplicate_of, duplicated_by, relates_to). */
export interface BugLinksTable {
  bug_id: string;
  other_id: string;
  type: string;
}

/** Every label (deleted ones flagged): `GET /api/labels`, and the names and colours bug answers show. */
export interface LabelsTable {
  id: string;
  name: string;
  color: string;
  description: string;
  deleted: boolean;
  created_at: ColumnType<Date, string, string>;
}

/** Each project's key and name as bug answers show them, kept by this projection so a rebuild needs nothing else. */
export interface BugProjectsTable {
  id: string;
  key: string;
  name: string;
  /** Its custom fields, removed ones flagged (fields.ts): bug answers show values by key and option name. */
  fields: ColumnType<FieldDef[], string | undefined, string>;
  /** Its workflow states, empty for the defaults (states.ts). */
  states: ColumnType<WorkflowState[], string | undefined, string>;
}

/** Every SLA policy (deleted ones flagged): `GET /api/sla`, and the policy each bug meets. */
export interface SlaPoliciesTable {
  id: string;
  project_id: string | null;
  name: string;
  conditions: ColumnType<AutomationCondition[], string, string>;
  respond_seconds: number | null;
  resolve_seconds: number | null;
  created_at: string;
  since: string;
  deleted: boolean;
}

/** Every place a bug has had: (project, number) names it for good (`WEB-7` after a move or a new key too). */
export interface BugKeysTable {
  project_id: string;
  number: number;
  bug_id: string;
}

/** The domain's scope of bugs (bug-visibility.ts), which the counters are kept per. */
export type { BugScope };

export const scopeKey = (scope: BugScope): string => (scope.kind === 'all' ? '*' : `${scope.kind}:${scope.id}`);
