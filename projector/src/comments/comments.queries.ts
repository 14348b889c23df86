import type { Kysely, Selectable } from 'kysely';
import { READ_MODEL_SCHEMA } from '../runtime/projection.js';
import type { ReadModelDb } from '../schema.js';
import type { BugCommentsTable } from './comments.tables.js';

export type BugCommentRow = Selectable<BugCommentsTable> & { author_name: string | null };

/** A bug's comments, oldest first, with their authors' names. */
export async function listBugComments(db: Kysely<ReadModelDb>, bugId: string): Promise<BugCommentRow[]> {
  return db
    .withSchema(READ_MODEL_SCHEMA)
    .selectFrom('bug_comments as c')
    .leftJoin('users as u', 'u.id', 'c.author_id')
    .selectAll('c')
    .select('u.name as author_name')
    .where('c.bug_id', '=', bugId)
    .orderBy('c.position')
    .execute();
}
