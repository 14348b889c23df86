import {
  type BugDto,
  type BugSla,
  breachKey,
  bugSla,
  type EventOf,
  evolveSlaPolicy,
  type FieldDef,
  type FieldValues,
  initialSlaPolicyState,
  isEvent,
  policyFor,
  type ReportedBug,
  type SlaClock,
  type SlaEvent,
  type SlaPolicy,
  type SlaPolicyState,
  slaClock,
} from '@bugtrail/domain';
import type { RecordedEvent } from '@bugtrail/eventstore';
import { type Kysely, type Selectable, sql, type Transaction } from 'kysely';
import type { ReadModelDb } from '../schema.js';
import type { SlaPoliciesTable } from './bugs.tables.js';

/**
 * SLA policies in the bugs projection (issue 38): the policies as the log has them, the policy
 * that holds for each bug (its answer's `sla`), and when each bug breaches, is at risk, and has a
 * breach to tell (columns lists filter by and the breach clock looks up). A policy's event
 * recomputes every bug it may hold for, the past's too: a new policy is measured over history
 * at once.
 */

type Tx = Transaction<ReadModelDb>;
const t = (schema: string, table: string) => sql.id(schema, table);

export const slaPolicyEventTypes = ['SlaPolicyCreated', 'SlaPolicyChanged', 'SlaPolicyDeleted'] as const;
export type SlaPolicyRecorded = EventOf<RecordedEvent, (typeof slaPolicyEventTypes)[number]>;
export type SlaBreachRecorded = EventOf<RecordedEvent, 'BugSlaBreached'>;

export async function createSlaTables(db: Kysely<ReadModelDb>, schema: string): Promise<void> {
  await sql`create table ${t(schema, 'sla_policies')} (
    id text primary key,
    project_id text,
    name text not null,
    conditions jsonb not null,
    respond_seconds int,
    resolve_seconds int,
    created_at text not null,
    since text not null,
    deleted boolean not null default false
  )`.execute(db);
}

/** Every policy, deleted ones too (a handful): what each bug of the batch meets. */
/** A stored policy as the domain has it (the one mapping of an `sla_policies` row). */
export const policyOfRow = (r: Selectable<SlaPoliciesTable>): SlaPolicyState => ({
  exists: true,
  deleted: r.deleted,
  id: r.id,
  name: r.name,
  projectId: r.project_id,
  conditions: r.conditions,
  respondSeconds: r.respond_seconds,
  resolveSeconds: r.resolve_seconds,
  createdAt: r.created_at,
  since: r.since,
});

export async function loadPolicies(db: Tx, schema: string): Promise<Map<string, SlaPolicyState>> {
  const { rows } = await sql<Selectable<SlaPoliciesTable>>`select * from ${t(schema, 'sla_policies')}`.execute(db);
  return new Map(rows.map((r) => [r.id, policyOfRow(r)]));
}

/** The policies that hold for some bug. */
export const livePolicies = (policies: ReadonlyMap<string, SlaPolicyState>): SlaPolicy[] =>
  [...policies.values()].filter((p) => p.exists && !p.deleted);

/**
 * Folds the batch's policy events into `policies` (written back); answers whose bugs they may
 * change: project ids, or null for every bug.
 */
export async function foldSlaPolicies(
  db: Tx,
  schema: string,
  policies: Map<string, SlaPolicyState>,
  events: readonly RecordedEvent[],
): Promise<{ all: boolean; projects: Set<string> }> {
  const scopes = { all: false, projects: new Set<string>() };
  const touched = new Set<string>();
  for (const e of events) {
    if (!isEvent(e, ...slaPolicyEventTypes)) continue;
    const id = e.data.policyId;
    const before = policies.get(id) ?? initialSlaPolicyState();
    const after = evolveSlaPolicy(before, e as unknown as SlaEvent);
    policies.set(id, after);
    touched.add(id);
    for (const p of [before, after]) {
      if (!p.exists) continue;
      if (p.projectId === null) scopes.all = true;
      else scopes.projects.add(p.projectId);
    }
  }
  const rows = [...touched].map((id) => {
    const p = policies.get(id)!;
    return {
      id,
      project_id: p.projectId,
      name: p.name,
      conditions: p.conditions,
      respond_seconds: p.respondSeconds,
      resolve_seconds: p.resolveSeconds,
      created_at: p.createdAt,
      since: p.since,
      deleted: p.deleted,
    };
  });
  if (rows.length > 0) {
    await sql`insert into ${t(schema, 'sla_policies')} (id, project_id, name, conditions, respond_seconds, resolve_seconds, created_at, since, deleted)
      select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(id text, project_id text, name text, conditions jsonb,
        respond_seconds int, resolve_seconds int, created_at text, since text, deleted boolean)
      on conflict (id) do update set name = excluded.name, conditions = excluded.conditions,
        respond_seconds = excluded.respond_seconds, resolve_seconds = excluded.resolve_seconds, since = excluded.since,
        deleted = excluded.deleted`.execute(db);
  }
  return scopes;
}

/** The SLA columns of a bug's row. */
export type SlaColumns = {
  sla_policy_id: string | null;
  sla_breached_at: string | null;
  sla_risk_at: string | null;
  sla_tell_at: string | null;
  sla_told: string[] | null;
};

