import { type BugStatus, statesOr, type WorkflowState } from '@bugtrail/domain';
import { type Kysely, type RawBuilder, sql } from 'kysely';
import { bugScopeAsOfSql } from '../bugs/bug-visibility.js';
import { type BugCounts, bugCountsFrom } from '../bugs/bugs.queries.js';
import type { BugScope } from '../bugs/bugs.tables.js';
import { READ_MODEL_SCHEMA } from '../runtime/projection.js';
import type { ReadModelDb } from '../schema.js';

/**
 * Flow metrics from the status stays, as they were known at a moment (`asOf`): bugs reported
 * by then and not yet deleted then; stays entered by then, and a stay left after it counts as
 * still going. Times are compared as instants; weeks are ISO weeks in UTC. One statement, so
 * one snapshot, whatever the projector commits meanwhile.
 */

export const METRIC_GROUPS = ['severity', 'priority', 'module', 'assignee', 'project'] as const;
export type MetricGroup = (typeof METRIC_GROUPS)[number];

export type MetricsWindow = Readonly<{
  /** The moment the answer is for (an instant, ms precision). */
  asOf: Date;
  /** Inclusive start of the window, or null for all time. */
  from: Date | null;
  /** Exclusive end of the window, or null for all time. */
  to: Date | null;
  /** Only the bugs that were in one of these projects (ids) at asOf; every bug when absent. */
  projects?: readonly string[] | undefined;
}>;

/** The flow row `b` was in one of `projects` at `t` (its project stay then); true without projects. */
function inProjectsAsOf(projects: readonly string[] | undefined, t: RawBuilder<unknown>): RawBuilder<unknown> {
  if (!projects?.length) return sql`true`;
  return sql`exists (select from rm.bug_intervals p where p.bug_id = b.bug_id and p.field = 'project'
    and p.value = any(${[...projects]}::text[]) and p.entered_at <= ${t} and (p.left_at is null or p.left_at > ${t}))`;
}

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

/**
 * Runs a flow query with room to hash and sort in memory: the default 4 MB spills a
 * 100k-bug aggregation to disk. Read-only, and local to its transaction.
 */
function roomy<T>(db: Kysely<ReadModelDb>, query: (tx: Kysely<ReadModelDb>) => Promise<T>): Promise<T> {
  return db.transaction().execute(async (tx) => {
    await sql`set local work_mem = '64MB'`.execute(tx);
    return query(tx);
  });
}

const time = (d: Date | null) => sql`${d === null ? null : d.toISOString()}::timestamptz`;

/**
 * The window's instants as SQL: asOf (t) and where stays still going stop counting (e: `to`
 * or asOf, the earlier), and a column's test against [from, to). Values go in as parameters,
 * so the planner sees them (a CTE of constants would hide them and misplan at size).
 */
type Instants = {
  t: RawBuilder<unknown>;
  e: RawBuilder<unknown>;
  within(column: RawBuilder<unknown>): RawBuilder<unknown>;
  /** The window's project filter over the flow row `b`. */
  inProjects: RawBuilder<unknown>;
};

/** Where a window's stays still going stop counting: `to` or asOf, the earlier. */
const windowEnd = (w: MetricsWindow): Date => (w.to && w.to < w.asOf ? w.to : w.asOf);

function instants(w: MetricsWindow): Instants {
  const end = windowEnd(w);
  return {
    t: time(w.asOf),
    e: time(end),
    inProjects: inProjectsAsOf(w.projects, time(w.asOf)),
    within: (column) =>
      sql`(${w.from ? sql`${column} >= ${time(w.from)}` : sql`true`} and ${w.to ? sql`${column} < ${time(w.to)}` : sql`true`})`,
  };
}

/** Seconds of a status stay up to the window's end (a stay left after asOf is still going then). */
const spentIn = (x: Instants, status: BugStatus) =>
  sql`sum(date_part('epoch', least(coalesce(i.left_at, ${x.e}), ${x.e}) - i.entered_at))
    filter (where i.value = ${status} and i.entered_at < ${x.e})`;

