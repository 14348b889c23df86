import type { Role } from '@bugtrail/domain';
import type { ColumnType } from 'kysely';

/** Everybody's public profile, one row per user. Times are read as Dates, written as ISO strings. */
export interface UsersTable {
  id: string;
  name: string;
  email: string;
  role: Role;
  profile_image_url: string | null;
  deactivated: ColumnType<boolean, boolean | undefined, boolean>;
  email_preference: ColumnType<
    'immediate' | 'daily' | 'off',
    'immediate' | 'daily' | 'off' | undefined,
    'immediate' | 'daily' | 'off'
  >;
  created_at: ColumnType<Date, Date | string, Date | string>;
  updated_at: ColumnType<Date, Date | string, Date | string>;
}