/** A bug's SLA columns from its answer's `sla` and the breaches told. */
export function slaColumns(
  sla: BugSla | null,
  reportedAt: string,
  told: readonly string[],
  policies: ReadonlyMap<string, SlaPolicyState>,
): SlaColumns {
  const since = sla ? (policies.get(sla.policy._id)?.since ?? '') : '';
  const clock: SlaClock = slaClock(sla, reportedAt, told, since);
  return {
    sla_policy_id: sla?.policy._id ?? null,
    sla_breached_at: clock.breachedAt,
    sla_risk_at: clock.riskAt,
    sla_tell_at: clock.tellAt,
    sla_told: told.length > 0 ? [...told] : null,
  };
}

/** The key a breach event is told by. */
export const toldKey = (e: SlaBreachRecorded) => breachKey(e.data.policyId, e.data.target, e.data.dueAt);

const PAGE = 5000;
type Project = Readonly<{ key: string; fields: readonly FieldDef[] }>;

/**
 * Every bug the changed policies may hold for (deleted ones too, as a rebuild writes them), its
 * `sla` and columns recomputed under the policies now; only those that changed are written.
 * `stateOf` rebuilds what a policy reads of a bug from its row. Answers the projects whose bugs changed.
 */
export async function recomputeSla(
  db: Tx,
  schema: string,
  scopes: { all: boolean; projects: ReadonlySet<string> },
  policies: ReadonlyMap<string, SlaPolicyState>,
  stateOf: (row: RecomputedRow) => ReportedBug,
): Promise<Set<string>> {
  const changed = new Set<string>();
  if (!scopes.all && scopes.projects.size === 0) return changed;
  const live = livePolicies(policies);
  const { rows: projectRows } = await sql<{ id: string; key: string; fields: FieldDef[] }>`
    select id, key, fields from ${t(schema, 'bug_projects')}`.execute(db);
  const projects = new Map<string, Project>(projectRows.map((r) => [r.id, { key: r.key, fields: r.fields }]));
  const inScope = scopes.all ? sql`true` : sql`project_id = any(${[...scopes.projects]}::text[])`;
  const iso = (d: Date | null) => (d ? d.toISOString() : null);
  for (let after = ''; ; ) {
    const { rows } = await sql<RecomputedRow>`
      select id, project_id, dto, label_ids, field_values, sla_told, sla_breached_at, sla_risk_at, sla_tell_at
      from ${t(schema, 'bugs')} where ${inScope} and id > ${after} order by id limit ${PAGE}`.execute(db);
    if (rows.length === 0) break;
    const updates: (SlaColumns & { id: string; sla: BugSla | null })[] = [];
    for (const row of rows) {
      const state = stateOf(row);
      const sla = bugSla(state, policyFor(state, live, projects.get(row.project_id) ?? { key: '', fields: [] }));
      const columns = slaColumns(sla, state.createdAt, row.sla_told ?? [], policies);
      const same =
        JSON.stringify(sla) === JSON.stringify(row.dto.sla ?? null) &&
        columns.sla_breached_at === iso(row.sla_breached_at) &&
        columns.sla_risk_at === iso(row.sla_risk_at) &&
        columns.sla_tell_at === iso(row.sla_tell_at);
      if (same) continue;
      updates.push({ id: row.id, sla, ...columns });
      changed.add(row.project_id);
    }
    if (updates.length > 0) {
      await sql`update ${t(schema, 'bugs')} b set dto = jsonb_set(b.dto, '{sla}', coalesce(x.sla, 'null'::jsonb)),
          sla_policy_id = x.sla_policy_id, sla_breached_at = x.sla_breached_at, sla_risk_at = x.sla_risk_at,
          sla_tell_at = x.sla_tell_at
        from jsonb_to_recordset(${JSON.stringify(updates)}::jsonb) as x(id text, sla jsonb, sla_policy_id text,
          sla_breached_at timestamptz, sla_risk_at timestamptz, sla_tell_at timestamptz)
        where b.id = x.id`.execute(db);
    }
    after = rows[rows.length - 1]!.id;
    if (rows.length < PAGE) break;
  }
  return changed;
}

export type RecomputedRow = {
  id: string;
  project_id: string;
  dto: BugDto;
  label_ids: string[];
  field_values: FieldValues | null;
  sla_told: string[] | null;
  sla_breached_at: Date | null;
  sla_risk_at: Date | null;
  sla_tell_at: Date | null;
};

/** Breaches told of bugs the batch does not write: each row's told keys and next breach to tell. */
export async function tellBreaches(
  db: Tx,
  schema: string,
  byBug: ReadonlyMap<string, readonly string[]>,
  policies: ReadonlyMap<string, SlaPolicyState>,
): Promise<void> {
  if (byBug.size === 0) return;
  const { rows } = await sql<{ id: string; dto: BugDto; sla_told: string[] | null }>`
    select id, dto, sla_told from ${t(schema, 'bugs')} where id = any(${[...byBug.keys()]}::text[])`.execute(db);
  const updates = rows.map((row) => {
    const told = [...new Set([...(row.sla_told ?? []), ...(byBug.get(row.id) ?? [])])];
    const columns = slaColumns(row.dto.sla ?? null, row.dto.createdAt, told, policies);
    return { id: row.id, sla_told: columns.sla_told, sla_tell_at: columns.sla_tell_at };
  });
  if (updates.length === 0) return;
  await sql`update ${t(schema, 'bugs')} b set sla_told = x.sla_told, sla_tell_at = x.sla_tell_at
    from jsonb_to_recordset(${JSON.stringify(updates)}::jsonb) as x(id text, sla_told text[], sla_tell_at timestamptz)
    where b.id = x.id`.execute(db);
}
