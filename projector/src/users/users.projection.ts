import type {
  NotificationPreferencesChangedData,
  ProfileUpdatedData,
  UserRegisteredData,
  UserRoleChangedData,
} from '@bugtrail/domain';

import type { RecordedEvent } from '@bugtrail/eventstore';
import { type Insertable, type Kysely, sql } from 'kysely';
import { chunks } from '../runtime/chunks.js';
import type { Projection } from '../runtime/projection.js';
import type { ReadModelDb } from '../schema.js';
import type { UsersTable } from './users.tables.js';

/** A row as stored or as the batch folds it (times from events are ISO strings). */
type UserRow = Insertable<UsersTable>;

const USER_EVENTS = new Set([
  'UserRegistered',
  'ProfileUpdated',
  'UserRoleChanged',
  'UserDeactivated',
  'UserReactivated',
  'NotificationPreferencesChanged',
]);

/**
 * Everybody's public profile: the team list, chat pickers, names on bugs. Version 2: who is
 * deactivated (they stay listed, marked).
 */
export const usersProjection: Projection = {
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

  async apply(events: readonly RecordedEvent[], { db, schema, topics }) {
    const relevant = events.filter((e) => USER_EVENTS.has(e.type));
    if (relevant.length === 0) return;
    // Fold the batch in memory over the rows it touches, then write each row once.
    const touched = new Map<string, UserRow>();
    const missing = new Set<string>();
    for (const event of relevant) {
      const id = (event.data as { userId: string }).userId;
      if (event.type !== 'UserRegistered' && !touched.has(id)) missing.add(id);
    }
    if (missing.size > 0) {
      const rows = await db
        .withSchema(schema)
        .selectFrom('users')
        .selectAll()
        .where('id', 'in', [...missing])
        .execute();
      for (const row of rows) touched.set(row.id, row);
    }
    for (const event of relevant) {
      if (event.type === 'UserRegistered') {
        const d = event.data as UserRegisteredData;
        touched.set(d.userId, {
          id: d.userId,
          name: d.name,
          email: d.email,
          role: d.role,
          profile_image_url: d.profileImageURL,
          deactivated: false,
          created_at: event.metadata.occurredAt,
          updated_at: event.metadata.occurredAt,
        });
      } else if (event.type === 'UserRoleChanged') {
        const d = event.data as UserRoleChangedData;
        const row = touched.get(d.userId);
        if (!row) continue;
        touched.set(d.userId, { ...row, role: d.to, updated_at: event.metadata.occurredAt });
      } else if (event.type === 'NotificationPreferencesChanged') {
        const d = event.data as NotificationPreferencesChangedData;
        const row = touched.get(d.userId);
        if (!row) continue;
        touched.set(d.userId, { ...row, email_preference: d.email, updated_at: event.metadata.occurredAt });
      } else if (event.type === 'UserDeactivated' || event.type === 'UserReactivated') {
        const { userId } = event.data as { userId: string };
        const row = touched.get(userId);
        if (!row) continue;
        const deactivated = event.type === 'UserDeactivated';
        touched.set(userId, { ...row, deactivated, updated_at: event.metadata.occurredAt });
      } else {
        const d = event.data as ProfileUpdatedData;
        const row = touched.get(d.userId);
        if (!row) continue;
        touched.set(d.userId, {
          ...row,
          name: d.name ?? row.name,
          email: d.email ?? row.email,
          profile_image_url: d.profileImageURL === undefined ? row.profile_image_url : d.profileImageURL,
          updated_at: event.metadata.occurredAt,
        });
      }
      topics.add(`user:${(event.data as { userId: string }).userId}`);
    }
    topics.add('users');
    for (const rows of chunks([...touched.values()])) {
      await db
        .withSchema(schema)
        .insertInto('users')
        .values(rows)
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
};
