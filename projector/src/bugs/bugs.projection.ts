import {
  type BugDto,
  type BugState,
  bugAudience,
  bugEventSchemas,
  bugKey,
  defaultRank,
  eventsOf,
  evolveBugWith,
  evolveFields,
  type FieldDef,
  type FieldValues,
  generalProject,
  type LabelRef,
  legacyProjectId,
  noCodeLinks,
  type ProjectRef,
  parseBugKey,
  type ReportedBug,
  statesOr,
  toBugDto,
  type UserRef,
  type WorkEntry,
  type WorkflowState,
} from '@bugtrail/domain';
import type { RecordedEvent } from '@bugtrail/eventstore';
import { type Insertable, type Kysely, type Selectable, sql, type Transaction } from 'kysely';
import { fieldSortRows, MISSING_SORT_KEY } from '../projects/field-sort.js';
import type { BulkWriter } from '../runtime/copy.js';
import { bugsBornIn, type Projection } from '../runtime/projection.js';
import type { ReadModelDb } from '../schema.js';
import { slaTopic } from '../sla/sla.queries.js';
import { bugsShowing, linksOfEntries, writeRelations } from './bug-links.js';
import {
  createSlaTables,
  foldSlaPolicies,
  livePolicies,
  loadPolicies,
  recomputeSla,
  slaColumns,
  slaPolicyEventTypes,
  tellBreaches,
  toldKey,
} from './bug-sla.js';
import { bugsTopic, bugTopic } from './bug-topics.js';
import type { BugKeysTable, BugsTable, BugUsersTable, FileKeys } from './bugs.tables.js';

const BUG_EVENT_TYPES: ReadonlySet<string> = new Set(Object.keys(bugEventSchemas));

type Person = { name: string; profileImageURL: string | null };
/** A project as its bugs' answers show it: its key and name, and its custom fields (removed ones flagged). */
type ProjectLabel = Pick<ProjectRef, 'key' | 'name'> & {
  fields: readonly FieldDef[];
  states: readonly WorkflowState[];
};

/** What a batch knows of one bug: as stored before the batch, and as folded so far. */
type Entry = {
  id: string;
  before: BugState;
  state: BugState;
  revision: number;
  /** Events of this bug in the batch (false: only a name it shows changed). */
  changed: boolean;
  /** It has a row already. */
  stored: boolean;
  /** The SLA breaches told of it (bug-sla.ts). */
  told: string[];
};

type StoredRow = Pick<
  Selectable<BugsTable>,
  | 'id'
  | 'dto'
  | 'deleted'
  | 'revision'
  | 'file_keys'
  | 'parent_id'
  | 'label_ids'
  | 'field_values'
  | 'state_id'
  | 'worklog'
  | 'sla_told'
>;
/** A row as written (as JSON, so the domain's readonly arrays go as they are): all but the generated search vector. */
type BugRow = Omit<Insertable<BugsTable>, 'search' | 'assignee_ids'> & { assignee_ids: readonly string[] };
type Tx = Transaction<ReadModelDb>;

/**
 * The domain state back from a stored row: the DTO holds every field of it (ids
 * beside names), so the row keeps no second copy (a wider row would be compressed
 * out of line by TOAST on every write, halving rebuild speed). The one exception is
 * where each file's bytes are (`file_keys`, null for a bug without files): never
 * answered, so never in the DTO.
 */
export function stateFromRow(
  dto: BugDto,
  deleted: boolean,
  fileKeys: FileKeys | null = null,
  parentId: string | null = null,
  labelIds: readonly string[] | null = null,
  fieldValues: FieldValues | null = null,
  stateId: string | null = null,
  worklog: readonly WorkEntry[] | null = null,
): ReportedBug {
  const projectNumber = dto.key ? (parseBugKey(dto.key)?.number ?? null) : null;
  return {
    kind: 'reported',
    id: dto._id,
    number: dto.number ?? null,
    projectId: dto.projectId ?? legacyProjectId,
    projectNumber,
    title: dto.title,
    description: dto.description,
    priority: dto.priority,
    severity: dto.severity,
    status: dto.status,
    module: dto.module,
    dueDate: dto.dueDate,
    reporterId: dto.createdBy._id,
    assigneeIds: dto.assignedTo.map((u) => u._id),
    checklist: dto.checklist.map((i) => ({
      id: i._id,
      text: i.text,
      completed: i.completed,
      completedBy: i.completedBy?._id ?? null,
      completedAt: i.completedAt,
    })),
    attachments: [...dto.attachments],
    files: (dto.files ?? []).map((f) => ({
      id: f._id,
      key: fileKeys?.[f._id] ?? '',
      name: f.name,
      size: f.size,
      contentType: f.contentType,
    })),
    code: dto.code ?? noCodeLinks,
    deleted,
    archived: dto.archived ?? false,
    // The row keeps every label the events put on, deleted ones too (the answer shows the others).
    labelIds: labelIds ?? (dto.labels ?? []).map((l) => l._id),
    rank: dto.rank === undefined || dto.rank === defaultRank(projectNumber) ? null : dto.rank,
    // The row keeps it: a deleted parent leaves the answer, not the bug's own fact.
    parentId,
    milestoneId: dto.milestoneId ?? null,
    // The row keeps them by field and option id (the answer shows keys and names).
    fieldValues: fieldValues ?? {},
    // The row keeps the state it chose (the answer shows the one it is in).
    stateId,
    estimate: dto.estimate ?? null,
    // The row keeps the entries (a deleted one's minutes leave the total).
    worklog: worklog ?? [],
    respondedAt: dto.respondedAt ?? null,
    resolvedAt: dto.resolvedAt ?? null,
    createdAt: dto.createdAt,
    updatedAt: dto.updatedAt,
  };
}

const live = (s: BugState): s is ReportedBug => s.kind === 'reported' && !s.deleted;
/** What the counters count: live bugs that are not archived. */
const counted = (s: BugState): s is ReportedBug => live(s) && !s.archived;

/** Each file's blob key by file id; null when the bug has no files. */
const fileKeysOf = (s: ReportedBug): FileKeys | null =>
  s.files.length > 0 ? Object.fromEntries(s.files.map((f) => [f.id, f.key])) : null;

