import { type BugState, bugEventSchemas, bugFieldChanges, evolveBugWith, type ReportedBug } from '@bugtrail/domain';
import type { RecordedEvent } from '@bugtrail/eventstore';
import { type Kysely, sql, type Transaction } from 'kysely';
import type { BulkWriter } from '../runtime/copy.js';
import { bugsBornIn, type Projection } from '../runtime/projection.js';
import type { ReadModelDb } from '../schema.js';
import type { IntervalField } from './flow.tables.js';

const BUG_EVENT_TYPES: ReadonlySet<string> = new Set(Object.keys(bugEventSchemas));

/** The single-valued fields whose stays are kept; assignees are kept one stay per developer. */
const SINGLE_FIELDS = [
  'status',
  'severity',
  'priority',
  'module',
  'project',
  'state',
] as const satisfies readonly IntervalField[];
type SingleField = (typeof SINGLE_FIELDS)[number];

/**
 * A single-valued field's value: the project by its id (issue 35: a move is a new stay); the
 * workflow state as `<project id>/<state id>`, or `<project id>/~<status>` while the bug has
 * chosen none (its category's first state, which flow.queries names by the project's states).
 */
const fieldValue = (s: ReportedBug, field: SingleField): string | null => {
  if (field === 'project') return s.projectId;
  if (field === 'state') return `${s.projectId}/${s.stateId ?? `~${s.status}`}`;
  return s[field];
};

type Tx = Transaction<ReadModelDb>;
const t = (schema: string, table: string) => sql.id(schema, table);

type Entry = {
  id: string;
  state: BugState;
  revision: number;
  reporterId: string | null;
  createdAt: string | null;
  deletedAt: string | null;
  stored: boolean;
};

type IntervalRow = {
  bug_id: string;
  field: IntervalField;
  value: string | null;
  entered_at: string;
  entered_by: string | null;
  entered_revision: number;
  left_at: string | null;
};

type Closure = { bug_id: string; field: IntervalField; value: string | null; left_at: string };

type ChangeRow = {
  position: string;
  bug_id: string;
  revision: number;
  type: string;
  actor_id: string | null;
  occurred_at: string;
  changes: unknown;
};

/** Within one batch: new stays (some already left again), and stays stored earlier that end now. */
class Stays {
  readonly opened: IntervalRow[] = [];
  readonly closures: Closure[] = [];
  /** The stays this batch began and that are still open, by bug (a handful each). */
  private readonly openInBatch = new Map<string, IntervalRow[]>();

  enter(bug: string, field: IntervalField, value: string | null, at: string, by: string | null, revision: number) {
    const row: IntervalRow = {
      bug_id: bug,
      field,
      value,
      entered_at: at,
      entered_by: by,
      entered_revision: revision,
      left_at: null,
    };
    this.opened.push(row);
    const open = this.openInBatch.get(bug);
    if (open) open.push(row);
    else this.openInBatch.set(bug, [row]);
  }

  leave(bug: string, field: IntervalField, value: string | null, at: string) {
    const open = this.openInBatch.get(bug);
    const index = open ? open.findIndex((r) => r.field === field && r.value === value) : -1;
    if (open && index >= 0) {
      open[index]!.left_at = at;
      open.splice(index, 1);
    } else {
      this.closures.push({ bug_id: bug, field, value, left_at: at });
    }
  }
}

function enterReported(stays: Stays, s: ReportedBug, at: string, by: string | null, revision: number) {
  for (const field of SINGLE_FIELDS) stays.enter(s.id, field, fieldValue(s, field), at, by, revision);
  for (const id of s.assigneeIds) stays.enter(s.id, 'assignee', id, at, by, revision);
  // A milestone's stays only while in one (most bugs are in none: no row for that).
  if (s.milestoneId) stays.enter(s.id, 'milestone', s.milestoneId, at, by, revision);
}

function moveStays(stays: Stays, before: ReportedBug, after: ReportedBug, at: string, by: string | null, rev: number) {
  for (const field of SINGLE_FIELDS) {
    if (fieldValue(before, field) === fieldValue(after, field)) continue;
    stays.leave(after.id, field, fieldValue(before, field), at);
    stays.enter(after.id, field, fieldValue(after, field), at, by, rev);
  }
  if (before.milestoneId !== after.milestoneId) {
    if (before.milestoneId) stays.leave(after.id, 'milestone', before.milestoneId, at);
    if (after.milestoneId) stays.enter(after.id, 'milestone', after.milestoneId, at, by, rev);
  }
  if (before.assigneeIds === after.assigneeIds) return;
  const was = new Set(before.assigneeIds);
  const now = new Set(after.assigneeIds);
  for (const id of before.assigneeIds) if (!now.has(id)) stays.leave(after.id, 'assignee', id, at);
  for (const id of after.assigneeIds) if (!was.has(id)) stays.enter(after.id, 'assignee', id, at, by, rev);
}

