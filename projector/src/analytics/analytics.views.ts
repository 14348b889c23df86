/**
 * Schema `analytics`: the contract for people who query Bugtrail with SQL (api.md
 * "Analysts"). Views over the read models, so they survive rebuilds and read-model versions:
 * a projection's tables may change, these names, columns and meanings do not. Every view
 * and column is described here; `COMMENT ON` carries the words into the database and
 * `docs/analytics.md` is generated from the database's comments.
 *
 * Privacy: no email address, no password data, no chat content, nothing from the event
 * store or the write side's tables.
 */

export const ANALYTICS_SCHEMA = 'analytics';
export const ANALYST_ROLE = 'bugtrail_analyst';

export type AnalyticsColumn = Readonly<{ name: string; comment: string }>;
export type AnalyticsView = Readonly<{
  name: string;
  comment: string;
  columns: readonly AnalyticsColumn[];
  /** The view's query, over the read-model schema `rm` (columns in the order above). */
  query: string;
}>;

const col = (name: string, comment: string): AnalyticsColumn => ({ name, comment });

export const analyticsViews: readonly AnalyticsView[] = [
  {
    name: 'bugs',
    comment:
      'One row per bug ever reported, deleted ones included (deleted = true). Values are the bug’s current ones; statuses are stored words (Open, In Progress, Closed), which admin screens show as Pending and Resolved.',
    columns: [
      col('id', 'The bug’s id (as in /bugs/{id}).'),
      col('number', 'The bug’s number as people say it (#42): 1, 2, 3, … in report order, never reused.'),
      col('title', 'Title.'),
      col('status', 'Open, In Progress or Closed.'),
      col('priority', 'Low, Medium or High.'),
      col('severity', 'Minor, Major or Critical.'),
      col('module', 'The module it was filed under, or NULL.'),
      col('reporter_id', 'Who reported it (analytics.users.id).'),
      col('created_at', 'When it was reported.'),
      col('due_date', 'Its due date, or NULL.'),
      col('closed_at', 'When it was last moved to Closed, if it is Closed now; NULL otherwise.'),
      col('deleted', 'True once the bug was deleted (it stays here, and its history stays readable).'),
      col('updated_at', 'When anything about it last changed.'),
      col('project_id', 'The project it is in now (analytics.projects.id).'),
      col('project_key', 'That project’s key now (WEB).'),
      col(
        'key',
        'The bug’s key as people say it (WEB-7): its project’s key and its number within the project; NULL for an old bug not yet numbered.',
      ),
      col('milestone_id', 'The milestone it is planned into now (analytics.milestones.id), or NULL.'),
      col('parent_id', 'The bug it is a sub-bug of (analytics.bugs.id), or NULL.'),
    ],
    query: `select b.id, b.number, b.dto->>'title', b.status, b.priority, b.severity, b.dto->>'module',
        b.reporter_id, b.created_at, (b.dto->>'dueDate')::timestamptz, c.entered_at, b.deleted, b.updated_at,
        b.project_id, p.key, b.dto->>'key', b.milestone_id, b.parent_id
      from rm.bugs b
      left join rm.bug_intervals c
        on c.bug_id = b.id and c.field = 'status' and c.left_at is null and c.value = 'Closed'
      left join rm.bug_projects p on p.id = b.project_id`,
  },
  {
    name: 'bug_assignees',
    comment: 'Who each bug is assigned to now: one row per bug and developer.',
    columns: [
      col('bug_id', 'The bug (analytics.bugs.id).'),
      col('user_id', 'The developer (analytics.users.id).'),
      col('assigned_at', 'Since when this developer has been assigned (this stay).'),
    ],
    query: `select b.id, a.user_id, i.entered_at
      from rm.bugs b
      cross join lateral unnest(b.assignee_ids) as a(user_id)
      left join rm.bug_intervals i
        on i.bug_id = b.id and i.field = 'assignee' and i.value = a.user_id and i.left_at is null`,
  },
  {
    name: 'checklist_items',
    comment: 'Each bug’s checklist steps, in their order.',
    columns: [
      col('bug_id', 'The bug (analytics.bugs.id).'),
      col('item_id', 'The step’s id.'),
      col('position', 'Its place in the list, from 1.'),
      col('text', 'What the step says.'),
      col('completed', 'Ticked or not.'),
      col('completed_by', 'Who ticked it (analytics.users.id), or NULL.'),
      col('completed_at', 'When it was ticked, or NULL.'),
    ],
    query: `select b.id, i.item->>'_id', i.n::integer, i.item->>'text', (i.item->>'completed')::boolean,
        i.item->'completedBy'->>'_id', (i.item->>'completedAt')::timestamptz
      from rm.bugs b
      cross join lateral jsonb_array_elements(b.dto->'checklist') with ordinality as i(item, n)`,
  },
  {
    name: 'users',
    comment: 'Everyone with an account: no email address and nothing about credentials.',
    columns: [
      col('id', 'The user’s id.'),
      col('name', 'Display name.'),
      col('role', 'admin, tester, developer or auditor.'),
      col('created_at', 'When the account was created.'),
      col('deactivated', 'True while an admin has the account deactivated.'),
    ],
    query: 'select u.id, u.name, u.role, u.created_at, u.deactivated from rm.users u',
  },
  {
    name: 'projects',
    comment:
      'Every project (issue 35): its current key and name, private or public, archived or not. The default project, General (key BUG), holds the bugs reported without one.',
    columns: [
      col('id', 'The project’s id.'),
      col('key', 'Its current key (WEB); bugs are named by it (WEB-7).'),
      col('name', 'Its name.'),
      col('private', 'True when only its members, admins and auditors see it and its bugs.'),
      col('archived', 'True once archived.'),
      col('created_at', 'When it was created.'),
    ],
    query: 'select p.id, p.key, p.name, p.private, p.archived, p.created_at from rm.projects p',
  },
  {
    name: 'labels',
    comment: 'One row per label that exists (admins manage them; deleted ones are gone from here and from every bug).',
    columns: [
      col('id', 'The label’s id.'),
      col('name', 'Its name, unique whatever its case.'),
      col('color', 'Its colour, #rrggbb.'),
      col('description', 'What it is for (may be empty).'),
      col('created_at', 'When it was created.'),
    ],
    query: 'select l.id, l.name, l.color, l.description, l.created_at from rm.labels l where not l.deleted',
  },
  {
    name: 'milestones',
    comment: 'One row per milestone that exists (issue 36): a project’s release, its dates, whether it is closed.',
    columns: [
      col('id', 'The milestone’s id.'),
      col('project_id', 'Its project (analytics.projects.id).'),
      col('name', 'Its name.'),
      col('start_date', 'Its start date (a date), or NULL.'),
      col('due_date', 'Its due date (a date), or NULL.'),
      col('closed_at', 'When it was closed, or NULL while open.'),
      col('created_at', 'When it was planned.'),
    ],
    query: `select m.id, m.project_id, m.name, m.start_date::date, m.due_date::date, m.closed_at, m.created_at
      from rm.milestones m where not m.deleted`,
  },
  {
    name: 'bug_relations',
    comment:
      'One row per relation between two bugs now, said one way: blocks (bug_id blocks other_bug_id), duplicate_of (bug_id is a duplicate of other_bug_id) or relates_to (once per pair).',
    columns: [
      col('bug_id', 'The bug (analytics.bugs.id).'),
      col('type', 'blocks, duplicate_of or relates_to.'),
      col('other_bug_id', 'The other bug (analytics.bugs.id).'),
    ],
    query: `select l.bug_id, l.type, l.other_id from rm.bug_links l
      where l.type in ('blocks', 'duplicate_of') or (l.type = 'relates_to' and l.bug_id < l.other_id)`,
  },
  {
    name: 'bug_labels',
    comment:
      'One row per label a bug carries now (deleted bugs left out): join analytics.bugs on bug_id and analytics.labels on label_id.',
    columns: [
      col('bug_id', 'The bug (analytics.bugs.id).'),
      col('label_id', 'The label (analytics.labels.id).'),
      col('label_name', 'The label’s name now.'),
    ],
    query: `select b.id, l.id, l.name from rm.bugs b
      cross join lateral unnest(b.label_ids) as x(label_id)
      join rm.labels l on l.id = x.label_id and not l.deleted
      where not b.deleted`,
  },
  {
    name: 'bug_field_values',
    comment:
      'One row per custom field value a bug holds now (a multi-select: one row per option chosen; deleted bugs and removed fields left out). value_text holds every value as text (an option’s name, a user’s id, a day, a link); value_number and value_date the typed value of number and date fields.',
    columns: [
      col('bug_id', 'The bug (analytics.bugs.id).'),
      col('field_key', 'The field’s key, as bug answers and list filters name it (field.<key>).'),
      col('field_name', 'The field’s name now.'),
      col(
        'value_text',
        'The value as text: an option’s name for selects, a user’s id (analytics.users.id) for user fields.',
      ),
      col('value_number', 'The value of a number field, else NULL.'),
      col('value_date', 'The value of a date field, else NULL.'),
    ],
    query: `select b.id, f->>'key', f->>'name',
        case when f->>'type' in ('select', 'multi_select')
          then (select o->>'name' from jsonb_array_elements(f->'options') o where o->>'id' = x.v limit 1)
          else x.v end,
        case when f->>'type' = 'number' then x.v::numeric end,
        case when f->>'type' = 'date' then x.v::date end
      from rm.bugs b
      join rm.bug_projects p on p.id = b.project_id
      cross join lateral jsonb_array_elements(p.fields) f
      cross join lateral jsonb_array_elements_text(
        case jsonb_typeof(b.field_values->(f->>'id'))
          when 'array' then b.field_values->(f->>'id')
          else jsonb_build_array(b.field_values->(f->>'id')) end) as x(v)
      where not b.deleted and b.field_values is not null and b.field_values ? (f->>'id')
        and not coalesce((f->>'removed')::boolean, false)`,
  },
  {
    name: 'bug_status_intervals',
    comment:
      'Every stay of every bug in a status: when it entered, when it left and who moved it there. A bug’s current stay has left_at and seconds NULL. Deleted bugs keep their stays (join analytics.bugs to leave them out).',
    columns: [
      col('bug_id', 'The bug (analytics.bugs.id).'),
      col('status', 'Open, In Progress or Closed.'),
      col('entered_at', 'When the bug entered this status (its report, for the first Open).'),
      col('left_at', 'When it left it, or NULL while it is still there.'),
      col('seconds', 'left_at − entered_at in seconds, or NULL while it is still there.'),
      col('changed_by', 'Who moved it into this status (the reporter for the first Open; analytics.users.id).'),
    ],
    query: `select i.bug_id, i.value, i.entered_at, i.left_at,
        date_part('epoch', i.left_at - i.entered_at), i.entered_by
      from rm.bug_intervals i where i.field = 'status'`,
  },
  {
    name: 'bug_cycle_times',
    comment:
      'One row per bug that is Closed now and not deleted: cycle time runs from its first Open to its last Closed. Severity, priority and module are the current ones.',
    columns: [
      col('bug_id', 'The bug (analytics.bugs.id).'),
      col('severity', 'Minor, Major or Critical.'),
      col('priority', 'Low, Medium or High.'),
      col('module', 'Its module, or NULL.'),
      col('first_open_at', 'When it was first Open (normally its report).'),
      col('closed_at', 'When it was last moved to Closed.'),
      col('cycle_seconds', 'closed_at − first_open_at, in seconds.'),
      col('reopened', 'How many times it was moved out of Closed.'),
    ],
    query: `select b.id, b.severity, b.priority, b.dto->>'module', s.first_open_at, c.entered_at,
        date_part('epoch', c.entered_at - s.first_open_at), s.reopened::integer
      from rm.bugs b
      join rm.bug_intervals c
        on c.bug_id = b.id and c.field = 'status' and c.value = 'Closed' and c.left_at is null
      cross join lateral (
        select min(x.entered_at) filter (where x.value = 'Open') as first_open_at,
          count(*) filter (where x.value = 'Closed' and x.left_at is not null) as reopened
        from rm.bug_intervals x where x.bug_id = b.id and x.field = 'status'
      ) s
      where not b.deleted and s.first_open_at is not null`,
  },
  {
    name: 'bug_events',
    comment:
      'Every event of every bug, oldest first by position: who did what, when, and what it changed field by field (ids, not names; a report lists every field from null).',
    columns: [
      col('position', 'The event’s place in the whole store (sortable text).'),
      col('bug_id', 'The bug (analytics.bugs.id).'),
      col('revision', 'The event’s number in its bug’s history, from 0.'),
      col('type', 'BugReported, BugStatusChanged, DevelopersAssigned, BugDetailsEdited, ChecklistItemCompleted, …'),
      col('actor_id', 'Who caused it (analytics.users.id), or NULL.'),
      col('occurred_at', 'When it happened.'),
      col('changes', 'JSON array of {field, from, to}: the fields the event changed, before and after.'),
    ],
    query: `select e.position, e.bug_id, e.revision, e.type, e.actor_id, e.occurred_at, e.changes
      from rm.bug_changes e`,
  },
  {
    name: 'comments',
    comment: 'Comments on bugs (never chat messages). Empty until bug comments exist.',
    columns: [
      col('id', 'The comment’s id.'),
      col('bug_id', 'The bug (analytics.bugs.id).'),
      col('author_id', 'Who wrote it (analytics.users.id).'),
      col('body', 'What it says (empty once deleted).'),
      col('created_at', 'When it was written.'),
      col('edited_at', 'When it was last edited, or NULL.'),
      col('deleted', 'True once deleted.'),
    ],
    query: `select null::text, null::text, null::text, null::text, null::timestamptz, null::timestamptz, null::boolean
      where false`,
  },
];