/** Who may see the bug (besides those who see every bug): the topic's audience (ADR 004). */
const audienceOf = (s: BugState): string[] => (s.kind === 'reported' ? bugAudience(s) : []);

/** The project a bug was in (none before its report). */
const projectsOf = (s: BugState): string[] => (s.kind === 'reported' ? [s.projectId] : []);

const peopleOf = (s: ReportedBug): string[] => [
  ...new Set([s.reporterId, ...s.assigneeIds, ...s.checklist.flatMap((i) => (i.completedBy ? [i.completedBy] : []))]),
];

/**
 * The counter keys one live bug adds 1 to: every scope it is in × every dimension; in its
 * project's scope, also each select option it holds by status (dim `field`, value
 * `<field id>/<option id>/<status>`: a list filtered by one option counts from these).
 */
function counterKeys(s: ReportedBug, fields: readonly FieldDef[] = []): string[] {
  const scopes = [
    '*',
    `project:${s.projectId}`,
    `reporter:${s.reporterId}`,
    ...s.assigneeIds.map((a) => `assignee:${a}`),
  ];
  const keys: string[] = [];
  for (const scope of scopes) {
    keys.push(`${scope}\u0000status\u0000${s.status}`);
    keys.push(`${scope}\u0000severity\u0000${s.severity}`);
    keys.push(`${scope}\u0000priority\u0000${s.priority}`);
  }
  for (const field of fields) {
    const value = s.fieldValues[field.id];
    const options =
      field.type === 'select' && typeof value === 'string'
        ? [value]
        : field.type === 'multi_select' && Array.isArray(value)
          ? value
          : [];
    for (const option of options) keys.push(`project:${s.projectId}\u0000field\u0000${field.id}/${option}/${s.status}`);
  }
  return keys;
}

const t = (schema: string, table: string) => sql.id(schema, table);

/** What a batch reads of a stored bug (StoredRow): the answer and the facts it keeps beside it. */
const STORED = sql.raw(
  'id, dto, deleted, revision, file_keys, parent_id, label_ids, field_values, state_id, worklog, sla_told',
);

/**
 * Bugs: one row per bug (filter/sort columns and the DTO with names), the
 * dashboard counters per scope (kept by per-batch deltas, so a dashboard costs the
 * same at 1k and 1M bugs) and the names the DTOs show. Per batch: load the touched
 * rows once, fold the domain's evolveBug in memory, write each row once.
 */
