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
}