/** Questions analysts ask, answered in one query each (in docs/analytics.md; a test runs them as the analyst). */
export const analyticsExamples: readonly Readonly<{ title: string; sql: string }>[] = [
  {
    title: 'Median time from Open to Closed for Critical bugs closed last month (in hours)',
    sql: `select percentile_cont(0.5) within group (order by cycle_seconds) / 3600 as median_hours, count(*) as bugs
from analytics.bug_cycle_times
where severity = 'Critical'
  and closed_at >= date_trunc('month', now() at time zone 'UTC') at time zone 'UTC' - interval '1 month'
  and closed_at <  date_trunc('month', now() at time zone 'UTC') at time zone 'UTC';`,
  },
  {
    title: 'Open bugs by severity and age',
    sql: `select severity,
       count(*) as open_bugs,
       count(*) filter (where now() - created_at > interval '7 days') as older_than_a_week,
       round((extract(epoch from avg(now() - created_at)) / 86400)::numeric, 1) as mean_age_days
from analytics.bugs
where not deleted and status <> 'Closed'
group by severity
order by array_position(array['Critical', 'Major', 'Minor'], severity);`,
  },
  {
    title: 'Cycle time per module (median and 85th percentile, in days)',
    sql: `select coalesce(module, '(none)') as module,
       count(*) as closed_bugs,
       round((percentile_cont(0.5) within group (order by cycle_seconds) / 86400)::numeric, 2) as median_days,
       round((percentile_cont(0.85) within group (order by cycle_seconds) / 86400)::numeric, 2) as p85_days
from analytics.bug_cycle_times
group by module
order by median_days desc;`,
  },
  {
    title: 'A developer’s throughput per week (bugs they moved to Closed)',
    sql: `select to_char(i.entered_at at time zone 'UTC', 'IYYY-"W"IW') as week, u.name, count(*) as closed
from analytics.bug_status_intervals i
join analytics.users u on u.id = i.changed_by
join analytics.bugs b on b.id = i.bug_id and not b.deleted
where i.status = 'Closed' and u.role = 'developer'
group by week, u.name
order by week, u.name;`,
  },
];
