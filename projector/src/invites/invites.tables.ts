import type { ColumnType } from 'kysely';

type Time = ColumnType<Date, Date | string, Date | string>;
type MaybeTime = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

/** Admin invite codes an admin minted (never the code: only who, when, until when, and what became of it). */
export interface InviteCodesTable {
  id: string;
  created_by: string | null;
  created_at: Time;
  expires_at: Time;
  used_at: MaybeTime;
  revoked_at: MaybeTime;
  /** Whom the code signs up: 'admin', or an invited 'tester' or 'developer'. */
  role: ColumnType<string, string | undefined, string>;
}

/** Who may sign up: one row once an admin chose (issue 40). */
export interface SignupPolicyTable {
  id: ColumnType<boolean, boolean | undefined, never>;
  mode: string;
  updated_by: string | null;
  updated_at: Time;
}
