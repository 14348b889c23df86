import type { Actor } from '@bugtrail/domain';
import { type Kysely, type RawBuilder, type SqlBool, sql } from 'kysely';
import { visibleBugsSql } from '../bugs/bug-visibility.js';
import { READ_MODEL_SCHEMA } from '../runtime/projection.js';
import type { ReadModelDb } from '../schema.js';

/**
 * Timesheets (issue 37): worklog entries of a date range, of the bugs the reader may open (the
 * bugs read model's rule, joined), narrowed by projects, people or one bug; their totals per
 * person and per project come from the same rows, so they add up to what is listed.
 */
const rm = (table: string) => sql.id(READ_MODEL_SCHEMA, table);

export type WorklogFilter = Readonly<{
  /** Days, YYYY-MM-DD, both included. */
  from: string;
  to: string;
  projects?: readonly string[] | undefined;
  users?: readonly string[] | undefined;
  bugId?: string | undefined;
}>;

export type WorklogEntryDto = {
  _id: string;
  on: string;
  minutes: number;
  note: string;
  loggedAt: string;
  user: { _id: string; name: string };
  bug: { _id: string; key: string | null; title: string; projectId: string };
  project: { _id: string; key: string; name: string };
};

export type WorklogTotals = {
  minutes: number;
  byUser: { user: { _id: string; name: string }; minutes: number }[];
  byProject: { project: { _id: string; key: string; name: string }; minutes: number }[];
};

type EntryRow = {
  entry_id: string;
  on: string;
  minutes: number;
  note: string;
  logged_at: Date;
  user_id: string;
  user_name: string | null;
  bug_id: string;
  bug_key: string | null;
  bug_title: string;
  project_id: string;
  project_key: string | null;
  project_name: string | null;
};

function where(actor: Actor, f: WorklogFilter): RawBuilder<SqlBool> {
  const conditions: RawBuilder<SqlBool>[] = [
    sql<SqlBool>`not w.deleted`,
    sql<SqlBool>`w."on" between ${f.from}::date and ${f.to}::date`,
    sql<SqlBool>`${visibleBugsSql(actor, 'b')}`,
  ];
  if (f.projects?.length) conditions.push(sql<SqlBool>`b.project_id = any(${[...f.projects]}::text[])`);
  if (f.users?.length) conditions.push(sql<SqlBool>`w.user_id = any(${[...f.users]}::text[])`);
  if (f.bugId) conditions.push(sql<SqlBool>`w.bug_id = ${f.bugId}`);
  return sql<SqlBool>`${sql.join(conditions, sql` and `)}`;
}

const joined = sql`${rm('worklog')} w
  join ${rm('bugs')} b on b.id = w.bug_id
  left join ${rm('users')} u on u.id = w.user_id
  left join ${rm('bug_projects')} p on p.id = b.project_id`;

const toDto = (r: EntryRow): WorklogEntryDto => ({
  _id: r.entry_id,
  on: r.on,
  minutes: r.minutes,
  note: r.note,
  loggedAt: r.logged_at.toISOString(),
  user: { _id: r.user_id, name: r.user_name ?? '' },
  bug: { _id: r.bug_id, key: r.bug_key, title: r.bug_title, projectId: r.project_id },
  project: { _id: r.project_id, key: r.project_key ?? '', name: r.project_name ?? '' },
});

/** One page of entries in day order (then by id), after the keyset `after` (`on|entry_id`). */
export async function worklogEntries(
  db: Kysely<ReadModelDb>,
  actor: Actor,
  filter: WorklogFilter,
  options: { limit: number; after?: { on: string; id: string } | undefined },
): Promise<WorklogEntryDto[]> {
  const after = options.after
    ? sql`and (w."on", w.entry_id) > (${options.after.on}::date, ${options.after.id})`
    : sql``;
  const { rows } = await sql<EntryRow>`
    select w.entry_id, to_char(w."on", 'YYYY-MM-DD') as "on", w.minutes, w.note, w.logged_at, w.user_id,
      u.name as user_name, w.bug_id, b.dto->>'key' as bug_key, b.dto->>'title' as bug_title, b.project_id,
      p.key as project_key, p.name as project_name
    from ${joined}
    where ${where(actor, filter)} ${after}
    order by w."on", w.entry_id
    limit ${options.limit}`.execute(db);
  return rows.map(toDto);
}

/** The range's totals: every entry listed, per person and per project (most time first). */
export async function worklogTotals(
  db: Kysely<ReadModelDb>,
  actor: Actor,
  filter: WorklogFilter,
): Promise<WorklogTotals> {
  const { rows } = await sql<{
    kind: 'user' | 'project';
    id: string;
    key: string | null;
    name: string | null;
    minutes: string;
  }>`
    with e as (select w.user_id, w.minutes, b.project_id from ${joined} where ${where(actor, filter)})
    select 'user' as kind, e.user_id as id, null as key, u.name, sum(e.minutes) as minutes
      from e left join ${rm('users')} u on u.id = e.user_id group by e.user_id, u.name
    union all
    select 'project', e.project_id, p.key, p.name, sum(e.minutes)
      from e left join ${rm('bug_projects')} p on p.id = e.project_id group by e.project_id, p.key, p.name
    order by 5 desc, 2`.execute(db);
  const byUser = rows
    .filter((r) => r.kind === 'user')
    .map((r) => ({ user: { _id: r.id, name: r.name ?? '' }, minutes: Number(r.minutes) }));
  const byProject = rows
    .filter((r) => r.kind === 'project')
    .map((r) => ({ project: { _id: r.id, key: r.key ?? '', name: r.name ?? '' }, minutes: Number(r.minutes) }));
  return { minutes: byUser.reduce((sum, r) => sum + r.minutes, 0), byUser, byProject };
}
