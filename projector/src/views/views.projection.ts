import type { ViewDeletedData, ViewSavedData } from '@bugtrail/domain';
import type { RecordedEvent } from '@bugtrail/eventstore';
import { type Insertable, type Kysely, sql } from 'kysely';
import { chunks } from '../runtime/chunks.js';
import type { Projection } from '../runtime/projection.js';
import type { ReadModelDb } from '../schema.js';
import type { SavedViewsTable } from './views.tables.js';

type SavedViewRow = Insertable<SavedViewsTable>;

/** The live topic of one user's saved views: read-api lets only that user hear it. */
export const savedViewsTopic = (userId: string) => `views:${userId}`;

/** Each user's saved views (`GET /api/views`), from `ViewSaved` and `ViewDeleted`. */
export const viewsProjection: Projection = {
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

  async apply(events: readonly RecordedEvent[], { db, schema, topics }) {
    // Fold the batch in memory: the last word on each view wins (null = deleted).
    const touched = new Map<string, { userId: string; id: string; row: SavedViewRow | null }>();
    for (const event of events) {
      if (event.type === 'ViewSaved') {
        const d = event.data as ViewSavedData;
        const row: SavedViewRow = {
          user_id: d.userId,
          id: d.viewId,
          name: d.name,
          path: d.path,
          query: d.query,
          created_at: event.metadata.occurredAt,
          position: event.position,
        };
        touched.set(`${d.userId}\u0000${d.viewId}`, { userId: d.userId, id: d.viewId, row });
      } else if (event.type === 'ViewDeleted') {
        const d = event.data as ViewDeletedData;
        touched.set(`${d.userId}\u0000${d.viewId}`, { userId: d.userId, id: d.viewId, row: null });
      } else {
        continue;
      }
      topics.add(savedViewsTopic((event.data as { userId: string }).userId));
    }
    if (touched.size === 0) return;
    const kept = [...touched.values()].flatMap((t) => (t.row ? [t.row] : []));
    const gone = [...touched.values()].filter((t) => t.row === null);
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
};
