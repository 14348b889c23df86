import { type Insertable, type Kysely, sql } from 'kysely';
import { defineProjection } from '../runtime/handlers.js';
import type { ReadModelDb } from '../schema.js';
import type { InviteCodesTable, SignupPolicyTable } from './invites.tables.js';

/** What a batch does to the invite codes (in the order of its events) and to the signup policy. */
export type InviteChanges = {
  codes: (
    | { kind: 'mint'; row: Insertable<InviteCodesTable> }
    | { kind: 'revoke'; id: string; at: string }
    | { kind: 'use'; id: string; at: string }
  )[];
  /** The last `SignupPolicySet` of the batch, if any. */
  policy: Omit<Insertable<SignupPolicyTable>, 'id'> | null;
};

/** The live topic of the invite codes list: only admins hear it. */
export const inviteCodesTopic = 'invite-codes';

/**
 * Invite codes (`GET /api/auth/invite-codes`): minted and revoked by admins, used by the
 * signup that names the code in its `UserRegistered` (`inviteCodeId`); and who may sign up
 * (`GET /api/auth/signup-policy`), the last `SignupPolicySet`.
 */
export const invitesProjection = defineProjection({
  name: 'invites',
  version: 2,
  tables: ['invite_codes', 'signup_policy'],

  async createTables(db: Kysely<ReadModelDb>, schema: string) {
    await sql`create table ${sql.id(schema, 'invite_codes')} (
      id text primary key,
      created_by text,
      created_at timestamptz not null,
      expires_at timestamptz not null,
      used_at timestamptz,
      revoked_at timestamptz,
      role text not null default 'admin'
    )`.execute(db);
    // One row once an admin has chosen (none: the spec's default, open).
    await sql`create table ${sql.id(schema, 'signup_policy')} (
      id boolean primary key default true check (id),
      mode text not null,
      updated_by text,
      updated_at timestamptz not null
    )`.execute(db);
  },

  begin: (): InviteChanges => ({ codes: [], policy: null }),
  on: {
    InviteCodeMinted(changes, event) {
      const d = event.data;
      changes.codes.push({
        kind: 'mint',
        row: {
          id: d.codeId,
          created_by: event.metadata.actorId,
          created_at: event.metadata.occurredAt,
          expires_at: d.expiresAt,
          role: d.role ?? 'admin',
        },
      });
    },
    InviteCodeRevoked(changes, event) {
      changes.codes.push({ kind: 'revoke', id: event.data.codeId, at: event.metadata.occurredAt });
    },
    // The signup that names a code uses it up.
    UserRegistered(changes, event) {
      const codeId = event.data.inviteCodeId;
      if (codeId) changes.codes.push({ kind: 'use', id: codeId, at: event.metadata.occurredAt });
    },
    SignupPolicySet(changes, event) {
      changes.policy = {
        mode: event.data.mode,
        updated_by: event.metadata.actorId,
        updated_at: event.metadata.occurredAt,
      };
    },
  },

  async write(changes, { db, schema, topics }) {
    const table = db.withSchema(schema);
    for (const code of changes.codes) {
      if (code.kind === 'mint') {
        await table
          .insertInto('invite_codes')
          .values(code.row)
          .onConflict((oc) => oc.column('id').doNothing())
          .execute();
      } else {
        await table
          .updateTable('invite_codes')
          .set(code.kind === 'revoke' ? { revoked_at: code.at } : { used_at: code.at })
          .where('id', '=', code.id)
          .execute();
      }
    }
    if (changes.codes.length > 0) topics.add(inviteCodesTopic);
    const policy = changes.policy;
    if (policy) {
      await table
        .insertInto('signup_policy')
        .values({ id: true, ...policy })
        .onConflict((oc) => oc.column('id').doUpdateSet(policy))
        .execute();
    }
  },
});
