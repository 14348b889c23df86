import { type Insertable, type Kysely, sql } from 'kysely';
import { chunks } from '../runtime/chunks.js';
import { defineProjection } from '../runtime/handlers.js';
import type { ReadModelDb } from '../schema.js';
import type { SavedViewsTable } from './views.tables.js';

type SavedViewRow = Insertable<SavedViewsTable>;

/** The live topic of one user's saved views: read-api lets only that user hear it. */
export const savedViewsTopic = (userId: string) => `views:${userId}`;

/** A batch's changes: the last word on each view (null = deleted), by user and view. */
export type SavedViewChanges = Map<string, { userId: string; id: string; row: SavedViewRow | null }>;

const viewKey = (userId: string, viewId: string) => `${userId}\u0000${viewId}`;

/** Each user's saved views (`GET /api/views`), from `ViewSaved` and `ViewDeleted`. */
export const viewsProjection = defineProjection({
  name: 'views',
  version: 1,
  tables: ['saved_views'],

  async createTables(db: Kysely<ReadModelDb>, schema: string) {
    await sql`create table ${sql.id(schema, 'saved_views')} (
      user_id text not null,
      id text not null,
      name text not null,
      path text not null,
      query text not null,
      created_at timestamptz not null,
      position text collate "C" not null,
      primary key (user_id, id)
    )`.execute(db);
  },

  begin: (): SavedViewChanges => new Map(),
  on: {
    ViewSaved(changes, event) {
      const d = event.data;
      const row: SavedViewRow = {
        user_id: d.userId,
        id: d.viewId,
        name: d.name,
        path: d.path,
        query: d.query,
        created_at: event.metadata.occurredAt,
        position: event.position,
      };
      changes.set(viewKey(d.userId, d.viewId), { userId: d.userId, id: d.viewId, row });
    },
    ViewDeleted(changes, event) {
      const d = event.data;
      changes.set(viewKey(d.userId, d.viewId), { userId: d.userId, id: d.viewId, row: null });
    },
  },

  async write(changes, { db, schema, topics }) {
    if (changes.size === 0) return;
    for (const { userId } of changes.values()) topics.add(savedViewsTopic(userId));
    const kept = [...changes.values()].flatMap((t) => (t.row ? [t.row] : []));
    const gone = [...changes.values()].filter((t) => t.row === null);
    for (const rows of chunks(kept)) {
      await db
        .withSchema(schema)
        .insertInto('saved_views')
        .values(rows)
        // A view is saved once; a replayed batch writes the same row again.
        .onConflict((oc) =>
          oc.columns(['user_id', 'id']).doUpdateSet((eb) => ({
            name: eb.ref('excluded.name'),
            path: eb.ref('excluded.path'),
            query: eb.ref('excluded.query'),
            created_at: eb.ref('excluded.created_at'),
            position: eb.ref('excluded.position'),
          })),
        )
        .execute();
    }
    for (const batch of chunks(gone)) {
      await db
        .withSchema(schema)
        .deleteFrom('saved_views')
        .where((eb) => eb.or(batch.map((t) => eb.and([eb('user_id', '=', t.userId), eb('id', '=', t.id)]))))
        .execute();
    }
  },
});
