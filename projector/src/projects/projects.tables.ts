import type { FieldDef, WorkflowState } from '@bugtrail/domain';
import type { ColumnType } from 'kysely';

type Time = ColumnType<Date, Date | string, Date | string>;

/** Projects (api.md "Projects"): one row per project, as its stream says now. */
export interface ProjectsTable {
  id: string;
  key: string;
  name: string;
  description: string;
  private: boolean;
  access: string;
  archived: boolean;
  created_at: Time;
  /** The `ProjectCreated` event's store position: the order they were made in, after every rebuild. */
  position: string;
  /** Its custom fields, removed ones flagged (fields.ts). */
  fields: ColumnType<FieldDef[], string | undefined, string>;
  /** Its workflow states in board order; empty: the defaults (states.ts). */
  states: ColumnType<WorkflowState[], string | undefined, string>;
}

/** Who belongs to which project, as a lead or a member. */
export interface ProjectMembersTable {
  project_id: string;
  user_id: string;
  role: string;
}

/** Every key a project has had (its current one too): `WEB-7` keeps naming one bug. */
export interface ProjectKeysTable {
  key: string;
  project_id: string;
}

/** The project a bug reported without one goes to: one row once an admin chose (none: General). */
export interface DefaultProjectTable {
  id: ColumnType<boolean, boolean | undefined, never>;
  project_id: string;
}
