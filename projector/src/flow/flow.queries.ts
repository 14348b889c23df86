import type { BugStatus } from '@bugtrail/domain';
import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { BugCounts } from '../bugs/bugs.queries.js';
import type { BugScope } from '../bugs/bugs.tables.js';
import type { ReadModelDb } from '../schema.js';

/**
 * Flow metrics from the status stays, as they were known at a moment (`asOf`): bugs reported
 * by then and not yet deleted then; stays entered by then, and a stay left after it counts as
 * still going. Times are compared as instants; weeks are ISO weeks in UTC. One statement, so
 * one snapshot, whatever the projector commits meanwhile.
 */

export const METRIC_GROUPS = ['severity', 'priority', 'module', 'assignee'] as const;
export type MetricGroup = (typeof METRIC_GROUPS)[number];

export type MetricsWindow = Readonly<{
  /** The moment the answer is for (an instant, ms precision). */
  asOf: Date;
  /** Inclusive start of the window, or null for all time. */
  from: Date | null;
  /** Exclusive end of the window, or null for all time. */
  to: Date | null;
}>;

export type Percentiles = { p50: number | null; p85: number | null; p95: number | null; count: number };
export type TimeInStatus = Record<BugStatus, number>;
export type FlowMetrics = {
  cycleTime: Percentiles;
  timeInStatus: TimeInStatus;
  reopened: number;
  weekly: { week: string; opened: number; closed: number }[];
  openAge: Percentiles;
  groups?: { key: string | null; cycleTime: Percentiles; count: number; timeInStatus: TimeInStatus }[];
};

const time = (d: Date | null) => sql`${d === null ? null : d.toISOString()}::timestamptz`;

/** The CTEs every flow answer starts from: the window, the bugs that existed at asOf, their status stays then. */
function base(w: MetricsWindow): RawBuilder<unknown> {
  return sql`
    p as (
      select ${time(w.asOf)} as t, ${time(w.from)} as f, ${time(w.to)} as u,
        least(coalesce(${time(w.to)}, ${time(w.asOf)}), ${time(w.asOf)}) as e
    ),
    visible as (
      select b.bug_id, b.created_at from rm.flow_bugs b, p
      where b.created_at <= p.t and (b.deleted_at is null or b.deleted_at > p.t)
    ),
    windowed as (
      select v.bug_id, v.created_at from visible v, p
      where (p.f is null or v.created_at >= p.f) and (p.u is null or v.created_at < p.u)
    ),
    stays as (
      select i.bug_id, i.value as status, i.entered_at, case when i.left_at <= p.t then i.left_at end as left_at
      from rm.bug_intervals i join visible v on v.bug_id = i.bug_id, p
      where i.field = 'status' and i.entered_at <= p.t
    ),
    per_bug as (
      select s.bug_id,
        min(s.entered_at) filter (where s.status = 'Open') as first_open,
        max(s.entered_at) filter (where s.status = 'Closed' and s.left_at is null) as closed_at,
        count(*) filter (where s.status = 'Closed' and s.left_at is not null
          and (p.f is null or s.left_at >= p.f) and (p.u is null or s.left_at < p.u)) as reopened
      from stays s, p group by s.bug_id
    ),
    cycles as (
      select b.bug_id, b.closed_at, extract(epoch from b.closed_at - b.first_open)::float8 as seconds
      from per_bug b, p
      where b.closed_at is not null and b.first_open is not null
        and (p.f is null or b.closed_at >= p.f) and (p.u is null or b.closed_at < p.u)
    ),
    spent as (
      select s.bug_id, s.status, extract(epoch from least(coalesce(s.left_at, p.e), p.e) - s.entered_at) as seconds
      from stays s join windowed w on w.bug_id = s.bug_id, p
      where s.entered_at < p.e
    )`;
}

/** The group key of each bug that existed at asOf, as it was then (null: none). */
function keys(group: MetricGroup): RawBuilder<unknown> {
  return sql`
    keys as (
      select v.bug_id, k.value as key from visible v
      left join rm.bug_intervals k on k.bug_id = v.bug_id and k.field = ${group}
        and k.entered_at <= (select t from p) and (k.left_at is null or k.left_at > (select t from p))
    )`;
}

