import { type Kysely, sql } from 'kysely';
import { READ_MODEL_SCHEMA } from '../runtime/projection.js';
import type { ReadModelDb } from '../schema.js';

export type NotificationListRow = {
  id: string;
  kind: string;
  text: string;
  bug_id: string | null;
  chat_id: string | null;
  actor_id: string | null;
  actor_name: string | null;
  created_at: Date;
  read_at: Date | null;
};

/**
 * Leaves out the notifications about bugs of `hidden` projects (private ones the person is no
 * longer a member of, issue 35): for them those bugs do not exist, nor does what was said of them.
 */
const outsideHidden = (hidden: readonly string[]) =>
  hidden.length === 0
    ? sql<boolean>`true`
    : sql<boolean>`not exists (select 1 from ${sql.id(READ_MODEL_SCHEMA, 'bugs')} b
        where b.id = n.bug_id and b.project_id = any(${hidden as string[]}::text[]))`;

/** One person's newest notifications, and how many of all theirs are unread. */
export async function listNotifications(
  db: Kysely<ReadModelDb>,
  userId: string,
  limit: number,
  hidden: readonly string[] = [],
): Promise<{ rows: NotificationListRow[]; unread: number }> {
  const rows = await db
    .withSchema(READ_MODEL_SCHEMA)
    .selectFrom('notifications as n')
    .leftJoin('users as u', 'u.id', 'n.actor_id')
    .select([
      'n.id',
      'n.kind',
      'n.text',
      'n.bug_id',
      'n.chat_id',
      'n.actor_id',
      'u.name as actor_name',
      'n.created_at',
      'n.read_at',
    ])
    .where('n.user_id', '=', userId)
    .where(outsideHidden(hidden))
    .orderBy('n.position', 'desc')
    .orderBy('n.id')
    .limit(limit)
    .execute();
  const count = await db
    .withSchema(READ_MODEL_SCHEMA)
    .selectFrom('notifications as n')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('n.user_id', '=', userId)
    .where('n.read_at', 'is', null)
    .where(outsideHidden(hidden))
    .executeTakeFirst();
  return { rows, unread: count?.n ?? 0 };
}
