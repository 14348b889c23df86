import { type Kysely, sql } from 'kysely';
import { READ_MODEL_SCHEMA } from '../runtime/projection.js';
import type { ReadModelDb } from '../schema.js';

export type LiveInviteCode = {
  id: string;
  createdAt: Date;
  expiresAt: Date;
  createdBy: { id: string; name: string } | null;
  role: string;
};

/** Codes that still open a signup (not used, not revoked, not expired), newest first. */
export async function listLiveInviteCodes(db: Kysely<ReadModelDb>, now: Date): Promise<LiveInviteCode[]> {
  const rows = await db
    .withSchema(READ_MODEL_SCHEMA)
    .selectFrom('invite_codes as c')
    .leftJoin('users as u', 'u.id', 'c.created_by')
    .select(['c.id', 'c.created_at', 'c.expires_at', 'c.created_by', 'c.role', 'u.name'])
    .where('c.used_at', 'is', null)
    .where('c.revoked_at', 'is', null)
    .where('c.expires_at', '>', sql<Date>`${now.toISOString()}::timestamptz`)
    .orderBy('c.created_at', 'desc')
    .orderBy('c.id')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    createdBy: row.created_by ? { id: row.created_by, name: row.name ?? '' } : null,
    role: row.role,
  }));
}

export type SignupPolicy = { mode: 'open' | 'invitation'; updatedAt: Date | null; updatedBy: string | null };

/** Who may sign up: the last admin's choice, or open (the spec's default) when none was made. */
export async function readSignupPolicy(db: Kysely<ReadModelDb>): Promise<SignupPolicy> {
  const row = await db
    .withSchema(READ_MODEL_SCHEMA)
    .selectFrom('signup_policy')
    .select(['mode', 'updated_at', 'updated_by'])
    .executeTakeFirst();
  return {
    mode: row?.mode === 'invitation' ? 'invitation' : 'open',
    updatedAt: row?.updated_at ?? null,
    updatedBy: row?.updated_by ?? null,
  };
}
