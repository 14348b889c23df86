import { type Kysely, type Selectable, sql } from 'kysely';
import { READ_MODEL_SCHEMA } from '../runtime/projection.js';
import type { ReadModelDb } from '../schema.js';
import type { UsersTable } from './users.tables.js';

/**
 * The queries read-api (and the other read models' queries, for names) run on the
 * users read model.
 */

export type UserRow = Selectable<UsersTable>;
/** What an answer needs to show someone: the name and the picture. */
export type UserNameRow = Pick<UserRow, 'id' | 'name' | 'profile_image_url'>;

const users = (db: Kysely<ReadModelDb>) => db.withSchema(READ_MODEL_SCHEMA).selectFrom('users');

export async function findUser(db: Kysely<ReadModelDb>, id: string): Promise<UserRow | undefined> {
  return users(db).selectAll().where('id', '=', id).executeTakeFirst();
}

/** Everyone, by name (the team list and the directory). */
export async function listUsers(db: Kysely<ReadModelDb>): Promise<UserRow[]> {
  return users(db).selectAll().orderBy('name').execute();
}

/** The developers, by name (the assign pickers). */
export async function listDevelopers(db: Kysely<ReadModelDb>): Promise<UserRow[]> {
  return users(db).selectAll().where('role', '=', 'developer').orderBy('name').orderBy('id').execute();
}

/** One keyset page of users by id (exports): every page is an index range, at any size. */
export async function listUsersPage(
  db: Kysely<ReadModelDb>,
  after: string | null,
  limit: number,
): Promise<Pick<UserRow, 'id' | 'name' | 'email' | 'role'>[]> {
  let query = users(db).select(['id', 'name', 'email', 'role']).orderBy('id').limit(limit);
  if (after !== null) query = query.where('id', '>', after);
  return query.execute();
}

/** Names and pictures of the given users (unknown ids are left out). */
export async function findUserNames(db: Kysely<ReadModelDb>, ids: Iterable<string>): Promise<UserNameRow[]> {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return [];
  return users(db)
    .select(['id', 'name', 'profile_image_url'])
    .where('id', '=', sql<string>`any(${wanted}::text[])`)
    .execute();
}

/** Everyone's id and name, by name then id (the chat pickers). */
export async function listUserNames(db: Kysely<ReadModelDb>): Promise<Pick<UserRow, 'id' | 'name'>[]> {
  return users(db).select(['id', 'name']).orderBy('name').orderBy('id').execute();
}

export async function countUsers(db: Kysely<ReadModelDb>): Promise<number> {
  const row = await users(db).select(sql<number>`count(*)::int`.as('n')).executeTakeFirst();
  return row?.n ?? 0;
}