export const bugsProjection: Projection = {
  name: 'bugs',
  // 4: DTOs carry `code` (commits and pull requests).
  // 5: GIN indexes on people and assignees without fastupdate (existing tables had a pending list).
  // 6: the open bugs with a due date have an index of their own (the due reminders' minute-ly look).
  // 7: archived bugs (a column, out of the counters).
  // 8: projects (issue 35): each bug's project and key, the projects' names, every key a bug has had.
  // 9: labels and board ranks (issue 36).
  // 10: relations, sub-bugs and milestones (issue 36).
  // 11: custom field values, workflow states and time (issue 37): `field_values` by field id, the state a
  //     bug chose, its worklog entries, the projects' fields and states beside their names.
  // 12: lists sorted by a custom field read `bug_field_sort` in order; `project:{id}` counters count
  //     each select option too (a list filtered by one answers its total without a count).
  // 13: SLA policies (issue 38): each bug's `sla` under the policy that holds for it, and when it is
  //     breached, at risk, and has a breach to tell; `respondedAt` and `resolvedAt` in the DTO.
  version: 13,
  tables: [
    'bugs',
    'bug_counters',
    'bug_users',
    'bug_projects',
    'bug_keys',
    'labels',
    'bug_links',
    'bug_field_sort',
    'sla_policies',
  ],

  async createTables(db: Kysely<ReadModelDb>, schema: string) {
    await sql`create table ${t(schema, 'bugs')} (
      id text primary key,
      number int,
      project_id text not null,
      reporter_id text not null,
      assignee_ids text[] not null,
      people text[] not null,
      status text not null,
      priority text not null,
      severity text not null,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      deleted boolean not null,
      archived boolean not null default false,
      label_ids text[] not null default '{}',
      rank text collate "C" not null,
      parent_id text,
      milestone_id text,
      revision int not null,
      dto jsonb not null,
      file_keys jsonb,
      field_values jsonb,
      state_id text,
      worklog jsonb,
      sla_policy_id text,
      sla_breached_at timestamptz,
      sla_risk_at timestamptz,
      sla_tell_at timestamptz,
      sla_told text[],
      search tsvector generated always as (
        to_tsvector('english', coalesce(dto->>'title', '') || ' ' || coalesce(dto->>'description', ''))
      ) stored
    )`.execute(db);
    // Renames find the bugs that show a person: `apply` reads this one, at every user event. Without
    // fastupdate: GIN's pending list (up to 4 MB of entries not yet merged) is read whole by every
    // scan, which made each new user's batch cost milliseconds after a bulk of reports.
    await sql`create index ${sql.id(`${schema}_bugs_people`)} on ${t(schema, 'bugs')} using gin (people) with (fastupdate = off)`.execute(
      db,
    );
    await sql`create table ${t(schema, 'bug_counters')} (
      scope text not null,
      dim text not null,
      value text not null,
      n int not null,
      primary key (scope, dim, value)
    )`.execute(db);
    await sql`create table ${t(schema, 'bug_users')} (
      id text primary key,
      name text not null,
      profile_image_url text
    )`.execute(db);
    // Relations both ways: each bug names it its way (bug-links.ts).
    await sql`create table ${t(schema, 'bug_links')} (
      bug_id text not null,
      other_id text not null,
      type text not null,
      primary key (bug_id, other_id, type)
    )`.execute(db);
    // Every label, deleted ones too (flagged): GET /api/labels, and the names and colours bug answers show.
    await sql`create table ${t(schema, 'labels')} (
      id text primary key,
      name text not null,
      color text not null,
      description text not null,
      deleted boolean not null default false,
      created_at timestamptz not null
    )`.execute(db);
    await sql`create table ${t(schema, 'bug_projects')} (
      id text primary key,
      key text not null,
      name text not null,
      fields jsonb not null default '[]',
      states jsonb not null default '[]'
    )`.execute(db);
    // A list sorted by a custom field walks (field, key) in order: a row per live field of each bug's project.
    await sql`create table ${t(schema, 'bug_field_sort')} (
      bug_id text not null,
      field_id text not null,
      sort_key text collate "C" not null,
      primary key (bug_id, field_id)
    )`.execute(db);
    await createSlaTables(db, schema);
    // By-key lookups read it, and so does a project's new key (which bugs to relabel): a key, not an index.
    await sql`create table ${t(schema, 'bug_keys')} (
      project_id text not null,
      number int not null,
      bug_id text not null,
      primary key (project_id, number)
    )`.execute(db);
  },

  /** The lists' orders and filters, numbers and search: readers' indexes only. */
  async createIndexes(db: Kysely<ReadModelDb>, schema: string) {
    const index = (name: string) => sql.id(`${schema}_${name}`);
    await sql`create index ${index('bugs_newest')} on ${t(schema, 'bugs')} (created_at desc, id desc) where not deleted`.execute(
      db,
    );
    await sql`create index ${index('bugs_project')} on ${t(schema, 'bugs')} (project_id, created_at desc, id desc) where not deleted`.execute(
      db,
    );
    // A person's counts less their bugs in private projects they are no member of (countBugs): a probe, not their rows.
    await sql`create index ${index('bugs_reporter_project')} on ${t(schema, 'bugs')} (reporter_id, project_id) where not deleted`.execute(
      db,
    );
    await sql`create index ${index('bugs_reporter')} on ${t(schema, 'bugs')} (reporter_id, created_at desc, id desc) where not deleted`.execute(
      db,
    );
    // A developer's list reads this at every page: no pending list to read through (see bugs_people).
    await sql`create index ${index('bugs_assignees')} on ${t(schema, 'bugs')} using gin (assignee_ids) with (fastupdate = off) where not deleted`.execute(
      db,
    );
    // Lists filtered by labels (all must match): `label_ids @> array[...]`; deleted bugs too, as a
    // renamed label's bugs are all written again (a deleted one's row keeps answering as the others).
    await sql`create index ${index('bugs_labels')} on ${t(schema, 'bugs')} using gin (label_ids) with (fastupdate = off)`.execute(
      db,
    );
    // A bug's sub-bugs (its counts), and the sub-bugs to write again when their parent changes.
    await sql`create index ${index('bugs_parent')} on ${t(schema, 'bugs')} (parent_id) where parent_id is not null`.execute(
      db,
    );
    // A milestone's bugs and its progress.
    await sql`create index ${index('bugs_milestone')} on ${t(schema, 'bugs')} (milestone_id, status) where milestone_id is not null and not deleted`.execute(
      db,
    );
    // Lists filtered by a custom field's value (`field_values @> '{"<field id>": value}'`), and the
    // bugs to write again when a field or an option is renamed or removed.
    await sql`create index ${index('bugs_field_values')} on ${t(schema, 'bugs')} using gin (field_values jsonb_path_ops) with (fastupdate = off) where field_values is not null`.execute(
      db,
    );
    await sql`create index ${index('bug_field_sort_order')} on ${t(schema, 'bug_field_sort')} (field_id, sort_key, bug_id)`.execute(
      db,
    );
    // A board's column: a project's bugs of one status in rank order.
    await sql`create index ${index('bugs_board')} on ${t(schema, 'bugs')} (project_id, status, rank, id) where not deleted and not archived`.execute(
      db,
    );
    // The breach clock looks, every few seconds, for bugs with a breach to tell by now.
    await sql`create index ${index('bugs_sla_tell')} on ${t(schema, 'bugs')} (sla_tell_at) where sla_tell_at is not null and not deleted`.execute(
      db,
    );
    // Not unique: write-api never gives a number twice, and a projection must not stop on an event it cannot change.
    await sql`create index ${index('bugs_number')} on ${t(schema, 'bugs')} (number)`.execute(db);
    await sql`create index ${index('bugs_search')} on ${t(schema, 'bugs')} using gin (search) where not deleted`.execute(
      db,
    );
    // The due reminders look every minute for open bugs due soon (DueReminders.runOnce, same
    // predicate): without it, a scan of every DTO, 95 ms at 100k bugs, growing with the table.
    await sql`create index ${index('bugs_due')} on ${t(schema, 'bugs')} (id)
      where dto->>'dueDate' is not null and not deleted and status <> 'Closed'`.execute(db);
  },

  async apply(events: readonly RecordedEvent[], { db, schema, topics, copy }) {
    const bugEvents: RecordedEvent[] = [];
    for (const e of events) if (BUG_EVENT_TYPES.has(e.type)) bugEvents.push(e);
    const userEvents = eventsOf(events, 'UserRegistered', 'ProfileUpdated');
    const projectEvents = eventsOf(events, 'ProjectCreated', 'ProjectRenamed', 'ProjectKeyChanged');
    const fieldEvents = eventsOf(
      events,
      'ProjectFieldAdded',
      'ProjectFieldChanged',
      'ProjectFieldRemoved',
      'ProjectStatesSet',
    );
    const labelEvents = eventsOf(events, 'LabelCreated', 'LabelChanged', 'LabelDeleted');
    const policyEvents = eventsOf(events, ...slaPolicyEventTypes);
    const breachEvents = eventsOf(events, 'BugSlaBreached');
    if (
      policyEvents.length === 0 &&
      breachEvents.length === 0 &&
      bugEvents.length === 0 &&
      userEvents.length === 0 &&
      projectEvents.length === 0 &&
      labelEvents.length === 0 &&
      fieldEvents.length === 0
    )
      return;

    // 0b. Labels: the batch's last word on each; the bugs of one renamed, recoloured or deleted show it.
    const labels = new Map<string, StoredLabel>();
    const relabelledLabels = await foldLabels(db, schema, labels, labelEvents);
    if (labelEvents.length > 0) topics.add('labels');

    // 0a. SLA policies: every one (a handful), the batch's folded in; which projects' bugs they may change.
    const policies = await loadPolicies(db, schema);
    const rescoped = await foldSlaPolicies(db, schema, policies, policyEvents);
    if (policyEvents.length > 0) topics.add(slaTopic);
    const live = livePolicies(policies);

    // 0. Projects' keys and names: the batch's last word on each (its bugs show it), and which changed.
    const projects = new Map<string, ProjectLabel>();
    const relabelled = await foldProjectLabels(db, schema, projects, projectEvents);
    // 0c. Custom fields and states: the bugs that hold a value of a field renamed in its options, or
    // removed, and those in a state renamed or removed (or a category's first state changed), show it.
    const { refielded, restated } = await foldProjectFields(db, schema, projects, fieldEvents);

    // 1. Names: fold the batch's user events over the stored names.
    const people = new Map<string, Person>();
    const renamed = new Set<string>();
    if (userEvents.length > 0) {
      // A registration names its person whole; only a profile update merges into the stored name.
      const updatedIds = userEvents.filter((e) => e.type === 'ProfileUpdated').map((e) => e.data.userId);
      await loadPeople(db, schema, people, updatedIds);
      for (const e of userEvents) {
        if (e.type === 'UserRegistered') {
          const d = e.data;
          people.set(d.userId, { name: d.name, profileImageURL: d.profileImageURL });
        } else {
          const d = e.data;
          const p = people.get(d.userId);
          if (!p) continue;
          people.set(d.userId, {
            name: d.name ?? p.name,
            profileImageURL: d.profileImageURL === undefined ? p.profileImageURL : d.profileImageURL,
          });
        }
        renamed.add(e.data.userId);
      }
      const rows = [...renamed].flatMap((id) => {
        const p = people.get(id);
        return p ? [{ id, name: p.name, profile_image_url: p.profileImageURL }] : [];
      });
      if (rows.length > 0) {
        await sql`insert into ${t(schema, 'bug_users')} (id, name, profile_image_url)
          select id, name, profile_image_url
          from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(id text, name text, profile_image_url text)
          on conflict (id) do update set name = excluded.name, profile_image_url = excluded.profile_image_url`.execute(
          db,
        );
      }
    }

    // 2. The touched bugs: those with events, and those that show a renamed person.
    const bugIds = [...new Set(bugEvents.map((e) => (e.data as { bugId: string }).bugId))];
    const entries = new Map<string, Entry>();
    const born = bugsBornIn(bugEvents);
    const stored = bugIds.filter((id) => !born.has(id));
    if (stored.length > 0) {
      const { rows } = await sql<StoredRow>`select ${STORED} from ${t(schema, 'bugs')}
        where id = any(${stored}::text[])`.execute(db);
      for (const row of rows) entries.set(row.id, entryOf(row));
    }
    if (renamed.size > 0) {
      // One index lookup per person: given `people && (a long array)`, the planner guessed thousands
      // of matches and read the whole table (83 ms at 20k bugs for 60 new users; seconds at 272k).
      const { rows } = await sql<StoredRow>`select ${STORED} from ${t(schema, 'bugs')}
        where id = any(array(
            select shown.id from unnest(${[...renamed]}::text[]) as u(person)
            cross join lateral (select id from ${t(schema, 'bugs')} where people @> array[u.person]) shown))
          and not (id = any(${bugIds}::text[]))`.execute(db);
      for (const row of rows) entries.set(row.id, entryOf(row));
    }

    if (relabelledLabels.length > 0) {
      const { rows } = await sql<StoredRow>`select ${STORED} from ${t(schema, 'bugs')}
        where id = any(array(
            select shown.id from unnest(${relabelledLabels}::text[]) as l(label)
            cross join lateral (select id from ${t(schema, 'bugs')} where label_ids @> array[l.label]) shown))
          and not (id = any(${bugIds}::text[]))`.execute(db);
      for (const row of rows) if (!entries.has(row.id)) entries.set(row.id, entryOf(row));
    }

    if (refielded.length > 0) {
      const { rows } = await sql<StoredRow>`select ${STORED} from ${t(schema, 'bugs')}
        where id = any(array(
            select shown.id from jsonb_to_recordset(${JSON.stringify(refielded)}::jsonb) as f(project_id text, field_id text)
            cross join lateral (select id from ${t(schema, 'bugs')}
              where project_id = f.project_id and field_values is not null and field_values ? f.field_id) shown))
          and not (id = any(${bugIds}::text[]))`.execute(db);
      for (const row of rows) if (!entries.has(row.id)) entries.set(row.id, entryOf(row));
    }
    if (restated.length > 0) {
      const { rows } = await sql<StoredRow>`select ${STORED} from ${t(schema, 'bugs')}
        where id = any(array(
            select shown.id from jsonb_to_recordset(${JSON.stringify(restated)}::jsonb) as r(project_id text, state_ids text[], statuses text[])
            cross join lateral (select id from ${t(schema, 'bugs')}
              where project_id = r.project_id and (dto->'state'->>'_id' = any(r.state_ids) or status = any(r.statuses))) shown))
          and not (id = any(${bugIds}::text[]))`.execute(db);
      for (const row of rows) if (!entries.has(row.id)) entries.set(row.id, entryOf(row));
    }

    // 3. Fold; every place a bug takes (a report, a move, an old bug's number) is a key of it for good.
    const keys: BugKeysTable[] = [];
    for (const e of bugEvents) {
      const id = (e.data as { bugId: string }).bugId;
      let entry = entries.get(id);
      if (!entry) {
        entry = {
          id,
          before: { kind: 'empty' },
          state: { kind: 'empty' },
          revision: -1,
          changed: true,
          stored: false,
          told: [],
        };
        entries.set(id, entry);
      }
      const was = entry.state;
      entry.state = evolveBugWith(entry.state, e);
      const now = entry.state;
      if (
        now.kind === 'reported' &&
        now.projectNumber !== null &&
        (was.kind !== 'reported' || was.projectId !== now.projectId || was.projectNumber !== now.projectNumber)
      ) {
        keys.push({ project_id: now.projectId, number: now.projectNumber, bug_id: now.id });
      }
      entry.revision = e.revision;
      entry.changed = true;
    }

    // 3a. Breaches told: kept on the bug's row (the clock tells the next one, not this one again).
    const toldElsewhere = new Map<string, string[]>();
    for (const e of breachEvents) {
      const entry = entries.get(e.data.bugId);
      if (entry) entry.told = [...new Set([...entry.told, toldKey(e)])];
      else toldElsewhere.set(e.data.bugId, [...(toldElsewhere.get(e.data.bugId) ?? []), toldKey(e)]);
    }

    // 3b. Relations: written both ways; the bugs that show a changed bug (related, parent, sub-bugs) are written again.
    const ends = await writeRelations(db, schema, bugEvents);
    const parents: string[] = [];
    for (const id of bugIds) {
      const entry = entries.get(id);
      for (const s of [entry?.before, entry?.state]) if (s?.kind === 'reported' && s.parentId) parents.push(s.parentId);
    }
    const showing = await bugsShowing(db, schema, [...new Set([...bugIds, ...ends])], parents, relabelled);
    const toLoad = [...new Set([...ends, ...showing])].filter((id) => !entries.has(id));
    // Written again only because they show another bug: a change there is news to those who see that bug.
    const showingOnly = new Set(toLoad);
    if (toLoad.length > 0) {
      const { rows } = await sql<StoredRow>`select ${STORED} from ${t(schema, 'bugs')}
        where id = any(${toLoad}::text[])`.execute(db);
      for (const row of rows) entries.set(row.id, entryOf(row));
    }

    // 4. Names every DTO needs that the batch does not know yet.
    const needed = new Set<string>();
    for (const entry of entries.values()) {
      if (entry.state.kind !== 'reported') continue;
      for (const id of peopleOf(entry.state)) if (!people.has(id)) needed.add(id);
    }
    await loadPeople(db, schema, people, [...needed]);
    const lookup = (id: string): UserRef | undefined => {
      const p = people.get(id);
      return p ? { id, name: p.name, profileImageURL: p.profileImageURL } : undefined;
    };
    const neededProjects = new Set<string>();
    for (const entry of entries.values())
      for (const projectId of [...projectsOf(entry.before), ...projectsOf(entry.state)]) neededProjects.add(projectId);
    await loadProjectLabels(db, schema, projects, [...neededProjects]);
    const projectLabel = (id: string) => projects.get(id);
    const setupOf = (id: string) => projects.get(id);
    const neededLabels = new Set<string>();
    for (const entry of entries.values())
      if (entry.state.kind === 'reported') for (const id of entry.state.labelIds) neededLabels.add(id);
    await loadLabels(db, schema, labels, [...neededLabels]);
    const labelShown = (id: string) => {
      const label = labels.get(id);
      return label && !label.deleted ? label : undefined;
    };

    // Undefined: a project the batch does not know (a linked bug's row then says its key).
    const keyOf = (projectId: string, projectNumber: number | null) => {
      const key = projectLabel(projectId)?.key ?? (projectId === legacyProjectId ? generalProject.key : undefined);
      return key === undefined ? undefined : bugKey(key, projectNumber);
    };
    const linksOf = await linksOfEntries(db, schema, entries, keyOf);

    // 5. Rows and counter deltas.
    const fresh: BugRow[] = [];
    const known: BugRow[] = [];
    const touchedProjects = new Set<string>();
    const causes = new Set<string>(relabelled);
    for (const entry of entries.values()) {
      if (!entry.changed) continue;
      for (const projectId of [...projectsOf(entry.before), ...projectsOf(entry.state)]) causes.add(projectId);
    }
    const deltas = new Map<string, number>();
    const bump = (keys: string[], by: number) => {
      for (const k of keys) deltas.set(k, (deltas.get(k) ?? 0) + by);
    };
    for (const entry of entries.values()) {
      const s = entry.state;
      if (s.kind !== 'reported') continue;
      const dto = toBugDto(s, entry.revision, lookup, projectLabel, labelShown, linksOf(s.id), setupOf, live);
      (entry.stored ? known : fresh).push({
        id: s.id,
        number: s.number,
        project_id: s.projectId,
        reporter_id: s.reporterId,
        assignee_ids: s.assigneeIds,
        people: peopleOf(s),
        status: s.status,
        priority: s.priority,
        severity: s.severity,
        created_at: s.createdAt,
        updated_at: s.updatedAt,
        deleted: s.deleted,
        archived: s.archived,
        label_ids: [...s.labelIds],
        rank: dto.rank,
        parent_id: s.parentId,
        milestone_id: s.milestoneId,
        revision: entry.revision,
        dto,
        file_keys: fileKeysOf(s),
        field_values: Object.keys(s.fieldValues).length > 0 ? s.fieldValues : null,
        state_id: s.stateId,
        worklog: s.worklog.length > 0 ? [...s.worklog] : null,
        ...slaColumns(dto.sla, s.createdAt, entry.told, policies),
      });
      if (entry.changed) {
        const before = entry.before;
        if (counted(before)) bump(counterKeys(before, setupOf(before.projectId)?.fields), -1);
        if (counted(s)) bump(counterKeys(s, setupOf(s.projectId)?.fields), +1);
      }
      // A bug that only shows a changed one: its topic names the changed bugs' projects, so one who
      // cannot see them hears nothing (their answer of this bug did not change: the link is left out).
      const inProjects = showingOnly.has(s.id) ? [...causes] : [...projectsOf(entry.before), s.projectId];
      topics.add(bugTopic(s.id, [...audienceOf(entry.before), ...audienceOf(s)], inProjects));
      for (const projectId of inProjects) touchedProjects.add(projectId);
    }
    if (fresh.length + known.length > 0) {
      topics.add(bugsTopic(touchedProjects));
      await writeRows(db, schema, fresh, known, copy);
      await writeFieldSortRows(db, schema, [...fresh, ...known], known, (id) => setupOf(id)?.fields ?? []);
    }
    await writeKeys(db, schema, keys);
    if (relabelled.length > 0 && (await relabelBugs(db, schema, relabelled, projects)) > 0) {
      topics.add(bugsTopic(relabelled));
    }
    await writeCounters(db, schema, deltas);
    await tellBreaches(db, schema, toldElsewhere, policies);
    // A policy changed: every bug it may hold for meets the policies as they are now.
    const resla = await recomputeSla(db, schema, rescoped, policies, (row) =>
      stateFromRow(row.dto, false, null, null, row.label_ids, row.field_values),
    );
    if (resla.size > 0) topics.add(bugsTopic(resla));
  },
};

