import { type Insertable, type Kysely, sql } from 'kysely';
import { chunks } from '../runtime/chunks.js';
import { defineProjection } from '../runtime/handlers.js';
import type { ReadModelDb } from '../schema.js';
import type { UsersTable } from './users.tables.js';

/** A row as stored or as the batch folds it (times from events are ISO strings). */
type UserRow = Insertable<UsersTable>;

/**
 * A batch's changes per person: the row a registration in the batch made (else the stored row
 * is read when the batch is written), and the changes after it, in event order.
 */
export type UserChanges = Map<string, { registered: UserRow | null; patches: Partial<UserRow>[] }>;

const patch = (changes: UserChanges, userId: string, change: Partial<UserRow>) => {
  const entry = changes.get(userId) ?? { registered: null, patches: [] };
  entry.patches.push(change);
  changes.set(userId, entry);
};

/**
 * Everybody's public profile: the team list, chat pickers, names on bugs. Version 2: who is
 * deactivated (they stay listed, marked).
 */
export const usersProjection = defineProjection({
  name: 'users',
  version: 2,
  tables: ['users'],

  async createTables(db: Kysely<ReadModelDb>, schema: string) {
    await sql`create table ${sql.id(schema, 'users')} (
      id text primary key,
      name text not null,
      email text not null,
      role text not null,
      profile_image_url text,
      deactivated boolean not null default false,
      email_preference text not null default 'immediate',
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`.execute(db);
    await sql`create index ${sql.id(`${schema}_users_role_name`)} on ${sql.id(schema, 'users')} (role, name)`.execute(
      db,
    );
  },

  begin: (): UserChanges => new Map(),
  on: {
    UserRegistered(changes, event) {
      const d = event.data;
      const at = event.metadata.occurredAt;
      const row: UserRow = {
        id: d.userId,
        name: d.name,
        email: d.email,
        role: d.role,
        profile_image_url: d.profileImageURL,
        deactivated: false,
        created_at: at,
        updated_at: at,
      };
      changes.set(d.userId, { registered: row, patches: [] });
    },
    ProfileUpdated(changes, event) {
      const d = event.data;
      patch(changes, d.userId, {
        ...(d.name === undefined ? {} : { name: d.name }),
        ...(d.email === undefined ? {} : { email: d.email }),
        ...(d.profileImageURL === undefined ? {} : { profile_image_url: d.profileImageURL }),
        updated_at: event.metadata.occurredAt,
      });
    },
    UserRoleChanged(changes, event) {
      patch(changes, event.data.userId, { role: event.data.to, updated_at: event.metadata.occurredAt });
    },
    UserDeactivated(changes, event) {
      patch(changes, event.data.userId, { deactivated: true, updated_at: event.metadata.occurredAt });
    },
    UserReactivated(changes, event) {
      patch(changes, event.data.userId, { deactivated: false, updated_at: event.metadata.occurredAt });
    },
    NotificationPreferencesChanged(changes, event) {
      patch(changes, event.data.userId, { email_preference: event.data.email, updated_at: event.metadata.occurredAt });
    },
  },

  async write(changes, { db, schema, topics }) {
    if (changes.size === 0) return;
    // Write each row once: the stored rows of people the batch changes but did not register.
    const stored = new Map<string, UserRow>();
    const unread = [...changes].filter(([, c]) => !c.registered).map(([id]) => id);
    if (unread.length > 0) {
      const rows = await db.withSchema(schema).selectFrom('users').selectAll().where('id', 'in', unread).execute();
      for (const row of rows) stored.set(row.id, row);
    }
    const rows: UserRow[] = [];
    for (const [id, { registered, patches }] of changes) {
      const base = registered ?? stored.get(id);
      if (!base) continue; // a change to someone never registered: nothing to show
      const row: UserRow = Object.assign({}, base, ...patches);
      rows.push(row);
      topics.add(`user:${id}`);
    }
    topics.add('users');
    for (const batch of chunks(rows)) {
      await db
        .withSchema(schema)
        .insertInto('users')
        .values(batch)
        .onConflict((oc) =>
          oc.column('id').doUpdateSet((eb) => ({
            name: eb.ref('excluded.name'),
            email: eb.ref('excluded.email'),
            role: eb.ref('excluded.role'),
            profile_image_url: eb.ref('excluded.profile_image_url'),
            deactivated: eb.ref('excluded.deactivated'),
            email_preference: eb.ref('excluded.email_preference'),
            updated_at: eb.ref('excluded.updated_at'),
          })),
        )
        .execute();
    }
  },
});