/**
 * The CTEs every flow answer starts from, in one pass over the status stays: each bug that
 * existed at asOf with what its stays known then say (first Open, the Closed stay going at
 * asOf, moves out of Closed in the window, seconds spent per status), then its cycle time.
 */
function base(x: Instants): RawBuilder<unknown> {
  return sql`
    per_bug as (
      select b.bug_id, b.created_at,
        ${x.within(sql`b.created_at`)} as in_window,
        min(i.entered_at) filter (where i.value = 'Open') as first_open,
        max(i.entered_at) filter (where i.value = 'Closed' and (i.left_at is null or i.left_at > ${x.t})) as closed_at,
        count(*) filter (where i.value = 'Closed' and i.left_at <= ${x.t} and ${x.within(sql`i.left_at`)}) as reopened,
        ${spentIn(x, 'Open')} as spent_open,
        ${spentIn(x, 'In Progress')} as spent_progress,
        ${spentIn(x, 'Closed')} as spent_closed
      from rm.flow_bugs b join rm.bug_intervals i on i.bug_id = b.bug_id and i.field = 'status'
      where b.created_at <= ${x.t} and (b.deleted_at is null or b.deleted_at > ${x.t}) and i.entered_at <= ${x.t}
        and ${x.inProjects}
      group by b.bug_id, b.created_at
    ),
    cycles as (
      select b.bug_id, b.closed_at, date_part('epoch', b.closed_at - b.first_open) as seconds
      from per_bug b
      where b.closed_at is not null and b.first_open is not null and ${x.within(sql`b.closed_at`)}
    )`;
}

/** Seconds spent per status, summed over the bugs of the window. */
const spentTotals = sql`json_build_object('Open', sum(spent_open), 'In Progress', sum(spent_progress), 'Closed', sum(spent_closed))`;

