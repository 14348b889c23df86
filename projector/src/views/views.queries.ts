import type { Kysely, Selectable } from 'kysely';
import { READ_MODEL_SCHEMA } from '../runtime/projection.js';
import type { ReadModelDb } from '../schema.js';
import type { SavedViewsTable } from './views.tables.js';

export type SavedViewRow = Selectable<SavedViewsTable>;

/** One user's saved views, in the order they saved them (newest last). */
export async function listSavedViews(db: Kysely<ReadModelDb>, userId: string): Promise<SavedViewRow[]> {
  return db
    .withSchema(READ_MODEL_SCHEMA)
    .selectFrom('saved_views')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('position')
    .execute();
}
