import { type Kysely, sql } from 'kysely';
import { READ_MODEL_SCHEMA } from '../runtime/projection.js';
import type { ReadModelDb } from '../schema.js';

export type LiveInviteCode = {
  id: string;
  createdAt: Date;
  expiresAt: Date;
  createdBy: { id: string; name: string } | null;
};

/** Codes that still open an admin signup (not used, not revoked, not expired), newest first. */
export async function listLiveInviteCodes(db: Kysely<ReadModelDb>, now: Date): Promise<LiveInviteCode[]> {
  const rows = await db
    .withSchema(READ_MODEL_SCHEMA)
    .selectFrom('invite_codes as c')
    .leftJoin('users as u', 'u.id', 'c.created_by')
    .select(['c.id', 'c.created_at', 'c.expires_at', 'c.created_by', 'u.name'])
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
  }));
}