/**
 * Folds the batch's project events over the stored keys and names (into `projects`, written
 * back); answers the projects whose key or name changed, whose bugs' answers must follow.
 */
async function foldProjectLabels(
  db: Tx,
  schema: string,
  projects: Map<string, ProjectLabel>,
  projectEvents: readonly { type: string; data: { projectId: string; key?: string; name?: string } }[],
): Promise<string[]> {
  if (projectEvents.length === 0) return [];
  const ids = [...new Set(projectEvents.map((e) => e.data.projectId))];
  await loadProjectLabels(db, schema, projects, ids);
  const before = new Map(ids.map((id) => [id, projects.get(id)]));
  for (const e of projectEvents) {
    const current = projects.get(e.data.projectId);
    const key = e.data.key ?? current?.key;
    const name = e.data.name ?? current?.name;
    if (key !== undefined && name !== undefined) {
      projects.set(e.data.projectId, { key, name, fields: current?.fields ?? [], states: current?.states ?? [] });
    }
  }
  const changed = ids.filter((id) => {
    const was = before.get(id);
    const now = projects.get(id);
    return now !== undefined && (was?.key !== now.key || was?.name !== now.name);
  });
  if (changed.length > 0) {
    const rows = changed.map((id) => ({ id, key: projects.get(id)!.key, name: projects.get(id)!.name }));
    await sql`insert into ${t(schema, 'bug_projects')} (id, key, name)
      select id, key, name from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(id text, key text, name text)
      on conflict (id) do update set key = excluded.key, name = excluded.name`.execute(db);
  }
  return changed;
}

