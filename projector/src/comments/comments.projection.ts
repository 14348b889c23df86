import type { CommentAddedData, CommentDeletedData, CommentEditedData } from '@bugtrail/domain';
import type { RecordedEvent } from '@bugtrail/eventstore';
import { type Kysely, sql } from 'kysely';
import { type Projection, READ_MODEL_SCHEMA } from '../runtime/projection.js';
import type { ReadModelDb } from '../schema.js';

/**
 * Comments on bugs (`GET /api/bugs/{id}/comments`), from the comment events of the bugs'
 * streams. Each change names the bug's live topic with the bug's audience (its reporter and
 * assignees as the bugs read model has them), so those who see the bug hear it.
 */
export const commentsProjection: Projection = {
  name: 'comments',
  version: 1,
  tables: ['bug_comments'],

  async createTables(db: Kysely<ReadModelDb>, schema: string) {
    await sql`create table ${sql.id(schema, 'bug_comments')} (
      bug_id text not null,
      id text not null,
      author_id text not null,
      body text not null,
      mentions text[] not null,
      created_at timestamptz not null,
      edited_at timestamptz,
      deleted boolean not null default false,
      position text collate "C" not null,
      primary key (bug_id, id)
    )`.execute(db);
  },

  async apply(events: readonly RecordedEvent[], { db, schema, topics }) {
    const touchedBugs = new Set<string>();
    for (const event of events) {
      if (event.type === 'CommentAdded') {
        const d = event.data as CommentAddedData;
        await db
          .withSchema(schema)
          .insertInto('bug_comments')
          .values({
            bug_id: d.bugId,
            id: d.commentId,
            author_id: event.metadata.actorId ?? '',
            body: d.body,
            mentions: [...d.mentions],
            created_at: event.metadata.occurredAt,
            position: event.position,
          })
          .onConflict((oc) => oc.columns(['bug_id', 'id']).doNothing())
          .execute();
      } else if (event.type === 'CommentEdited') {
        const d = event.data as CommentEditedData;
        await db
          .withSchema(schema)
          .updateTable('bug_comments')
          .set({ body: d.body, mentions: [...d.mentions], edited_at: event.metadata.occurredAt })
          .where('bug_id', '=', d.bugId)
          .where('id', '=', d.commentId)
          .execute();
      } else if (event.type === 'CommentDeleted') {
        const d = event.data as CommentDeletedData;
        await db
          .withSchema(schema)
          .updateTable('bug_comments')
          .set({ body: '', mentions: [], deleted: true })
          .where('bug_id', '=', d.bugId)
          .where('id', '=', d.commentId)
          .execute();
      } else {
        continue;
      }
      touchedBugs.add((event.data as { bugId: string }).bugId);
    }
    if (touchedBugs.size === 0) return;
    // The audience as the live bugs read model has it (a rebuild writes elsewhere and hears nobody).
    const rows = await db
      .withSchema(READ_MODEL_SCHEMA)
      .selectFrom('bugs')
      .select(['id', 'reporter_id', 'assignee_ids'])
      .where('id', 'in', [...touchedBugs])
      .execute();
    const audiences = new Map(rows.map((row) => [row.id, [row.reporter_id, ...row.assignee_ids]]));
    for (const bugId of touchedBugs) topics.add(`bug:${bugId}|${(audiences.get(bugId) ?? []).join(',')}`);
  },
};
