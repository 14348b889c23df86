import { type Kysely, sql } from 'kysely';
import { chunks } from '../runtime/chunks.js';
import { defineProjection } from '../runtime/handlers.js';
import type { ReadModelDb } from '../schema.js';

/** The live topic a timesheet listens to: any entry logged or deleted. */
export const worklogTopic = 'worklog';

type Row = {
  entry_id: string;
  bug_id: string;
  user_id: string;
  minutes: number;
  on: string;
  note: string;
  logged_at: string;
  deleted: boolean;
};
/** A batch's last word on each entry (a deletion of one logged before the batch: only its flag). */
type Changes = { logged: Map<string, Row>; deleted: Set<string> };

/**
 * Worklog (issue 37): one row per entry from `WorkLogged`, flagged by `WorkLogDeleted`, so a
 * timesheet is a range scan by day; the bug it is on (its project, who may see it) is the bugs
 * read model's, joined when read.
 */
export const worklogProjection = defineProjection({
  name: 'worklog',
  version: 1,
  tables: ['worklog'],

  async createTables(db: Kysely<ReadModelDb>, schema: string) {
    await sql`create table ${sql.id(schema, 'worklog')} (
      entry_id text primary key,
      bug_id text not null,
      user_id text not null,
      minutes int not null,
      "on" date not null,
      note text not null,
      logged_at timestamptz not null,
      deleted boolean not null default false
    )`.execute(db);
  },

  async createIndexes(db: Kysely<ReadModelDb>, schema: string) {
    await sql`create index ${sql.id(`${schema}_worklog_on`)} on ${sql.id(schema, 'worklog')} ("on", entry_id) where not deleted`.execute(
      db,
    );
    await sql`create index ${sql.id(`${schema}_worklog_bug`)} on ${sql.id(schema, 'worklog')} (bug_id) where not deleted`.execute(
      db,
    );
  },

  begin: (): Changes => ({ logged: new Map(), deleted: new Set() }),
  on: {
    WorkLogged(changes, event) {
      const d = event.data;
      changes.logged.set(d.entryId, {
        entry_id: d.entryId,
        bug_id: d.bugId,
        user_id: d.userId,
        minutes: d.minutes,
        on: d.on,
        note: d.note,
        logged_at: event.metadata.occurredAt,
        deleted: false,
      });
    },
    WorkLogDeleted(changes, event) {
      const logged = changes.logged.get(event.data.entryId);
      if (logged) logged.deleted = true;
      else changes.deleted.add(event.data.entryId);
    },
  },

  async write(changes, { db, schema, topics }) {
    if (changes.logged.size === 0 && changes.deleted.size === 0) return;
    topics.add(worklogTopic);
    for (const rows of chunks([...changes.logged.values()])) {
      await db
        .withSchema(schema)
        .insertInto('worklog')
        .values(rows)
        .onConflict((oc) => oc.column('entry_id').doNothing())
        .execute();
    }
    if (changes.deleted.size > 0) {
      await db
        .withSchema(schema)
        .updateTable('worklog')
        .set({ deleted: true })
        .where('entry_id', 'in', [...changes.deleted])
        .execute();
    }
  },
});