const percentiles = (column: RawBuilder<unknown>) =>
  sql`json_build_object('p', percentile_cont(array[0.5, 0.85, 0.95]) within group (order by ${column}), 'n', count(*))`;

type RawPercentiles = { p: number[] | null; n: number };
type RawAnswer = {
  cycle: RawPercentiles;
  spent: Record<string, number> | null;
  bugs: number;
  reopened: number;
  weekly: { week: string; opened: number; closed: number }[] | null;
  open_age: RawPercentiles;
  groups: { key: string | null; cycle: RawPercentiles; bugs: number; spent: Record<string, number> | null }[] | null;
};

const toPercentiles = (raw: RawPercentiles | null | undefined): Percentiles => ({
  p50: raw?.p?.[0] ?? null,
  p85: raw?.p?.[1] ?? null,
  p95: raw?.p?.[2] ?? null,
  count: Number(raw?.n ?? 0),
});

/** Mean seconds per bug in each status; an empty window spends nothing anywhere. */
const toTimeInStatus = (totals: Record<string, number> | null, bugs: number): TimeInStatus => {
  const mean = (status: BugStatus) => (bugs > 0 ? Number(totals?.[status] ?? 0) / bugs : 0);
  return { Open: mean('Open'), 'In Progress': mean('In Progress'), Closed: mean('Closed') };
};

const ORDER: Partial<Record<MetricGroup, readonly string[]>> = {
  severity: ['Critical', 'Major', 'Minor'],
  priority: ['High', 'Medium', 'Low'],
};

/** `GET /api/metrics`: cycle time, time in status, reopens, weekly opened and closed, open ages, per group. */
export async function flowMetrics(
  db: Kysely<ReadModelDb>,
  w: MetricsWindow,
  group: MetricGroup | null,
): Promise<FlowMetrics> {
  const groups = group
    ? sql`(select json_agg(json_build_object(
            'key', g.key,
            'cycle', json_build_object('p', gc.p, 'n', coalesce(gc.n, 0)),
            'bugs', coalesce(gb.n, 0),
            'spent', gs.spent))
          from group_keys g
          left join group_cycles gc on gc.key is not distinct from g.key
          left join group_bugs gb on gb.key is not distinct from g.key
          left join group_spent gs on gs.key is not distinct from g.key)`
    : sql`null::json`;
  const groupCtes = group
    ? sql`, ${keys(group)},
      group_cycles as (
        select k.key, percentile_cont(array[0.5, 0.85, 0.95]) within group (order by c.seconds) as p, count(*) as n
        from cycles c join keys k on k.bug_id = c.bug_id group by k.key
      ),
      group_bugs as (select k.key, count(*) as n from windowed w join keys k on k.bug_id = w.bug_id group by k.key),
      group_spent as (
        select t.key, json_object_agg(t.status, t.total) as spent from (
          select k.key, s.status, sum(s.seconds) as total from spent s join keys k on k.bug_id = s.bug_id
          group by k.key, s.status) t
        group by t.key
      ),
      group_keys as (select key from group_cycles union select key from group_bugs)`
    : sql``;
  const { rows } = await sql<{ answer: RawAnswer }>`
    with ${base(w)}${groupCtes},
    weekly as (
      select week, sum(opened)::int as opened, sum(closed)::int as closed from (
        select to_char(w.created_at at time zone 'UTC', 'IYYY-"W"IW') as week, 1 as opened, 0 as closed from windowed w
        union all
        select to_char(s.entered_at at time zone 'UTC', 'IYYY-"W"IW'), 0, 1 from stays s, p
        where s.status = 'Closed' and (p.f is null or s.entered_at >= p.f) and (p.u is null or s.entered_at < p.u)
      ) x group by week
    )
    select json_build_object(
      'cycle', (select ${percentiles(sql`seconds`)} from cycles),
      'spent', (select json_object_agg(t.status, t.total) from (
        select status, sum(seconds) as total from spent group by status) t),
      'bugs', (select count(*) from windowed),
      'reopened', (select coalesce(sum(reopened), 0) from per_bug),
      'weekly', (select json_agg(json_build_object('week', week, 'opened', opened, 'closed', closed) order by week) from weekly),
      'open_age', (select ${percentiles(sql`extract(epoch from p.t - v.created_at)::float8`)}
        from visible v join per_bug b on b.bug_id = v.bug_id, p where b.closed_at is null),
      'groups', ${groups}
    ) as answer`.execute(db);
  const raw = rows[0]!.answer;
  const answer: FlowMetrics = {
    cycleTime: toPercentiles(raw.cycle),
    timeInStatus: toTimeInStatus(raw.spent, Number(raw.bugs)),
    reopened: Number(raw.reopened),
    weekly: raw.weekly ?? [],
    openAge: toPercentiles(raw.open_age),
  };
  if (group) {
    const order = ORDER[group];
    const rank = (key: string | null) => (key === null ? Number.MAX_SAFE_INTEGER : (order?.indexOf(key) ?? 0));
    answer.groups = (raw.groups ?? [])
      .map((g) => ({
        key: g.key,
        cycleTime: toPercentiles(g.cycle),
        count: Number(g.bugs),
        timeInStatus: toTimeInStatus(g.spent, Number(g.bugs)),
      }))
      .filter((g) => g.count > 0 || g.cycleTime.count > 0)
      .sort((a, b) => rank(a.key) - rank(b.key) || (a.key ?? '').localeCompare(b.key ?? ''));
  }
  return answer;
}

