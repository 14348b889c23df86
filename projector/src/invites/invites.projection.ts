import type { InviteCodeMintedData, InviteCodeRevokedData, UserRegisteredData } from '@bugtrail/domain';
import type { RecordedEvent } from '@bugtrail/eventstore';
import { type Kysely, sql } from 'kysely';
import type { Projection } from '../runtime/projection.js';
import type { ReadModelDb } from '../schema.js';

/** The live topic of the invite codes list: only admins hear it. */
export const inviteCodesTopic = 'invite-codes';

/**
 * Admin invite codes (`GET /api/auth/invite-codes`): minted and revoked by admins, used by
 * the admin signup that names the code in its `UserRegistered` (`inviteCodeId`).
 */
export const invitesProjection: Projection = {
  name: 'invites',
  version: 1,
  tables: ['invite_codes'],

  async createTables(db: Kysely<ReadModelDb>, schema: string) {
    await sql`create table ${sql.id(schema, 'invite_codes')} (
      id text primary key,
      created_by text,
      created_at timestamptz not null,
      expires_at timestamptz not null,
      used_at timestamptz,
      revoked_at timestamptz
    )`.execute(db);
  },

  async apply(events: readonly RecordedEvent[], { db, schema, topics }) {
    for (const event of events) {
      if (event.type === 'InviteCodeMinted') {
        const d = event.data as InviteCodeMintedData;
        await db
          .withSchema(schema)
          .insertInto('invite_codes')
          .values({
            id: d.codeId,
            created_by: event.metadata.actorId,
            created_at: event.metadata.occurredAt,
            expires_at: d.expiresAt,
          })
          .onConflict((oc) => oc.column('id').doNothing())
          .execute();
      } else if (event.type === 'InviteCodeRevoked') {
        const d = event.data as InviteCodeRevokedData;
        await db
          .withSchema(schema)
          .updateTable('invite_codes')
          .set({ revoked_at: event.metadata.occurredAt })
          .where('id', '=', d.codeId)
          .execute();
      } else if (event.type === 'UserRegistered') {
        const codeId = (event.data as UserRegisteredData).inviteCodeId;
        if (!codeId) continue;
        await db
          .withSchema(schema)
          .updateTable('invite_codes')
          .set({ used_at: event.metadata.occurredAt })
          .where('id', '=', codeId)
          .execute();
      } else {
        continue;
      }
      topics.add(inviteCodesTopic);
    }
  },
};