type FieldEventOf =
  | (Parameters<typeof evolveFields>[1] & { data: { projectId: string } })
  | { type: 'ProjectStatesSet'; data: { projectId: string; states: WorkflowState[] } };

/**
 * Folds the batch's field and state events over each project's stored ones (written back);
 * answers the fields whose values bugs show differently now (an option renamed or removed, the
 * field removed), and per project the states and categories whose bugs show another state now.
 */
async function foldProjectFields(
  db: Tx,
  schema: string,
  projects: Map<string, ProjectLabel>,
  fieldEvents: readonly { type: string; data: unknown }[],
): Promise<{
  refielded: { project_id: string; field_id: string }[];
  restated: { project_id: string; state_ids: string[]; statuses: string[] }[];
}> {
  if (fieldEvents.length === 0) return { refielded: [], restated: [] };
  const typed = fieldEvents as readonly FieldEventOf[];
  const ids = [...new Set(typed.map((e) => e.data.projectId))];
  await loadProjectLabels(db, schema, projects, ids);
  const refielded: { project_id: string; field_id: string }[] = [];
  const restated = new Map<string, { state_ids: Set<string>; statuses: Set<string> }>();
  for (const e of typed) {
    // A project's fields follow its creation (the stream's order): General's row may not exist yet in a rebuild.
    const project = projects.get(e.data.projectId) ?? { key: '', name: '', fields: [], states: [] };
    if (e.type === 'ProjectStatesSet') {
      const before = statesOr(project.states);
      const after = statesOr(e.data.states);
      const changed = restated.get(e.data.projectId) ?? { state_ids: new Set<string>(), statuses: new Set<string>() };
      for (const state of before) {
        const now = after.find((s) => s.id === state.id);
        if (!now || now.name !== state.name || now.category !== state.category) changed.state_ids.add(state.id);
      }
      for (const category of ['Open', 'In Progress', 'Closed']) {
        if (before.find((s) => s.category === category)?.id !== after.find((s) => s.category === category)?.id) {
          changed.statuses.add(category);
        }
      }
      restated.set(e.data.projectId, changed);
      projects.set(e.data.projectId, { ...project, states: e.data.states });
      continue;
    }
    projects.set(e.data.projectId, { ...project, fields: evolveFields(project.fields, e) });
    if (e.type === 'ProjectFieldRemoved' || (e.type === 'ProjectFieldChanged' && e.data.options)) {
      refielded.push({ project_id: e.data.projectId, field_id: e.data.fieldId });
    }
    // A new field: every bug of the project has no value yet (its sorted lists put them last); a removed one sorts nothing.
    if (e.type === 'ProjectFieldAdded') {
      await sql`insert into ${t(schema, 'bug_field_sort')} (bug_id, field_id, sort_key)
        select id, ${e.data.fieldId}, ${MISSING_SORT_KEY} from ${t(schema, 'bugs')} where project_id = ${e.data.projectId}
        on conflict (bug_id, field_id) do nothing`.execute(db);
    } else if (e.type === 'ProjectFieldRemoved') {
      await sql`delete from ${t(schema, 'bug_field_sort')} where field_id = ${e.data.fieldId}`.execute(db);
    }
  }
  const rows = ids.map((id) => ({ id, ...projects.get(id)! }));
  await sql`insert into ${t(schema, 'bug_projects')} (id, key, name, fields, states)
    select id, key, name, fields, states from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
      as x(id text, key text, name text, fields jsonb, states jsonb)
    on conflict (id) do update set fields = excluded.fields, states = excluded.states`.execute(db);
  return {
    refielded,
    restated: [...restated].map(([project_id, c]) => ({
      project_id,
      state_ids: [...c.state_ids],
      statuses: [...c.statuses],
    })),
  };
}