export type CycleTimePoint = { bugId: string; title: string; closedAt: string; seconds: number; key: string | null };

/** The cycle-time scatter's points: bugs closed in the window as of asOf, the newest `limit`. */
export async function cycleTimePoints(
  db: Kysely<ReadModelDb>,
  w: MetricsWindow,
  group: MetricGroup | null,
  limit: number,
): Promise<{ points: CycleTimePoint[]; total: number }> {
  const { rows } = await sql<{
    bug_id: string;
    title: string;
    closed_at: Date;
    seconds: number;
    key: string | null;
    total: string;
  }>`
    with ${base(w)}${group ? sql`, ${keys(group)}` : sql``}
    select c.bug_id, coalesce(b.dto->>'title', '') as title, c.closed_at, c.seconds,
      ${group ? sql`k.key` : sql`null::text`} as key, count(*) over () as total
    from cycles c
    left join rm.bugs b on b.id = c.bug_id
    ${group ? sql`left join keys k on k.bug_id = c.bug_id` : sql``}
    order by c.closed_at desc, c.bug_id
    limit ${limit}`.execute(db);
  return {
    points: rows.map((r) => ({
      bugId: r.bug_id,
      title: r.title,
      closedAt: r.closed_at.toISOString(),
      seconds: r.seconds,
      key: r.key,
    })),
    total: Number(rows[0]?.total ?? 0),
  };
}

export type FlowDay = { date: string } & Record<BugStatus, number>;

/**
 * The cumulative flow diagram: how many bugs (of those that existed at asOf) were in each
 * status at the end of each day (UTC) of the window, or of each ISO week when it spans more
 * than 180 days; a day that asOf falls in ends at asOf. Summed from +1/−1 steps, not a scan per day.
 */