/**
 * Flow: every stay of a bug in a status (and in a severity, priority, module, assignee, project),
 * with when it began and ended and who moved it, plus every bug event's field changes.
 * What flow metrics, `?asOf=` answers and `analytics.bug_status_intervals` and
 * `analytics.bug_events` read. Keeps its own fold state, so it rebuilds on its own.
 */
export const flowProjection: Projection = {
  name: 'flow',
  // 2: the project's stays (issue 35), for metrics by project and dashboards as of a date.
  // 3: the milestone's stays (issue 36), for burn-ups as they were; its fold state knows labels, ranks and parents.
  // 4: the workflow state's stays (issue 37): time in each state.
  version: 4,
  tables: ['flow_bugs', 'bug_intervals', 'bug_changes'],

  async createTables(db: Kysely<ReadModelDb>, schema: string) {
    const index = (name: string) => sql.id(`${schema}_${name}`);
    await sql`create table ${t(schema, 'flow_bugs')} (
      bug_id text primary key,
      reporter_id text not null,
      created_at timestamptz not null,
      deleted_at timestamptz,
      revision int not null,
      state jsonb not null
    )`.execute(db);
    await sql`create table ${t(schema, 'bug_intervals')} (
      bug_id text not null,
      field text not null,
      value text,
      entered_at timestamptz not null,
      entered_by text,
      entered_revision int not null,
      left_at timestamptz
    )`.execute(db);
    // Ending a stay finds the open one. Metrics read every stay of a field (a scan, hashed):
    // each index more is a write more for every stay, live and in a rebuild.
    await sql`create index ${index('bug_intervals_open')} on ${t(schema, 'bug_intervals')} (bug_id, field) where left_at is null`.execute(
      db,
    );
    await sql`create table ${t(schema, 'bug_changes')} (
      position text not null,
      bug_id text not null,
      revision int not null,
      type text not null,
      actor_id text,
      occurred_at timestamptz not null,
      changes jsonb not null
    )`.execute(db);
  },

  /** What the metrics and histories read by; `apply` finds open stays by `bug_intervals_open` alone. */
  async createIndexes(db: Kysely<ReadModelDb>, schema: string) {
    const index = (name: string) => sql.id(`${schema}_${name}`);
    await sql`create index ${index('flow_bugs_created')} on ${t(schema, 'flow_bugs')} (created_at)`.execute(db);
    await sql`create index ${index('bug_changes_bug')} on ${t(schema, 'bug_changes')} (bug_id, revision)`.execute(db);
    // A milestone's burn-up reads its stays (few: only bugs planned into one have any).
    await sql`create index ${index('bug_intervals_milestone')} on ${t(schema, 'bug_intervals')} (value, bug_id) where field = 'milestone'`.execute(
      db,
    );
  },

  async apply(events: readonly RecordedEvent[], { db, schema, copy }) {
    const bugEvents = events.filter((e) => BUG_EVENT_TYPES.has(e.type));
    if (bugEvents.length === 0) return;
    const ids = [...new Set(bugEvents.map((e) => (e.data as { bugId: string }).bugId))];
    const born = bugsBornIn(bugEvents);
    const entries = await loadEntries(
      db,
      schema,
      ids.filter((id) => !born.has(id)),
    );
    const stays = new Stays();
    const changes: ChangeRow[] = [];
    for (const e of bugEvents) {
      const id = (e.data as { bugId: string }).bugId;
      let entry = entries.get(id);
      if (!entry) {
        entry = {
          id,
          state: { kind: 'empty' },
          revision: -1,
          reporterId: null,
          createdAt: null,
          deletedAt: null,
          stored: false,
        };
        entries.set(id, entry);
      }
      const before = entry.state;
      const after = evolveBugWith(before, e);
      const at = e.metadata.occurredAt;
      const by = e.metadata.actorId;
      changes.push({
        position: e.position,
        bug_id: id,
        revision: e.revision,
        type: e.type,
        actor_id: by,
        occurred_at: at,
        changes: bugFieldChanges(before, after),
      });
      if (after.kind === 'reported') {
        if (before.kind !== 'reported') {
          entry.reporterId = after.reporterId;
          entry.createdAt = after.createdAt;
          enterReported(stays, after, at, by, e.revision);
        } else {
          moveStays(stays, before, after, at, by, e.revision);
          if (!before.deleted && after.deleted) entry.deletedAt = at;
        }
      }
      entry.state = after;
      entry.revision = e.revision;
    }
    const all = [...entries.values()];
    // In a rebuild, the bugs first seen in this batch go in by COPY; stored ones are upserted.
    if (copy) {
      await writeBugs(
        db,
        schema,
        all.filter((e) => e.stored),
      );
      await copyBugs(
        copy,
        all.filter((e) => !e.stored),
      );
    } else {
      await writeBugs(db, schema, all);
    }
    // Stored stays end before new ones begin: an update must never end a stay this batch began.
    await endStays(db, schema, stays.closures);
    if (copy) {
      await copy(
        'bug_intervals',
        INTERVAL_FIELDS,
        stays.opened.map((r) => [
          r.bug_id,
          r.field,
          r.value,
          r.entered_at,
          r.entered_by,
          r.entered_revision,
          r.left_at,
        ]),
      );
      await copy(
        'bug_changes',
        ['position', 'bug_id', 'revision', 'type', 'actor_id', 'occurred_at', 'changes'],
        changes.map((r) => [
          r.position,
          r.bug_id,
          r.revision,
          r.type,
          r.actor_id,
          r.occurred_at,
          JSON.stringify(r.changes),
        ]),
      );
    } else {
      await insertJson(db, schema, 'bug_intervals', stays.opened, INTERVAL_COLUMNS);
      await insertJson(db, schema, 'bug_changes', changes, CHANGE_COLUMNS);
    }
  },
};

