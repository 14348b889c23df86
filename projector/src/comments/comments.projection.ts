import { type Insertable, type Kysely, sql } from 'kysely';
import { bugTopics } from '../bugs/bugs.queries.js';
import { defineProjection } from '../runtime/handlers.js';
import type { ReadModelDb } from '../schema.js';
import type { BugCommentsTable } from './comments.tables.js';

/** What a batch does to the comments, in the order of its events, and the bugs it touches. */
export type CommentChanges = {
  writes: (
    | { kind: 'add'; row: Insertable<BugCommentsTable> }
    | { kind: 'edit'; bugId: string; id: string; body: string; mentions: string[]; editedAt: string }
    | { kind: 'delete'; bugId: string; id: string }
  )[];
  bugs: Set<string>;
};

/**
 * Comments on bugs (`GET /api/bugs/{id}/comments`), from the comment events of the bugs'
 * streams. Each change names the bug's live topic with the bug's audience (its reporter and
 * assignees as the bugs read model has them), so those who see the bug hear it.
 */
export const commentsProjection = defineProjection({
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

  begin: (): CommentChanges => ({ writes: [], bugs: new Set() }),
  on: {
    CommentAdded(changes, event) {
      const d = event.data;
      changes.writes.push({
        kind: 'add',
        row: {
          bug_id: d.bugId,
          id: d.commentId,
          author_id: event.metadata.actorId ?? '',
          body: d.body,
          mentions: [...d.mentions],
          created_at: event.metadata.occurredAt,
          position: event.position,
        },
      });
      changes.bugs.add(d.bugId);
    },
    CommentEdited(changes, event) {
      const d = event.data;
      changes.writes.push({
        kind: 'edit',
        bugId: d.bugId,
        id: d.commentId,
        body: d.body,
        mentions: [...d.mentions],
        editedAt: event.metadata.occurredAt,
      });
      changes.bugs.add(d.bugId);
    },
    CommentDeleted(changes, event) {
      changes.writes.push({ kind: 'delete', bugId: event.data.bugId, id: event.data.commentId });
      changes.bugs.add(event.data.bugId);
    },
  },

  async write(changes, { db, schema, topics }) {
    if (changes.bugs.size === 0) return;
    const table = db.withSchema(schema);
    for (const write of changes.writes) {
      if (write.kind === 'add') {
        // A replayed batch finds the comment stored already.
        await table
          .insertInto('bug_comments')
          .values(write.row)
          .onConflict((oc) => oc.columns(['bug_id', 'id']).doNothing())
          .execute();
      } else if (write.kind === 'edit') {
        await table
          .updateTable('bug_comments')
          .set({ body: write.body, mentions: write.mentions, edited_at: write.editedAt })
          .where('bug_id', '=', write.bugId)
          .where('id', '=', write.id)
          .execute();
      } else {
        await table
          .updateTable('bug_comments')
          .set({ body: '', mentions: [], deleted: true })
          .where('bug_id', '=', write.bugId)
          .where('id', '=', write.id)
          .execute();
      }
    }
    // The audience as the live bugs read model has it (a rebuild writes elsewhere and hears nobody).
    const known = await bugTopics(db, [...changes.bugs]);
    for (const bugId of changes.bugs) topics.add(known.get(bugId) ?? `bug:${bugId}|`);
  },
});