/** The group key of each bug that existed at asOf, as it was then (null: none). */
function keys(x: Instants, group: MetricGroup): RawBuilder<unknown> {
  return sql`
    keys as (
      select v.bug_id, v.in_window, v.spent_open, v.spent_progress, v.spent_closed, k.value as key from per_bug v
      left join rm.bug_intervals k on k.bug_id = v.bug_id and k.field = ${group}
        and k.entered_at <= ${x.t} and (k.left_at is null or k.left_at > ${x.t})
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
  const x = instants(w);
  const groups = group
    ? sql`(select json_agg(json_build_object(
            'key', g.key,
            'cycle', json_build_object('p', gc.p, 'n', coalesce(gc.n, 0)),
            'bugs', coalesce(gb.n, 0),
            'spent', gb.spent))
          from group_keys g
          left join group_cycles gc on gc.key is not distinct from g.key
          left join group_bugs gb on gb.key is not distinct from g.key)`
    : sql`null::json`;
  const groupCtes = group
    ? sql`, ${keys(x, group)},
      group_cycles as (
        select k.key, percentile_cont(array[0.5, 0.85, 0.95]) within group (order by c.seconds) as p, count(*) as n
        from cycles c join keys k on k.bug_id = c.bug_id group by k.key
      ),
      group_bugs as (
        select k.key, count(*) as n, ${spentTotals} as spent from keys k where k.in_window group by k.key
      ),
      group_keys as (select key from group_cycles union select key from group_bugs)`
    : sql``;
  const { rows } = await roomy(db, (tx) =>
    sql<{ answer: RawAnswer }>`
    with ${base(x)}${groupCtes},
    weekly as (
      select to_char(week, 'IYYY-"W"IW') as week, sum(opened)::int as opened, sum(closed)::int as closed from (
        select date_trunc('week', b.created_at at time zone 'UTC') as week, count(*) as opened, 0 as closed
        from per_bug b where b.in_window group by 1
        union all
        select date_trunc('week', i.entered_at at time zone 'UTC'), 0, count(*)
        from rm.bug_intervals i join per_bug b on b.bug_id = i.bug_id
        where i.field = 'status' and i.value = 'Closed' and i.entered_at <= ${x.t} and ${x.within(sql`i.entered_at`)}
        group by 1
      ) x group by x.week
    )
    select json_build_object(
      'cycle', (select ${percentiles(sql`seconds`)} from cycles),
      'spent', (select ${spentTotals} from per_bug where in_window),
      'bugs', (select count(*) from per_bug where in_window),
      'reopened', (select coalesce(sum(reopened), 0) from per_bug),
      'weekly', (select json_agg(json_build_object('week', week, 'opened', opened, 'closed', closed) order by week) from weekly),
      'open_age', (select ${percentiles(sql`date_part('epoch', ${x.t} - b.created_at)`)}
        from per_bug b where b.closed_at is null),
      'groups', ${groups}
    ) as answer`.execute(tx),
  );
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

/** Mean seconds per bug of the window in one workflow state of the project (issue 37). */
export type StateTime = { _id: string; name: string; category: BugStatus | null; seconds: number };

/**
 * Time in each of a project's workflow states: the `state` stays of the window's bugs while in
 * `projectId` (a stay elsewhere counts there), summed and divided by the window's bugs, as
 * `timeInStatus` is. A stay in no chosen state counts in its category's first state as the
 * project's states are now; a state removed since is named so. In board order.
 */
export async function timeInStates(
  db: Kysely<ReadModelDb>,
  w: MetricsWindow,
  projectId: string,
  states: readonly WorkflowState[],
): Promise<StateTime[]> {
  const x = instants({ ...w, projects: [projectId] });
  const { rows } = await roomy(db, (tx) =>
    sql<{ value: string | null; seconds: number | null; bugs: string }>`
    with ${base(x)}
    select i.value, sum(date_part('epoch', least(coalesce(i.left_at, ${x.e}), ${x.e}) - i.entered_at)) as seconds,
      (select count(*) from per_bug where in_window) as bugs
    from per_bug b join rm.bug_intervals i on i.bug_id = b.bug_id and i.field = 'state'
    where b.in_window and i.entered_at < ${x.e} and i.entered_at <= ${x.t} and starts_with(i.value, ${`${projectId}/`})
    group by i.value
    union all select null, null, (select count(*) from per_bug where in_window)`.execute(tx),
  );
  const bugs = Number(rows[0]?.bugs ?? 0);
  const all = statesOr(states);
  const spent = new Map<string, number>();
  for (const row of rows) {
    if (row.value === null) continue;
    const held = row.value.slice(projectId.length + 1);
    const id = held.startsWith('~') ? (all.find((s) => s.category === held.slice(1))?.id ?? held) : held;
    spent.set(id, (spent.get(id) ?? 0) + Number(row.seconds ?? 0));
  }
  const mean = (id: string) => (bugs > 0 ? (spent.get(id) ?? 0) / bugs : 0);
  const gone = [...spent.keys()].filter((id) => !all.some((s) => s.id === id));
  return [
    ...all.map((s) => ({ _id: s.id, name: s.name, category: s.category, seconds: mean(s.id) })),
    ...gone.map((id) => ({ _id: id, name: 'Removed state', category: null, seconds: mean(id) })),
  ];
}

export type CycleTimePoint = { bugId: string; title: string; closedAt: string; seconds: number; key: string | null };

/** The cycle-time scatter's points: bugs closed in the window as of asOf, the newest `limit`. */
export async function cycleTimePoints(
  db: Kysely<ReadModelDb>,
  w: MetricsWindow,
  group: MetricGroup | null,
  limit: number,
): Promise<{ points: CycleTimePoint[]; total: number }> {
  const x = instants(w);
  const { rows } = await roomy(db, (tx) =>
    sql<{
      bug_id: string;
      title: string;
      closed_at: Date;
      seconds: number;
      key: string | null;
      total: string;
    }>`
    with ${base(x)}${group ? sql`, ${keys(x, group)}` : sql``}
    select c.bug_id, coalesce(b.dto->>'title', '') as title, c.closed_at, c.seconds,
      ${group ? sql`k.key` : sql`null::text`} as key, count(*) over () as total
    from cycles c
    left join rm.bugs b on b.id = c.bug_id
    ${group ? sql`left join keys k on k.bug_id = c.bug_id` : sql``}
    order by c.closed_at desc, c.bug_id
    limit ${limit}`.execute(tx),
  );
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
  const x = instants(w);
  const end = windowEnd(w);
  const { rows: first } = await sql<{ start: Date | null }>`
    select min(created_at) as start from rm.flow_bugs b where created_at <= ${time(w.asOf)} and ${x.inProjects}`.execute(
    db,
  );
  const start = w.from ?? first[0]?.start ?? null;
  if (!start || start > end) return { granularity: 'day', points: [] };
  const days = (end.getTime() - start.getTime()) / 86_400_000;
  const granularity = days > 180 ? 'week' : 'day';
  const unit = sql.lit(granularity);
  const { rows } = await roomy(db, (tx) =>
    sql<{ bucket: string; status: BugStatus; delta: number }>`
    with stays as (
      select i.value as status, i.entered_at, case when i.left_at <= ${x.t} then i.left_at end as left_at
      from rm.flow_bugs b join rm.bug_intervals i on i.bug_id = b.bug_id and i.field = 'status'
      where b.created_at <= ${x.t} and (b.deleted_at is null or b.deleted_at > ${x.t}) and i.entered_at <= ${x.t}
        and ${x.inProjects}
    ),
    steps as (
      select status, entered_at as at, 1 as delta from stays
      union all select status, left_at, -1 from stays where left_at is not null
    )
    select to_char(date_trunc(${unit}, at at time zone 'UTC'), 'YYYY-MM-DD') as bucket, status, sum(delta)::int as delta
    from steps where at <= ${x.e}
    group by 1, 2 order by 1`.execute(tx),
  );
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
export async function countBugsAsOf(
  db: Kysely<ReadModelDb>,
  scope: BugScope,
  asOf: Date,
  hidden: readonly string[] = [],
  projects?: readonly string[],
): Promise<BugCounts> {
  const t = time(asOf);
  const { rows } = await sql<{ dim: string; value: string; n: number }>`
    with scoped as (select b.bug_id from rm.flow_bugs b where ${bugScopeAsOfSql(scope, t, hidden, projects)})
    select i.field as dim, i.value, count(*)::int as n
    from rm.bug_intervals i join scoped s on s.bug_id = i.bug_id
    where i.field in ('status', 'severity', 'priority') and i.entered_at <= ${t} and (i.left_at is null or i.left_at > ${t})
    group by i.field, i.value`.execute(db);
  return bugCountsFrom(rows);
}

/** The newest bugs of a scope as of `asOf` (ids; their state then comes from their streams). */
export async function newestBugIdsAsOf(
  db: Kysely<ReadModelDb>,
  scope: BugScope,
  asOf: Date,
  limit: number,
  hidden: readonly string[] = [],
  projects?: readonly string[],
): Promise<string[]> {
  const { rows } = await sql<{ bug_id: string }>`
    select b.bug_id from rm.flow_bugs b where ${bugScopeAsOfSql(scope, time(asOf), hidden, projects)}
    order by b.created_at desc, b.bug_id desc limit ${limit}`.execute(db);
  return rows.map((r) => r.bug_id);
}

/**
 * When each of `bugIds` that is Closed now was closed (its open stay in Closed): one index
 * range per id (`bug_intervals_open`), for an export's page of rows.
 */
export async function closedAtOf(db: Kysely<ReadModelDb>, bugIds: readonly string[]): Promise<Map<string, Date>> {
  if (bugIds.length === 0) return new Map();
  const rows = await db
    .withSchema(READ_MODEL_SCHEMA)
    .selectFrom('bug_intervals')
    .select(['bug_id', 'entered_at'])
    .where('bug_id', 'in', [...bugIds])
    .where('field', '=', 'status')
    .where('left_at', 'is', null)
    .where('value', '=', 'Closed')
    .execute();
  return new Map(rows.map((r) => [r.bug_id, new Date(r.entered_at)]));
}