const INTERVAL_FIELDS = [
  'bug_id',
  'field',
  'value',
  'entered_at',
  'entered_by',
  'entered_revision',
  'left_at',
] as const satisfies readonly (keyof IntervalRow)[];

async function loadEntries(db: Tx, schema: string, ids: string[]): Promise<Map<string, Entry>> {
  if (ids.length === 0) return new Map();
  const { rows } = await sql<{
    bug_id: string;
    reporter_id: string;
    created_at: Date;
    deleted_at: Date | null;
    revision: number;
    state: BugState;
  }>`select bug_id, reporter_id, created_at, deleted_at, revision, state from ${t(schema, 'flow_bugs')}
     where bug_id = any(${ids}::text[])`.execute(db);
  return new Map(
    rows.map((r) => [
      r.bug_id,
      {
        id: r.bug_id,
        state: r.state,
        revision: r.revision,
        reporterId: r.reporter_id,
        createdAt: r.created_at.toISOString(),
        deletedAt: r.deleted_at?.toISOString() ?? null,
        stored: true,
      },
    ]),
  );
}

/** The rows of the entries that are bugs (a stream's first event may not have been a report). */
function bugRows(entries: Entry[]) {
  return entries
    .filter((e) => e.reporterId !== null && e.createdAt !== null)
    .map((e) => ({
      bug_id: e.id,
      reporter_id: e.reporterId,
      created_at: e.createdAt,
      deleted_at: e.deletedAt,
      revision: e.revision,
      state: e.state,
    }));
}

/** New bugs of a rebuild batch: nothing of theirs is stored yet. */
async function copyBugs(copy: BulkWriter, entries: Entry[]) {
  await copy(
    'flow_bugs',
    ['bug_id', 'reporter_id', 'created_at', 'deleted_at', 'revision', 'state'],
    bugRows(entries).map((r) => [
      r.bug_id,
      r.reporter_id,
      r.created_at,
      r.deleted_at,
      r.revision,
      JSON.stringify(r.state),
    ]),
  );
}

async function writeBugs(db: Tx, schema: string, entries: Entry[]) {
  const rows = bugRows(entries);
  if (rows.length === 0) return;
  await sql`insert into ${t(schema, 'flow_bugs')} as b (bug_id, reporter_id, created_at, deleted_at, revision, state)
    select bug_id, reporter_id, created_at, deleted_at, revision, state
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(
      bug_id text, reporter_id text, created_at timestamptz, deleted_at timestamptz, revision int, state jsonb)
    on conflict (bug_id) do update set deleted_at = excluded.deleted_at, revision = excluded.revision, state = excluded.state`.execute(
    db,
  );
}

async function endStays(db: Tx, schema: string, closures: Closure[]) {
  if (closures.length === 0) return;
  await sql`update ${t(schema, 'bug_intervals')} i set left_at = x.left_at
    from jsonb_to_recordset(${JSON.stringify(closures)}::jsonb) as x(bug_id text, field text, value text, left_at timestamptz)
    where i.bug_id = x.bug_id and i.field = x.field and i.value is not distinct from x.value and i.left_at is null`.execute(
    db,
  );
}

const INTERVAL_COLUMNS = sql`bug_id text, field text, value text, entered_at timestamptz, entered_by text,
  entered_revision int, left_at timestamptz`;
const CHANGE_COLUMNS = sql`position text, bug_id text, revision int, type text, actor_id text,
  occurred_at timestamptz, changes jsonb`;

async function insertJson(
  db: Tx,
  schema: string,
  table: 'bug_intervals' | 'bug_changes',
  rows: readonly object[],
  columns: ReturnType<typeof sql>,
) {
  if (rows.length === 0) return;
  await sql`insert into ${t(schema, table)} select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(${columns})`.execute(
    db,
  );
}
