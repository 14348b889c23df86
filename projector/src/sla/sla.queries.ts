import { type SlaPolicyDto, slaPolicyDto } from '@bugtrail/domain';
import { type Kysely, type Selectable, sql } from 'kysely';
import { policyOfRow } from '../bugs/bug-sla.js';
import type { SlaPoliciesTable } from '../bugs/bugs.tables.js';
import { READ_MODEL_SCHEMA } from '../runtime/projection.js';
import type { ReadModelDb } from '../schema.js';

const rm = (table: string) => sql.id(READ_MODEL_SCHEMA, table);

type PolicyRow = Selectable<SlaPoliciesTable>;
const dtoOf = (r: PolicyRow): SlaPolicyDto => slaPolicyDto(policyOfRow(r));

/** The SLA policies that exist, in the order they are tried (a project's before every project's, then the oldest), but those of hidden projects. */
export async function listSlaPolicies(
  db: Kysely<ReadModelDb>,
  hiddenProjects: readonly string[] = [],
): Promise<SlaPolicyDto[]> {
  const { rows } = await sql<PolicyRow>`select * from ${rm('sla_policies')}
    where not deleted and (project_id is null or not (project_id = any(${[...hiddenProjects]}::text[])))
    order by project_id is null, created_at, id`.execute(db);
  return rows.map(dtoOf);
}

/** One policy that exists, or null. */
export async function findSlaPolicy(db: Kysely<ReadModelDb>, id: string): Promise<SlaPolicyDto | null> {
  const { rows } = await sql<PolicyRow>`select * from ${rm('sla_policies')} where id = ${id} and not deleted`.execute(
    db,
  );
  return rows[0] ? dtoOf(rows[0]) : null;
}

/** One target's figures over the bugs of a window: met in time, missed (late, or unmet past due), not due yet. */
export type TargetCompliance = {
  met: number;
  breached: number;
  pending: number;
  /** met / (met + breached), 0 to 1; null when none is decided yet. */
  compliance: number | null;
};
export type PolicyCompliance = SlaPolicyDto & {
  /** Bugs reported in the window that the policy holds for. */
  bugs: number;
  /** Bugs that met every target in time, missed one, or have one not due yet (and none missed). */
  met: number;
  breached: number;
  pending: number;
  /** met / (met + breached), 0 to 1: the share of decided bugs that kept the policy; null when none is. */
  compliance: number | null;
  respond: TargetCompliance | null;
  resolve: TargetCompliance | null;
};

type ComplianceRow = {
  id: string;
  bugs: string;
  bugs_breached: string;
  bugs_pending: string;
  respond_met: string;
  respond_breached: string;
  respond_pending: string;
  resolve_met: string;
  resolve_breached: string;
  resolve_pending: string;
};

/**
 * Compliance per policy over the bugs reported in [from, to) (all time without them), as each bug
 * stands at `now`: its policy is the one that holds for it under the policies as they are now, so
 * a policy written today is measured over the past at once (the bugs projection recomputed them).
 */
export async function slaCompliance(
  db: Kysely<ReadModelDb>,
  window: { from: Date | null; to: Date | null; projects?: readonly string[] | undefined; now: Date },
  hiddenProjects: readonly string[] = [],
): Promise<PolicyCompliance[]> {
  const now = sql`${window.now.toISOString()}::timestamptz`;
  const inWindow = sql.join(
    [
      sql`sla_policy_id is not null and not deleted`,
      ...(window.from ? [sql`created_at >= ${window.from.toISOString()}::timestamptz`] : []),
      ...(window.to ? [sql`created_at < ${window.to.toISOString()}::timestamptz`] : []),
      ...(window.projects ? [sql`project_id = any(${[...window.projects]}::text[])`] : []),
      ...(hiddenProjects.length > 0 ? [sql`not (project_id = any(${[...hiddenProjects]}::text[]))`] : []),
    ],
    sql` and `,
  );
  const target = (by: string, at: string, name: string) => {
    const due = sql.ref(by);
    const done = sql.ref(at);
    return sql`count(*) filter (where ${due} is not null and ${done} is not null and ${done} <= ${due}) as ${sql.id(`${name}_met`)},
      count(*) filter (where ${due} is not null and (${done} > ${due} or (${done} is null and ${due} <= ${now}))) as ${sql.id(`${name}_breached`)},
      count(*) filter (where ${due} is not null and ${done} is null and ${due} > ${now}) as ${sql.id(`${name}_pending`)}`;
  };
  const missedOne = (due: string, done: string) =>
    sql`(${sql.ref(due)} is not null and (${sql.ref(done)} > ${sql.ref(due)} or (${sql.ref(done)} is null and ${sql.ref(due)} <= ${now})))`;
  const openOne = (due: string, done: string) =>
    sql`(${sql.ref(due)} is not null and ${sql.ref(done)} is null and ${sql.ref(due)} > ${now})`;
  const missedAny = sql`(${missedOne('respond_by', 'responded_at')} or ${missedOne('resolve_by', 'resolved_at')})`;
  const openAny = sql`(${openOne('respond_by', 'responded_at')} or ${openOne('resolve_by', 'resolved_at')})`;
  const [{ rows }, policies] = await Promise.all([
    sql<ComplianceRow>`select id, count(*) as bugs,
        count(*) filter (where ${missedAny}) as bugs_breached,
        count(*) filter (where not (${missedAny}) and ${openAny}) as bugs_pending,
        ${target('respond_by', 'responded_at', 'respond')},
        ${target('resolve_by', 'resolved_at', 'resolve')}
      from (select sla_policy_id as id,
          (dto->'sla'->>'respondBy')::timestamptz as respond_by, (dto->'sla'->>'respondedAt')::timestamptz as responded_at,
          (dto->'sla'->>'resolveBy')::timestamptz as resolve_by, (dto->'sla'->>'resolvedAt')::timestamptz as resolved_at
        from ${rm('bugs')} where ${inWindow}) b
      group by id`.execute(db),
    listSlaPolicies(db, hiddenProjects),
  ]);
  const byId = new Map(rows.map((r) => [r.id, r]));
  const figures = (row: ComplianceRow | undefined, name: 'respond' | 'resolve'): TargetCompliance => {
    const met = Number(row?.[`${name}_met`] ?? 0);
    const breached = Number(row?.[`${name}_breached`] ?? 0);
    const pending = Number(row?.[`${name}_pending`] ?? 0);
    return { met, breached, pending, compliance: met + breached > 0 ? met / (met + breached) : null };
  };
  return policies
    .filter((p) => !window.projects || p.projectId === null || window.projects.includes(p.projectId))
    .map((policy) => {
      const row = byId.get(policy._id);
      const bugs = Number(row?.bugs ?? 0);
      const breached = Number(row?.bugs_breached ?? 0);
      const pending = Number(row?.bugs_pending ?? 0);
      const met = bugs - breached - pending;
      return {
        ...policy,
        bugs,
        met,
        breached,
        pending,
        compliance: met + breached > 0 ? met / (met + breached) : null,
        respond: policy.respondWithin === null ? null : figures(row, 'respond'),
        resolve: policy.resolveWithin === null ? null : figures(row, 'resolve'),
      };
    });
}

/** Policies changed (their list, their bugs' SLAs). */
export const slaTopic = 'sla';
