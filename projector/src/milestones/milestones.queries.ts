import type { MilestoneDto } from '@bugtrail/domain';
import { type Kysely, sql } from 'kysely';
import { READ_MODEL_SCHEMA } from '../runtime/projection.js';
import type { ReadModelDb } from '../schema.js';

/**
 * Milestones as read-api answers them (api.md "Milestones", issue 36): rows of the milestones
 * read model, progress from the bugs read model, burn-ups from the flow read model's stays.
 */
const rm = (table: string) => sql.id(READ_MODEL_SCHEMA, table);

type Row = {
  id: string;
  project_id: string;
  name: string;
  description: string;
  start_date: string | null;
  due_date: string | null;
  closed_at: Date | null;
  created_at: Date;
  total: string;
  closed: string;
  estimate: string;
  spent_minutes: string;
};

const toDto = (r: Row): MilestoneDto => ({
  _id: r.id,
  projectId: r.project_id,
  name: r.name,
  description: r.description,
  startDate: r.start_date,
  dueDate: r.due_date,
  closedAt: r.closed_at?.toISOString() ?? null,
  progress: { total: Number(r.total), closed: Number(r.closed) },
  estimate: Math.round(Number(r.estimate) * 100) / 100,
  spent: Math.round((Number(r.spent_minutes) / 60) * 100) / 100,
  spentMinutes: Number(r.spent_minutes),
});

const withProgress = sql`select m.*,
    (select count(*) from ${rm('bugs')} b where b.milestone_id = m.id and not b.deleted) as total,
    (select count(*) from ${rm('bugs')} b where b.milestone_id = m.id and not b.deleted and b.status = 'Closed') as closed,
    (select coalesce(sum((b.dto->>'estimate')::numeric), 0) from ${rm('bugs')} b
      where b.milestone_id = m.id and not b.deleted) as estimate,
    (select coalesce(sum((b.dto->>'timeSpentMinutes')::int), 0) from ${rm('bugs')} b
      where b.milestone_id = m.id and not b.deleted) as spent_minutes
  from ${rm('milestones')} m`;

/** A project's milestones that exist: open ones by due date (none last), then closed ones. */
export async function listMilestones(db: Kysely<ReadModelDb>, projectId: string): Promise<MilestoneDto[]> {
  const { rows } = await sql<Row>`${withProgress} where m.project_id = ${projectId} and not m.deleted
    order by m.closed_at is not null, m.due_date nulls last, m.created_at, m.id`.execute(db);
  return rows.map(toDto);
}

/** One milestone that exists, or null. */
export async function findMilestone(db: Kysely<ReadModelDb>, id: string): Promise<MilestoneDto | null> {
  const { rows } = await sql<Row>`${withProgress} where m.id = ${id} and not m.deleted`.execute(db);
  return rows[0] ? toDto(rows[0]) : null;
}

/** The first day of the milestone's burn-up: its start date, else the day it was made. */
async function firstDay(db: Kysely<ReadModelDb>, id: string): Promise<string | null> {
  const { rows } = await sql<{
    day: string;
  }>`select coalesce(start_date, to_char(created_at at time zone 'UTC', 'YYYY-MM-DD')) as day
    from ${rm('milestones')} where id = ${id}`.execute(db);
  return rows[0]?.day ?? null;
}

export type BurnupDay = { date: string; scope: number; closed: number };

/** At most this many days in one burn-up (the last ones). */
export const BURNUP_DAYS_MAX = 731;

/**
 * Per day from the milestone's first day to `lastDay` (UTC): `scope`, the bugs in the milestone
 * at the end of that day (as they were: a bug planned in late or taken out counts only for its
 * days), and `closed`, those of them Closed then. Deleted bugs leave both from their deletion on.
 */
export async function milestoneBurnup(db: Kysely<ReadModelDb>, id: string, lastDay: string): Promise<BurnupDay[]> {
  let first = await firstDay(db, id);
  if (!first || first > lastDay) return [];
  const earliest = new Date(Date.parse(`${lastDay}T00:00:00Z`) - (BURNUP_DAYS_MAX - 1) * 86_400_000)
    .toISOString()
    .slice(0, 10);
  if (first < earliest) first = earliest;
  const { rows } = await sql<{ date: string; scope: string; closed: string }>`
    with days as (
      select to_char(d, 'YYYY-MM-DD') as date, (d + interval '1 day') at time zone 'UTC' as eod
      from generate_series(${first}::timestamp, ${lastDay}::timestamp, interval '1 day') as d),
    stays as (
      select i.bug_id, i.entered_at, i.left_at, f.deleted_at
      from ${rm('bug_intervals')} i join ${rm('flow_bugs')} f on f.bug_id = i.bug_id
      where i.field = 'milestone' and i.value = ${id})
    select days.date,
      count(distinct s.bug_id) as scope,
      count(distinct s.bug_id) filter (where exists (
        select from ${rm('bug_intervals')} st where st.bug_id = s.bug_id and st.field = 'status' and st.value = 'Closed'
          and st.entered_at < days.eod and (st.left_at is null or st.left_at >= days.eod))) as closed
    from days left join stays s on s.entered_at < days.eod and (s.left_at is null or s.left_at >= days.eod)
      and (s.deleted_at is null or s.deleted_at >= days.eod)
    group by days.date order by days.date`.execute(db);
  return rows.map((r) => ({ date: r.date, scope: Number(r.scope), closed: Number(r.closed) }));
}

/** Milestones' names by id, deleted ones too (a history names what was). */
export async function findMilestoneNames(db: Kysely<ReadModelDb>, ids: Iterable<string>): Promise<Map<string, string>> {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return new Map();
  const { rows } = await sql<{ id: string; name: string }>`select id, name from ${rm('milestones')}
    where id = any(${wanted}::text[])`.execute(db);
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** Bugs' keys and titles by id (a history names a parent by them). */
export async function findBugNames(
  db: Kysely<ReadModelDb>,
  ids: Iterable<string>,
): Promise<Map<string, { key: string | null; title: string; projectId: string }>> {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return new Map();
  const { rows } = await sql<{ id: string; key: string | null; title: string; project_id: string }>`
    select id, dto->>'key' as key, dto->>'title' as title, project_id from ${rm('bugs')} where id = any(${wanted}::text[])`.execute(
    db,
  );
  return new Map(rows.map((r) => [r.id, { key: r.key, title: r.title, projectId: r.project_id }]));
}
