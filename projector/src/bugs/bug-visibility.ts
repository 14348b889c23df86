import { type Actor, type BugScope, isInBugScope, listedBugScope, visibleBugScope } from '@bugtrail/domain';
import { type Expression, type RawBuilder, type SqlBool, sql } from 'kysely';

/**
 * Who may see which bugs, for the bugs read model (api.md "Who sees what"). The rule is
 * the domain's `visibleBugScope` (an actor's scope) and `isInBugScope` (a bug against a
 * scope, in memory, as `bugPermissions.canView` and live topics check it); this module is
 * its SQL, side by side with it: every read of the bugs table that answers for a person
 * (lists, counts, searches, exports, AI tools, suggestions, dashboards as of a date) narrows
 * it here, so a new rule (projects) is written once. bug-visibility.int.spec.ts proves the
 * SQL and the predicate agree.
 */

export { isInBugScope, listedBugScope, visibleBugScope };

/** A column of the bugs table, qualified by `alias` when the query names the table so. */
const column = (name: 'reporter_id' | 'assignee_ids' | 'project_id', alias?: string) =>
  sql.ref(alias ? `${alias}.${name}` : name);

/** `isInBugScope` in SQL over a bugs row (of `alias`, when given); deleted rows are the caller's. */
export function bugScopeSql(scope: BugScope, alias?: string): RawBuilder<SqlBool> {
  if (scope.kind === 'all') return sql<SqlBool>`true`;
  const own =
    scope.kind === 'reporter'
      ? sql<SqlBool>`${column('reporter_id', alias)} = ${scope.id}`
      : sql<SqlBool>`${column('assignee_ids', alias)} @> array[${scope.id}]::text[]`;
  // And every bug of their team projects (api.md "Projects").
  if (!scope.teamProjects?.length) return own;
  return sql<SqlBool>`(${own} or ${column('project_id', alias)} = any(${[...scope.teamProjects]}::text[]))`;
}

/**
 * Not in one of these projects (the private ones a person is no member of: `isHiddenFrom` in
 * SQL), over a bugs row of `alias`.
 */
export function outsideProjectsSql(hidden: readonly string[] | undefined, alias?: string): RawBuilder<SqlBool> {
  if (!hidden?.length) return sql<SqlBool>`true`;
  return sql<SqlBool>`not (${sql.ref(alias ? `${alias}.project_id` : 'project_id')} = any(${[...hidden]}::text[]))`;
}

/** The live bugs `actor` may open (`bugPermissions.canView` in SQL), over a bugs row of `alias`. */
export function visibleBugsSql(
  actor: Pick<Actor, 'id' | 'role' | 'hiddenProjects' | 'teamProjects'>,
  alias?: string,
): Expression<SqlBool> {
  const deleted = sql.ref(alias ? `${alias}.deleted` : 'deleted');
  return sql<SqlBool>`not ${deleted} and (${bugScopeSql(visibleBugScope(actor), alias)}) and ${outsideProjectsSql(actor.hiddenProjects, alias)}`;
}

/** The flow row `b` was in one of `projects` at `t` (its project stay then). */
const inProjectAt = (projects: readonly string[], t: RawBuilder<unknown>) =>
  sql`exists (select from rm.bug_intervals p where p.bug_id = b.bug_id and p.field = 'project'
    and p.value = any(${[...projects]}::text[]) and p.entered_at <= ${t} and (p.left_at is null or p.left_at > ${t}))`;

/**
 * `isInBugScope` as it was at `t`, over a `flow_bugs` row `b` (dashboards `?asOf=`): the bug
 * existed then and was reported by, or assigned to, the scope's person then, or was in one of
 * their team projects then; and was not then in a project `hidden` from them (as they are now).
 */
export function bugScopeAsOfSql(
  scope: BugScope,
  t: RawBuilder<unknown>,
  hidden: readonly string[] = [],
  /** Only the bugs in one of these projects then (a dashboard's `project` filter). */
  projects?: readonly string[],
): RawBuilder<unknown> {
  const existed = sql`b.created_at <= ${t} and (b.deleted_at is null or b.deleted_at > ${t})${
    hidden.length > 0 ? sql` and not ${inProjectAt(hidden, t)}` : sql``
  }${projects ? sql` and ${inProjectAt(projects, t)}` : sql``}`;
  if (scope.kind === 'all') return existed;
  const own =
    scope.kind === 'reporter'
      ? sql`b.reporter_id = ${scope.id}`
      : sql`exists (select from rm.bug_intervals a where a.bug_id = b.bug_id and a.field = 'assignee'
      and a.value = ${scope.id} and a.entered_at <= ${t} and (a.left_at is null or a.left_at > ${t}))`;
  if (!scope.teamProjects?.length) return sql`${existed} and ${own}`;
  return sql`${existed} and (${own} or ${inProjectAt(scope.teamProjects, t)})`;
}