type StoredLabel = Pick<LabelRef, 'name' | 'color'> & { description: string; deleted: boolean; createdAt: string };

/**
 * Folds the batch's label events over the stored labels (into `labels`, written back); answers
 * the labels whose bugs must show a change (a new name or colour, or gone).
 */
async function foldLabels(
  db: Tx,
  schema: string,
  labels: Map<string, StoredLabel>,
  labelEvents: readonly { type: string; data: unknown; metadata: { occurredAt: string } }[],
): Promise<string[]> {
  if (labelEvents.length === 0) return [];
  const typed = labelEvents as readonly LabelEventOf[];
  const ids = [...new Set(typed.map((e) => e.data.labelId))];
  await loadLabels(db, schema, labels, ids);
  const shown = new Map(ids.map((id) => [id, shownOf(labels.get(id))]));
  for (const e of typed) {
    const current = labels.get(e.data.labelId);
    if (e.type === 'LabelCreated') {
      const { name, color, description } = e.data;
      labels.set(e.data.labelId, { name, color, description, deleted: false, createdAt: e.metadata.occurredAt });
    } else if (current && e.type === 'LabelChanged') {
      labels.set(e.data.labelId, {
        ...current,
        name: e.data.name ?? current.name,
        color: e.data.color ?? current.color,
        description: e.data.description ?? current.description,
      });
    } else if (current && e.type === 'LabelDeleted') {
      labels.set(e.data.labelId, { ...current, deleted: true });
    }
  }
  const rows = ids.flatMap((id) => {
    const label = labels.get(id);
    return label
      ? [
          {
            id,
            name: label.name,
            color: label.color,
            description: label.description,
            deleted: label.deleted,
            created_at: label.createdAt,
          },
        ]
      : [];
  });
  if (rows.length > 0) {
    await sql`insert into ${t(schema, 'labels')} (id, name, color, description, deleted, created_at)
      select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
        as x(id text, name text, color text, description text, deleted boolean, created_at timestamptz)
      on conflict (id) do update set name = excluded.name, color = excluded.color,
        description = excluded.description, deleted = excluded.deleted`.execute(db);
  }
  return ids.filter((id) => shown.get(id) !== shownOf(labels.get(id)));
}