export async function cumulativeFlow(
  db: Kysely<ReadModelDb>,
  w: MetricsWindow,
): Promise<{ granularity: 'day' | 'week'; points: FlowDay[] }> {
  const end = w.to && w.to < w.asOf ? w.to : w.asOf;
  const { rows: first } = await sql<{ start: Date | null }>`
    select min(created_at) as start from rm.flow_bugs where created_at <= ${time(w.asOf)}`.execute(db);
  const start = w.from ?? first[0]?.start ?? null;
  if (!start || start > end) return { granularity: 'day', points: [] };
  const days = (end.getTime() - start.getTime()) / 86_400_000;
  const granularity = days > 180 ? 'week' : 'day';
  const unit = sql.lit(granularity);
  const { rows } = await sql<{ bucket: string; status: BugStatus; delta: number }>`
    with ${base(w)},
    steps as (
      select status, entered_at as at, 1 as delta from stays
      union all select status, left_at, -1 from stays where left_at is not null
    )
    select to_char(date_trunc(${unit}, at at time zone 'UTC'), 'YYYY-MM-DD') as bucket, status, sum(delta)::int as delta
    from steps, p where at <= p.e
    group by 1, 2 order by 1`.execute(db);
  // Buckets from the window's start to its end; steps before the start add up to the first point.
  const bucketOf = (d: Date) => {
    const day = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
    if (granularity === 'week') day.setUTCDate(day.getUTCDate() - ((day.getUTCDay() + 6) % 7));
    return day;
  };
  const points: FlowDay[] = [];
  const running: Record<BugStatus, number> = { Open: 0, 'In Progress': 0, Closed: 0 };
  let i = 0;
  const step = granularity === 'week' ? 7 : 1;
  for (let day = bucketOf(start); day < end; day = new Date(day.getTime() + step * 86_400_000)) {
    const label = day.toISOString().slice(0, 10);
    while (i < rows.length && rows[i]!.bucket <= label) {
      const r = rows[i++]!;
      running[r.status] += r.delta;
    }
    points.push({ date: label, ...running });
  }
  return { granularity, points };
}

/** The dashboard counts of a scope as they were at `asOf` (api.md: dashboards take `?asOf=`). */
export async function countBugsAsOf(db: Kysely<ReadModelDb>, scope: BugScope, asOf: Date): Promise<BugCounts> {
  const { rows } = await sql<{ field: string; value: string; n: number }>`
    with p as (select ${time(asOf)} as t),
    scoped as (
      select b.bug_id from rm.flow_bugs b, p
      where b.created_at <= p.t and (b.deleted_at is null or b.deleted_at > p.t)
      ${scope.kind === 'reporter' ? sql`and b.reporter_id = ${scope.id}` : sql``}
      ${
        scope.kind === 'assignee'
          ? sql`and exists (select from rm.bug_intervals a where a.bug_id = b.bug_id and a.field = 'assignee'
              and a.value = ${scope.id} and a.entered_at <= p.t and (a.left_at is null or a.left_at > p.t))`
          : sql``
      }
    )
    select i.field, i.value, count(*)::int as n
    from rm.bug_intervals i join scoped s on s.bug_id = i.bug_id, p
    where i.field in ('status', 'severity', 'priority') and i.entered_at <= p.t and (i.left_at is null or i.left_at > p.t)
    group by i.field, i.value`.execute(db);
  const counts = {
    status: { Open: 0, 'In Progress': 0, Closed: 0 },
    severity: { Minor: 0, Major: 0, Critical: 0 },
    priority: { Low: 0, Medium: 0, High: 0 },
  } as Record<string, Record<string, number>>;
  for (const r of rows) {
    const dim = counts[r.field];
    if (dim && r.value in dim) dim[r.value] = r.n;
  }
  return counts as unknown as BugCounts;
}

/** The newest bugs of a scope as of `asOf` (ids; their state then comes from their streams). */
export async function newestBugIdsAsOf(
  db: Kysely<ReadModelDb>,
  scope: BugScope,
  asOf: Date,
  limit: number,
): Promise<string[]> {
  const { rows } = await sql<{ bug_id: string }>`
    select b.bug_id from rm.flow_bugs b
    where b.created_at <= ${time(asOf)} and (b.deleted_at is null or b.deleted_at > ${time(asOf)})
    ${scope.kind === 'reporter' ? sql`and b.reporter_id = ${scope.id}` : sql``}
    ${
      scope.kind === 'assignee'
        ? sql`and exists (select from rm.bug_intervals a where a.bug_id = b.bug_id and a.field = 'assignee'
            and a.value = ${scope.id} and a.entered_at <= ${time(asOf)} and (a.left_at is null or a.left_at > ${time(asOf)}))`
        : sql``
    }
    order by b.created_at desc, b.bug_id desc limit ${limit}`.execute(db);
  return rows.map((r) => r.bug_id);
}