type LabelEventOf =
  | {
      type: 'LabelCreated';
      data: { labelId: string; name: string; color: string; description: string };
      metadata: { occurredAt: string };
    }
  | {
      type: 'LabelChanged';
      data: { labelId: string; name?: string; color?: string; description?: string };
      metadata: { occurredAt: string };
    }
  | { type: 'LabelDeleted'; data: { labelId: string }; metadata: { occurredAt: string } };

/** What a bug's answer shows of a label: its name and colour, or nothing once deleted. */
const shownOf = (label: StoredLabel | undefined) =>
  label && !label.deleted ? `${label.name}\u0000${label.color}` : '';

async function loadLabels(db: Tx, schema: string, into: Map<string, StoredLabel>, ids: string[]) {
  const missing = ids.filter((id) => !into.has(id));
  if (missing.length === 0) return;
  const { rows } = await sql<{
    id: string;
    name: string;
    color: string;
    description: string;
    deleted: boolean;
    created_at: Date;
  }>`select id, name, color, description, deleted, created_at from ${t(schema, 'labels')} where id = any(${missing}::text[])`.execute(
    db,
  );
  for (const r of rows) {
    into.set(r.id, {
      name: r.name,
      color: r.color,
      description: r.description,
      deleted: r.deleted,
      createdAt: r.created_at.toISOString(),
    });
  }
}

async function loadProjectLabels(db: Tx, schema: string, into: Map<string, ProjectLabel>, ids: string[]) {
  const missing = ids.filter((id) => !into.has(id));
  if (missing.length === 0) return;
  const { rows } = await sql<{ id: string; key: string; name: string; fields: FieldDef[]; states: WorkflowState[] }>`
    select id, key, name, fields, states from ${t(schema, 'bug_projects')} where id = any(${missing}::text[])`.execute(
    db,
  );
  for (const r of rows) into.set(r.id, { key: r.key, name: r.name, fields: r.fields, states: r.states });
}

/** The keys the batch's bugs took; one already known stays whose it was (a projection never stops on a replay). */
async function writeKeys(db: Tx, schema: string, keys: BugKeysTable[]) {
  if (keys.length === 0) return;
  await sql`insert into ${t(schema, 'bug_keys')} (project_id, number, bug_id)
    select * from unnest(${keys.map((k) => k.project_id)}::text[], ${keys.map((k) => k.number)}::int[], ${keys.map((k) => k.bug_id)}::text[])
    on conflict do nothing`.execute(db);
}

/** A project's new key or name in the answers of its bugs (the batch's own rows have it already). */
async function relabelBugs(db: Tx, schema: string, projectIds: string[], projects: Map<string, ProjectLabel>) {
  const rows = projectIds.map((id) => ({ id, key: projects.get(id)!.key, name: projects.get(id)!.name }));
  const result = await sql`update ${t(schema, 'bugs')} b set dto = b.dto
      || jsonb_build_object('project', jsonb_build_object('_id', x.id, 'key', x.key, 'name', x.name))
      || jsonb_build_object('key', case when b.dto->>'key' is null then null else x.key || '-' || split_part(b.dto->>'key', '-', 2) end)
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(id text, key text, name text)
    where b.project_id = x.id and (b.dto->'project'->>'key' is distinct from x.key or b.dto->'project'->>'name' is distinct from x.name)`.execute(
    db,
  );
  return Number(result.numAffectedRows ?? 0);
}

function entryOf(row: StoredRow): Entry {
  const state = stateFromRow(
    row.dto,
    row.deleted,
    row.file_keys,
    row.parent_id,
    row.label_ids,
    row.field_values,
    row.state_id,
    row.worklog,
  );
  return {
    id: row.id,
    before: state,
    state,
    revision: row.revision,
    changed: false,
    stored: true,
    told: row.sla_told ?? [],
  };
}

async function loadPeople(db: Tx, schema: string, into: Map<string, Person>, ids: string[]) {
  const missing = ids.filter((id) => !into.has(id));
  if (missing.length === 0) return;
  const { rows } = await sql<Selectable<BugUsersTable>>`
    select id, name, profile_image_url from ${t(schema, 'bug_users')} where id = any(${missing}::text[])`.execute(db);
  for (const r of rows) into.set(r.id, { name: r.name, profileImageURL: r.profile_image_url });
}

const ROW_FIELDS = [
  'id',
  'number',
  'project_id',
  'reporter_id',
  'assignee_ids',
  'people',
  'status',
  'priority',
  'severity',
  'created_at',
  'updated_at',
  'deleted',
  'archived',
  'label_ids',
  'rank',
  'parent_id',
  'milestone_id',
  'revision',
  'dto',
  'file_keys',
  'field_values',
  'state_id',
  'worklog',
  'sla_policy_id',
  'sla_breached_at',
  'sla_risk_at',
  'sla_tell_at',
  'sla_told',
];
const ROW_COLUMNS = sql`(${sql.join(ROW_FIELDS.map((field) => sql.id(field)))})`;

const rowsFromJson = (rows: BugRow[]) => sql`
  select id, number, project_id, reporter_id, assignee_ids, people, status, priority, severity, created_at, updated_at, deleted, archived,
    label_ids, rank, parent_id, milestone_id, revision, dto, file_keys, field_values, state_id, worklog,
    sla_policy_id, sla_breached_at, sla_risk_at, sla_tell_at, sla_told
  from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(
    id text, number int, project_id text, reporter_id text, assignee_ids text[], people text[], status text, priority text, severity text,
    created_at timestamptz, updated_at timestamptz, deleted boolean, archived boolean, label_ids text[], rank text, parent_id text, milestone_id text, revision int, dto jsonb,
    file_keys jsonb, field_values jsonb, state_id text, worklog jsonb,
    sla_policy_id text, sla_breached_at timestamptz, sla_risk_at timestamptz, sla_tell_at timestamptz, sla_told text[])`;

/** New bugs are inserted (by COPY in a rebuild), known ones updated: no speculative insertion. */
async function writeRows(db: Tx, schema: string, fresh: BugRow[], known: BugRow[], copy?: BulkWriter) {
  if (copy) {
    await copy(
      'bugs',
      ROW_FIELDS,
      fresh.map((r) => [
        r.id,
        r.number ?? null,
        r.project_id,
        r.reporter_id,
        r.assignee_ids,
        r.people,
        r.status,
        r.priority,
        r.severity,
        r.created_at,
        r.updated_at,
        r.deleted,
        r.archived,
        r.label_ids,
        r.rank,
        r.parent_id ?? null,
        r.milestone_id ?? null,
        r.revision,
        JSON.stringify(r.dto),
        r.file_keys == null ? null : JSON.stringify(r.file_keys),
        r.field_values == null ? null : JSON.stringify(r.field_values),
        r.state_id ?? null,
        r.worklog == null ? null : JSON.stringify(r.worklog),
        r.sla_policy_id ?? null,
        r.sla_breached_at ?? null,
        r.sla_risk_at ?? null,
        r.sla_tell_at ?? null,
        r.sla_told ?? null,
      ]),
    );
  } else if (fresh.length > 0) {
    await sql`insert into ${t(schema, 'bugs')} ${ROW_COLUMNS} ${rowsFromJson(fresh)}`.execute(db);
  }
  if (known.length > 0) {
    await sql`update ${t(schema, 'bugs')} b set
        number = x.number, project_id = x.project_id, reporter_id = x.reporter_id, assignee_ids = x.assignee_ids, people = x.people,
        status = x.status, priority = x.priority, severity = x.severity,
        created_at = x.created_at, updated_at = x.updated_at, deleted = x.deleted, archived = x.archived,
        label_ids = x.label_ids, rank = x.rank, parent_id = x.parent_id, milestone_id = x.milestone_id,
        revision = x.revision, dto = x.dto, file_keys = x.file_keys, field_values = x.field_values,
        state_id = x.state_id, worklog = x.worklog, sla_policy_id = x.sla_policy_id, sla_breached_at = x.sla_breached_at,
        sla_risk_at = x.sla_risk_at, sla_tell_at = x.sla_tell_at, sla_told = x.sla_told
      from (${rowsFromJson(known)}) x where b.id = x.id`.execute(db);
  }
}

/** Each written bug's place in lists sorted by its project's fields: its rows replaced (a move changes them all). */
async function writeFieldSortRows(
  db: Tx,
  schema: string,
  written: readonly BugRow[],
  known: readonly BugRow[],
  fieldsOf: (projectId: string) => readonly FieldDef[],
) {
  if (known.length > 0) {
    await sql`delete from ${t(schema, 'bug_field_sort')} where bug_id = any(${known.map((r) => r.id)}::text[])`.execute(
      db,
    );
  }
  const rows = written.flatMap((r) => fieldSortRows(r.id, fieldsOf(r.project_id), r.field_values ?? {}));
  if (rows.length === 0) return;
  await sql`insert into ${t(schema, 'bug_field_sort')} (bug_id, field_id, sort_key)
    select * from unnest(${rows.map((r) => r.bug_id)}::text[], ${rows.map((r) => r.field_id)}::text[], ${rows.map((r) => r.sort_key)}::text[])
    on conflict (bug_id, field_id) do update set sort_key = excluded.sort_key`.execute(db);
}

async function writeCounters(db: Tx, schema: string, deltas: Map<string, number>) {
  const scopes: string[] = [];
  const dims: string[] = [];
  const values: string[] = [];
  const ns: number[] = [];
  for (const [key, n] of deltas) {
    if (n === 0) continue;
    const [scope, dim, value] = key.split('\u0000') as [string, string, string];
    scopes.push(scope);
    dims.push(dim);
    values.push(value);
    ns.push(n);
  }
  if (scopes.length === 0) return;
  await sql`
    insert into ${t(schema, 'bug_counters')} as c (scope, dim, value, n)
    select * from unnest(${scopes}::text[], ${dims}::text[], ${values}::text[], ${ns}::int[])
    on conflict (scope, dim, value) do update set n = c.n + excluded.n`.execute(db);
  // A count back at zero is no count: rebuilt tables never hold one, so live ones must not.
  // Only a count that went down can be zero now; asking the table needs no answer back.
  const down = scopes.map((_, i) => i).filter((i) => ns[i]! < 0);
  if (down.length > 0) {
    await sql`delete from ${t(schema, 'bug_counters')} c
      using unnest(${down.map((i) => scopes[i]!)}::text[], ${down.map((i) => dims[i]!)}::text[], ${down.map((i) => values[i]!)}::text[])
        as z(scope, dim, value)
      where c.scope = z.scope and c.dim = z.dim and c.value = z.value and c.n = 0`.execute(db);
  }
}
