import {
  type Actor,
  type BugDto,
  type BugStatus,
  bugAudience,
  bugStatuses,
  type Priority,
  parseBugKey,
  personalScope,
  priorities,
  type Severity,
  type SlaFilter,
  severities,
  withoutHiddenLinks,
  withSlaAt,
} from '@bugtrail/domain';
import { type Expression, type ExpressionBuilder, type Kysely, type SqlBool, sql } from 'kysely';
import {
  type FieldFilter,
  fieldFilterSql,
  fieldSortSql,
  type KeyedField,
  optionCounters,
} from '../projects/fields.queries.js';
import { READ_MODEL_SCHEMA } from '../runtime/projection.js';
import type { ReadModelDb } from '../schema.js';
import { bugTopic } from './bug-topics.js';
import { bugScopeSql, outsideProjectsSql, visibleBugsSql } from './bug-visibility.js';
import { type BugScope, scopeKey } from './bugs.tables.js';

/**
 * The queries read-api runs on the bugs read model. Lists are newest first unless
 * sorted otherwise, keyset-paged on (sort value, id); the dashboards' and unfiltered
 * lists' counts come from the counters, never a count(*) over bugs (a filtered list's
 * total counts its matches). Live-bug filters say `not deleted` as the partial indexes do.
 */
const from = (db: Kysely<ReadModelDb>) => db.withSchema(READ_MODEL_SCHEMA);
type BugsEb = ExpressionBuilder<ReadModelDb, 'bugs'>;
/** The keyset: created_at as PostgreSQL prints it (full precision, round-trips), and the id. */
const keysetColumns = [sql<string>`created_at::text`.as('ck'), 'id'] as const;

/** Where a page ends: the sort key's value (as PostgreSQL prints it) and the id. */
export type ListCursor = Readonly<{ sort?: BugSortKey | FieldSortKey | undefined; value: string; id: string }>;

/** The columns a list sorts on (api.md "Lists"); `created` is the default, newest first. */
export const bugSortKeys = [
  'created',
  'updated',
  'number',
  'title',
  'status',
  'priority',
  'severity',
  'assignees',
  'due',
  'rank',
] as const;
export type BugSortKey = (typeof bugSortKeys)[number];
/** A custom field's key after `field.` sorts by its values (api.md "Custom fields"). */
export type FieldSortKey = `field.${string}`;
export type BugSort = Readonly<{ key: BugSortKey | FieldSortKey; direction: 'asc' | 'desc' }>;
export const defaultBugSort: BugSort = { key: 'created', direction: 'desc' };

export type DueFilter = 'overdue' | 'week' | 'none';

export type ListFilters = Readonly<{
  statuses?: readonly BugStatus[] | undefined;
  priorities?: readonly Priority[] | undefined;
  severities?: readonly Severity[] | undefined;
  /** Developers' ids, and `none` for unassigned bugs: a bug matches when any of them does. */
  assignees?: readonly string[] | undefined;
  reporters?: readonly string[] | undefined;
  /** Each matched whole, ignoring case; a bug matches when its module is any of them. */
  modules?: readonly string[] | undefined;
  due?: DueFilter | undefined;
  /** The start of the current day (UTC), which `due` counts from (api.md "Bugs": due dates). */
  today?: string | undefined;
  /** The archived bugs instead of the others (archive.ts); they are in no other list. */
  archived?: boolean | undefined;
  /** Projects by `_id` (resolveProjectIds turns keys into ids): a bug matches when it is in any of them. */
  projects?: readonly string[] | undefined;
  /** A project's triage (api.md "Projects"): bugs not Closed with no assignee. */
  triage?: boolean | undefined;
  /** Label ids (resolveLabels turns names into ids): a bug matches when it carries every one. */
  labels?: readonly string[] | undefined;
  /** Milestone ids, or `none`: a bug matches when it is in any of them. */
  milestones?: readonly string[] | undefined;
  /** Parent bug ids: a bug matches when it is a sub-bug of any of them. */
  parents?: readonly string[] | undefined;
  /** Workflow state ids: a bug matches when it is in any of them (issue 37). */
  states?: readonly string[] | undefined;
  /** `field.<key>=value`, each resolved to the fields it means (fieldsWithKeys): a bug matches every one. */
  fields?: readonly FieldFilter[] | undefined;
  /** Its SLA (issue 38) at risk or breached at `now` (default: the moment of the query). */
  sla?: SlaFilter | undefined;
  now?: string | undefined;
}>;

export type ListQuery = Readonly<{
  scope: BugScope;
  status?: BugStatus | undefined;
  filters?: ListFilters | undefined;
  sort?: BugSort | undefined;
  /** With `sort=field.<key>`: the fields that key means, project by project. */
  sortFields?: readonly KeyedField[] | undefined;
  q?: string | undefined;
  /**
   * Set to the caller's visibleBugScope when the list shows them bugs beyond it as rows only
   * (a tester's all-bugs list): `q` then matches descriptions only of the bugs in it, so a
   * search cannot read others' descriptions.
   */
  descriptionsOf?: BugScope | undefined;
  /** Private projects the caller is no member of: their bugs are in no list and no total. */
  hiddenProjects?: readonly string[] | undefined;
  limit?: number | undefined;
  cursor?: ListCursor | undefined;
}>;

/** A timestamptz as PostgreSQL prints it (or ISO 8601): checked before it reaches SQL. */
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(\.\d{1,6})?(Z|[+-]\d{2}(:?\d{2})?)$/;

/**
 * The default order keeps its first cursor format (`createdAt|id`), so cursors handed out
 * before sorting existed still work; other orders name their key: `key|value|id`.
 */
export function encodeCursor(cursor: ListCursor): string {
  const text =
    cursor.sort === undefined || cursor.sort === 'created'
      ? `${cursor.value}|${cursor.id}`
      : `${cursor.sort}|${cursor.value}|${cursor.id}`;
  return Buffer.from(text, 'utf8').toString('base64url');
}

/** The cursor, or null when the token is not one of ours (or not one of this order's). */
export function decodeCursor(token: string, sort: BugSortKey | FieldSortKey = 'created'): ListCursor | null {
  const text = Buffer.from(token, 'base64url').toString('utf8');
  let key: BugSortKey | FieldSortKey = 'created';
  let rest = text;
  const first = text.indexOf('|');
  if (first < 0) return null;
  const head = text.slice(0, first);
  if ((bugSortKeys as readonly string[]).includes(head) || (head === sort && head.startsWith('field.'))) {
    key = head as BugSortKey | FieldSortKey;
    rest = text.slice(first + 1);
  }
  if (key !== sort) return null;
  const bar = rest.lastIndexOf('|');
  if (bar < 0) return null;
  const value = rest.slice(0, bar);
  const id = rest.slice(bar + 1);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: PostgreSQL refuses NUL; no id has control characters
  const control = /[\u0000-\u001f\u007f]/;
  if (!id || id.length > 200 || control.test(id) || value.length > 500 || control.test(value)) return null;
  if (!specOf(key).valid(value)) return null;
  return { sort: key, value, id };
}

/** Matches TIMESTAMP and names a real instant (no 31 February, hour 24 or year 0) PostgreSQL accepts. */
function isRealTimestamp(text: string): boolean {
  if (!TIMESTAMP.test(text)) return false;
  const [y, mo, d, h, mi, s] = text.match(/\d+/g)!.slice(0, 6).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const offset = /([+-])(\d{2}):?(\d{2})?$/.exec(text.slice(19));
  if (offset && (Number(offset[2]) > 15 || Number(offset[3] ?? 0) > 59)) return false;
  if (y < 1 || mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || s > 59) return false;
  const date = new Date(Date.UTC(2000, mo - 1, d));
  date.setUTCFullYear(y);
  return date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

const rank = (column: 'status' | 'priority' | 'severity', words: readonly string[]) =>
  sql<number>`(case ${sql.ref(column)} ${sql.join(
    words.map((w, i) => sql`when ${sql.lit(w)} then ${sql.lit(i)}`),
    sql` `,
  )} else ${sql.lit(words.length)} end)`;

type SortKeySpec = Readonly<{
  /** The value sorted on, never null (so a keyset comparison is total). */
  expression: Expression<unknown>;
  /** How a cursor's text becomes that value again. */
  cast: (value: string) => Expression<unknown>;
  valid: (value: string) => boolean;
}>;

const isInt = (v: string) => /^-?\d{1,10}$/.test(v);
const isTimestampOrInfinity = (v: string) => v === 'infinity' || isRealTimestamp(v);
const intCast = (v: string) => sql`${Number(v)}::int`;
const textCast = (v: string) => sql`${v}::text`;
const timeCast = (v: string) => sql`${v}::timestamptz`;

const sortKeySpecs: Record<BugSortKey, SortKeySpec> = {
  created: { expression: sql`created_at`, cast: timeCast, valid: isRealTimestamp },
  updated: { expression: sql`updated_at`, cast: timeCast, valid: isRealTimestamp },
  number: { expression: sql`coalesce(number, 0)`, cast: intCast, valid: isInt },
  title: { expression: sql`lower(dto->>'title')`, cast: textCast, valid: () => true },
  status: { expression: rank('status', bugStatuses), cast: intCast, valid: isInt },
  priority: { expression: rank('priority', priorities), cast: intCast, valid: isInt },
  severity: { expression: rank('severity', severities), cast: intCast, valid: isInt },
  assignees: {
    expression: sql`lower(coalesce(dto->'assignedTo'->0->>'name', ''))`,
    cast: textCast,
    valid: () => true,
  },
  // No due date sorts after every date (first when newest-first).
  due: {
    expression: sql`coalesce((dto->>'dueDate')::timestamptz, 'infinity'::timestamptz)`,
    cast: timeCast,
    valid: isTimestampOrInfinity,
  },
  // The board's order (api.md "Board"): byte order, as the column is `collate "C"`.
  rank: { expression: sql`rank`, cast: textCast, valid: () => true },
};

const isJson = (v: string) => {
  try {
    JSON.parse(v);
    return true;
  } catch {
    return false;
  }
};

/**
 * How a list sorts on `key`: one of the columns, or a custom field's values (`fields`: what its
 * key means). A field's cursor holds a jsonb value, or a `bug_field_sort` key when the list read
 * that table (fieldSortTable): each path reads the other's as a plain value, never an error.
 */
function specOf(key: BugSortKey | FieldSortKey, fields: readonly KeyedField[] = []): SortKeySpec {
  if (!key.startsWith('field.')) return sortKeySpecs[key as BugSortKey];
  return {
    expression: fieldSortSql(fields),
    cast: (v) => (isJson(v) ? sql`${v}::jsonb` : sql`to_jsonb(${v}::text)`),
    valid: () => true,
  };
}

/**
 * The fields whose `bug_field_sort` rows order a list sorted by `field.<key>`: when every bug
 * it can hold is in a project with that field (it names its projects, and each has the field),
 * so the rows cover every bug and a page reads 25 of them in order. Else null: the expression.
 */
function fieldSortTable(query: ListQuery): string[] | null {
  const projects = query.filters?.projects;
  const fields = query.sortFields ?? [];
  if (!query.sort?.key.startsWith('field.') || !projects?.length || fields.length === 0) return null;
  const ids = projects.map((p) => fields.find((f) => f.projectId === p)?.field.id);
  return ids.every((id) => id !== undefined) ? [...new Set(ids as string[])] : null;
}

/** `#42` (or `42` after a #) in a search names one bug by its number. */
export function searchedNumber(q: string | undefined): number | null {
  const m = /^\s*#(\d{1,9})\s*$/.exec(q ?? '');
  return m ? Number(m[1]) : null;
}

/** `WEB-7` in a search names one bug by its key (any key it, or its project, has had). */
export function searchedKey(q: string | undefined): { key: string; number: number } | null {
  return q ? parseBugKey(q) : null;
}

const keyed = (key: { key: string; number: number }) => sql<boolean>`id in (
  select bk.bug_id from ${sql.id(READ_MODEL_SCHEMA, 'bug_keys')} bk
  join ${sql.id(READ_MODEL_SCHEMA, 'project_keys')} pk on pk.project_id = bk.project_id
  where pk.key = ${key.key} and bk.number = ${key.number})`;

/** The conditions of a list, cursor aside: what its rows and its total share. */
function listConditions(eb: BugsEb, query: ListQuery): Expression<SqlBool>[] {
  const f = query.filters ?? {};
  const conditions: Expression<SqlBool>[] = [
    eb.not(eb.ref('deleted')),
    eb('archived', '=', f.archived === true),
    bugScopeSql(query.scope),
    outsideProjectsSql(query.hiddenProjects),
  ];
  if (query.status) conditions.push(eb('status', '=', query.status));
  if (f.statuses?.length) conditions.push(eb('status', 'in', [...f.statuses]));
  if (f.priorities?.length) conditions.push(eb('priority', 'in', [...f.priorities]));
  if (f.severities?.length) conditions.push(eb('severity', 'in', [...f.severities]));
  if (f.assignees?.length) {
    const ids = f.assignees.filter((a) => a !== 'none');
    const either: Expression<SqlBool>[] = [];
    if (ids.length < f.assignees.length) either.push(sql<boolean>`cardinality(assignee_ids) = 0`);
    if (ids.length > 0) either.push(eb('assignee_ids', '&&', sql<string[]>`array[${sql.join(ids)}]::text[]`));
    conditions.push(eb.or(either));
  }
  if (f.reporters?.length) conditions.push(eb('reporter_id', 'in', [...f.reporters]));
  if (f.projects?.length) conditions.push(sql<boolean>`project_id = any(${[...f.projects]}::text[])`);
  if (f.triage) conditions.push(sql<boolean>`cardinality(assignee_ids) = 0 and status <> 'Closed'`);
  if (f.labels?.length) conditions.push(sql<boolean>`label_ids @> ${[...f.labels]}::text[]`);
  if (f.parents?.length) conditions.push(sql<boolean>`parent_id = any(${[...f.parents]}::text[])`);
  for (const filter of f.fields ?? []) conditions.push(fieldFilterSql(filter));
  if (f.states?.length) conditions.push(sql<boolean>`dto->'state'->>'_id' = any(${[...f.states]}::text[])`);
  if (f.milestones?.length) {
    const ids = f.milestones.filter((m) => m !== 'none');
    const either: Expression<SqlBool>[] = [];
    if (ids.length < f.milestones.length) either.push(sql<boolean>`milestone_id is null`);
    if (ids.length > 0) either.push(sql<boolean>`milestone_id = any(${ids}::text[])`);
    conditions.push(eb.or(either));
  }
  if (f.modules?.length) {
    const modules = f.modules.map((m) => sql`lower(${m})`);
    conditions.push(sql<boolean>`lower(dto->>'module') in (${sql.join(modules)})`);
  }
  if (f.sla) {
    const now = sql`${f.now ?? new Date().toISOString()}::timestamptz`;
    conditions.push(
      f.sla === 'breached'
        ? sql<boolean>`sla_breached_at <= ${now}`
        : sql<boolean>`sla_risk_at <= ${now} and (sla_breached_at is null or sla_breached_at > ${now})`,
    );
  }
  if (f.due) {
    const due = sql`(dto->>'dueDate')::timestamptz`;
    const today = sql`${f.today ?? new Date().toISOString()}::timestamptz`;
    if (f.due === 'none') conditions.push(sql<boolean>`dto->>'dueDate' is null`);
    else if (f.due === 'overdue') conditions.push(sql<boolean>`${due} < ${today} and status <> 'Closed'`);
    else conditions.push(sql<boolean>`${due} >= ${today} and ${due} < ${today} + interval '7 days'`);
  }
  const number = searchedNumber(query.q);
  const key = searchedKey(query.q);
  const q = query.q?.trim();
  if (number !== null) conditions.push(eb('number', '=', number));
  else if (key) conditions.push(keyed(key));
  else if (q) {
    const tsquery = sql<string>`websearch_to_tsquery('english', ${q})`;
    conditions.push(eb('search', '@@', tsquery));
    if (query.descriptionsOf !== undefined) {
      conditions.push(
        eb.or([
          bugScopeSql(query.descriptionsOf),
          eb(sql`to_tsvector('english', coalesce(dto->>'title', ''))`, '@@', tsquery),
        ]),
      );
    }
  }
  return conditions;
}

/**
 * The ids of the projects `values` name, each by its `_id` or by any key it has had (any case);
 * a value that names none names nothing (an impossible id keeps the filter, matching no bug).
 */
export async function resolveProjectIds(db: Kysely<ReadModelDb>, values: readonly string[]): Promise<string[]> {
  if (values.length === 0) return [];
  const { rows } = await sql<{ id: string }>`
    select id from ${sql.id(READ_MODEL_SCHEMA, 'projects')} where id = any(${[...values]}::text[])
    union select project_id from ${sql.id(READ_MODEL_SCHEMA, 'project_keys')}
      where key = any(${values.map((v) => v.toUpperCase())}::text[])`.execute(db);
  return rows.length > 0 ? rows.map((r) => r.id) : [''];
}

/** Whether a list narrows by projects and by nothing else (then its total is the projects' counters). */
export function isFilteredByProjectsOnly(query: Pick<ListQuery, 'filters' | 'q' | 'scope'>): boolean {
  const f = query.filters ?? {};
  return Boolean(f.projects?.length) && !isFiltered({ ...query, filters: { ...f, projects: undefined } });
}

/** Whether a list narrows its scope beyond a status (then its total needs a count, not the counters). */
export function isFiltered(query: Pick<ListQuery, 'filters' | 'q'>): boolean {
  const f = query.filters ?? {};
  return Boolean(
    query.q?.trim() ||
      f.statuses?.length ||
      f.priorities?.length ||
      f.severities?.length ||
      f.assignees?.length ||
      f.reporters?.length ||
      f.projects?.length ||
      f.modules?.length ||
      f.due ||
      f.archived ||
      f.triage ||
      f.labels?.length ||
      f.milestones?.length ||
      f.parents?.length ||
      f.fields?.length ||
      f.states?.length ||
      f.sla,
  );
}

export async function listBugs(
  db: Kysely<ReadModelDb>,
  query: ListQuery,
): Promise<{ bugs: BugDto[]; nextCursor: string | null }> {
  const sort = query.sort ?? defaultBugSort;
  const sortedBy = fieldSortTable(query);
  if (sortedBy) return listByFieldSort(db, query, sort, sortedBy);
  const spec = specOf(sort.key, query.sortFields);
  let select = from(db)
    .selectFrom('bugs')
    .select(['dto', 'id', sql<string>`(${spec.expression})::text`.as('sk')])
    .where((eb) => {
      const conditions = listConditions(eb, query);
      if (query.cursor) {
        conditions.push(
          eb(
            eb.tuple(spec.expression as Expression<string>, eb.ref('id')),
            sort.direction === 'desc' ? '<' : '>',
            eb.tuple(spec.cast(query.cursor.value) as Expression<string>, query.cursor.id),
          ),
        );
      }
      return eb.and(conditions);
    })
    .orderBy(spec.expression as Expression<string>, sort.direction)
    .orderBy('id', sort.direction);
  if (query.limit !== undefined) select = select.limit(query.limit + 1);
  return pageOf(await select.execute(), query, sort);
}

/** A bug as a list answers it: without links the reader may not follow, its SLA read against the clock. */
export const answered = (dto: BugDto, hidden: readonly string[], now: Date): BugDto =>
  withSlaAt(withoutHiddenLinks(dto, hidden), now);

/** A page of rows (one more than the limit, when there is a next page) and its next cursor. */
function pageOf(
  rows: readonly { dto: BugDto; id: string; sk: string }[],
  query: ListQuery,
  sort: BugSort,
): { bugs: BugDto[]; nextCursor: string | null } {
  // A related bug or a parent in a project hidden from the reader is not named (issue 35's rule).
  const hidden = query.hiddenProjects ?? [];
  const now = new Date();
  if (query.limit !== undefined && rows.length > query.limit) {
    const page = rows.slice(0, query.limit);
    const last = page[page.length - 1]!;
    return {
      bugs: page.map((r) => answered(r.dto, hidden, now)),
      nextCursor: encodeCursor({ sort: sort.key, value: last.sk, id: last.id }),
    };
  }
  return { bugs: rows.map((r) => answered(r.dto, hidden, now)), nextCursor: null };
}

/** A list sorted by a custom field, read off `bug_field_sort` in order (`fields`: its ids in the listed projects). */
async function listByFieldSort(
  db: Kysely<ReadModelDb>,
  query: ListQuery,
  sort: BugSort,
  fields: readonly string[],
): Promise<{ bugs: BugDto[]; nextCursor: string | null }> {
  let select = from(db)
    .selectFrom('bugs')
    .innerJoin('bug_field_sort as s', (join) =>
      join.onRef('s.bug_id', '=', 'bugs.id').on('s.field_id', 'in', [...fields]),
    )
    .select(['bugs.dto', 'bugs.id', 's.sort_key as sk'])
    .where((eb) => {
      const conditions = listConditions(eb, query);
      if (query.cursor) {
        conditions.push(
          eb(
            eb.tuple(eb.ref('s.sort_key'), eb.ref('s.bug_id')),
            sort.direction === 'desc' ? '<' : '>',
            eb.tuple(sql<string>`${query.cursor.value}::text collate "C"`, query.cursor.id),
          ),
        );
      }
      return eb.and(conditions);
    })
    .orderBy('s.sort_key', sort.direction)
    .orderBy('s.bug_id', sort.direction);
  if (query.limit !== undefined) select = select.limit(query.limit + 1);
  return pageOf(await select.execute(), query, sort);
}

/** How many bugs a filtered list holds, all pages together (an unfiltered one reads the counters). */
export async function countListed(db: Kysely<ReadModelDb>, query: ListQuery): Promise<number> {
  const counted = await countByFieldOption(db, query);
  if (counted !== null) return counted;
  const row = await from(db)
    .selectFrom('bugs')
    .select(sql<string>`count(*)`.as('n'))
    .where((eb) => eb.and(listConditions(eb, query)))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export type BugAccessRow = Readonly<{
  dto: BugDto;
  reporterId: string;
  assigneeIds: string[];
  deleted: boolean;
  projectId: string;
}>;

export async function findBug(db: Kysely<ReadModelDb>, id: string): Promise<BugAccessRow | null> {
  const row = await from(db)
    .selectFrom('bugs')
    .select(['dto', 'reporter_id', 'assignee_ids', 'deleted', 'project_id'])
    .where('id', '=', id)
    .executeTakeFirst();
  return row
    ? {
        dto: row.dto,
        reporterId: row.reporter_id,
        assigneeIds: row.assignee_ids,
        deleted: row.deleted,
        projectId: row.project_id,
      }
    : null;
}

/** One file of a bug as its answer shows it, with where its bytes are (`key`): the bug's row decides who may fetch it. */
export type BugFileRow = BugAccessRow & Readonly<{ file: BugDto['files'][number] | null; key: string | null }>;

/** The bug (deleted ones too: the caller decides) and, when it holds it now, one of its files. */
export async function findBugFile(db: Kysely<ReadModelDb>, id: string, fileId: string): Promise<BugFileRow | null> {
  const row = await from(db)
    .selectFrom('bugs')
    .select([
      'dto',
      'reporter_id',
      'assignee_ids',
      'deleted',
      'project_id',
      sql<string | null>`file_keys ->> ${fileId}`.as('key'),
    ])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) return null;
  const file = (row.dto.files ?? []).find((f) => f._id === fileId) ?? null;
  return {
    dto: row.dto,
    reporterId: row.reporter_id,
    assigneeIds: row.assignee_ids,
    deleted: row.deleted,
    projectId: row.project_id,
    file,
    key: file ? row.key : null,
  };
}

/** The bug with this number (deleted ones too: the caller decides, as for an id). */
export async function findBugByNumber(db: Kysely<ReadModelDb>, number: number): Promise<BugAccessRow | null> {
  const row = await from(db)
    .selectFrom('bugs')
    .select('id')
    .where('number', '=', number)
    .orderBy('created_at')
    .limit(1)
    .executeTakeFirst();
  return row ? findBug(db, row.id) : null;
}

/** The bug that has (or had) this number in this project: `WEB-7` names one bug for good. */
export async function findBugByProjectNumber(
  db: Kysely<ReadModelDb>,
  projectId: string,
  number: number,
): Promise<BugAccessRow | null> {
  const row = await from(db)
    .selectFrom('bug_keys')
    .select('bug_id')
    .where('project_id', '=', projectId)
    .where('number', '=', number)
    .executeTakeFirst();
  return row ? findBug(db, row.bug_id) : null;
}

/**
 * Up to `limit` live bugs `actor` may open that match `query` (words of the title or
 * description, part of the title, or a bug's number, `#42` or `42`), best first: the bug of
 * that number, then by rank, then newest. The AI assistant's search (api.md "The AI assistant").
 */
export async function searchVisibleBugs(
  db: Kysely<ReadModelDb>,
  actor: Pick<Actor, 'id' | 'role'>,
  query: string,
  limit: number,
): Promise<BugDto[]> {
  const digits = /^#?(\d{1,9})$/.exec(query)?.[1];
  const number = digits ? Number(digits) : null;
  const tsquery = sql`websearch_to_tsquery('english', ${query})`;
  const like = `%${query.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const { rows } = await sql<{ dto: BugDto }>`select dto from ${sql.table(`${READ_MODEL_SCHEMA}.bugs`)}
    where ${visibleBugsSql(actor)}
      and (search @@ ${tsquery} or dto->>'title' ilike ${like} or number = ${number})
    order by (number = ${number}) desc nulls last, ts_rank(search, ${tsquery}) desc, created_at desc
    limit ${limit}`.execute(db);
  const now = new Date();
  return rows.map((row) => withSlaAt(row.dto, now));
}

/** The live bug of this number when `actor` may open it, else null. */
export async function findVisibleBugByNumber(
  db: Kysely<ReadModelDb>,
  actor: Pick<Actor, 'id' | 'role'>,
  number: number,
): Promise<BugDto | null> {
  const row = await from(db)
    .selectFrom('bugs')
    .select('dto')
    .where('number', '=', number)
    .where(visibleBugsSql(actor))
    .executeTakeFirst();
  return row ? withSlaAt(row.dto, new Date()) : null;
}

/** Each bug's live topic (`bugTopic`: its audience and project) as the live bugs read model has it; unknown ids are missing. */
export async function bugTopics(db: Kysely<ReadModelDb>, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await from(db)
    .selectFrom('bugs')
    .select(['id', 'reporter_id', 'assignee_ids', 'project_id'])
    .where('id', 'in', [...ids])
    .execute();
  return new Map(
    rows.map((row) => [
      row.id,
      bugTopic(row.id, bugAudience({ reporterId: row.reporter_id, assigneeIds: row.assignee_ids }), [row.project_id]),
    ]),
  );
}

export type BugCounts = Readonly<{
  status: Readonly<Record<'Open' | 'In Progress' | 'Closed', number>>;
  severity: Readonly<Record<'Minor' | 'Major' | 'Critical', number>>;
  priority: Readonly<Record<'Low' | 'Medium' | 'High', number>>;
}>;

/**
 * The scope's counts by status, severity and priority: at most nine rows, at any size, from the
 * counters. Without the bugs of `hidden` projects (private ones the caller is no member of):
 * every bug's counts less those projects' own counters. A person's scope: their own counters,
 * plus their team projects' counters (api.md "Projects"), less their own bugs in a hidden or a
 * team project (not theirs to see, or counted twice), found by an index probe.
 */
export async function countBugs(
  db: Kysely<ReadModelDb>,
  scope: BugScope,
  hidden: readonly string[] = [],
): Promise<BugCounts> {
  const all = scope.kind === 'all';
  const person = personalScope(scope);
  const team = scope.kind === 'all' ? [] : [...(scope.teamProjects ?? [])];
  const added = [scopeKey(person), ...team.map((id) => `project:${id}`)];
  const taken = all ? hidden.map((id) => `project:${id}`) : [];
  const overlapping = all ? [] : [...hidden, ...team];
  const [rows, overlap] = await Promise.all([
    from(db)
      .selectFrom('bug_counters')
      .select(['scope', 'dim', 'value', 'n'])
      .where('scope', 'in', [...added, ...taken])
      .execute(),
    // A person's scope meets a hidden or team project in a few bugs at most (their own there).
    overlapping.length > 0
      ? sql<{ dim: string; value: string; n: number }>`
          select d.dim, d.value, count(*)::int as n
          from ${sql.table(`${READ_MODEL_SCHEMA}.bugs`)} b
          cross join lateral (values ('status', b.status), ('severity', b.severity), ('priority', b.priority)) as d(dim, value)
          where not b.deleted and not b.archived and ${bugScopeSql(person, 'b')}
            and b.project_id = any(${overlapping}::text[])
          group by d.dim, d.value`
          .execute(db)
          .then((result) => result.rows)
      : [],
  ]);
  if (added.length === 1 && taken.length === 0 && overlap.length === 0) return bugCountsFrom(rows);
  const net = new Map<string, { dim: string; value: string; n: number }>();
  const add = (r: { dim: string; value: string }, n: number) => {
    const key = `${r.dim}\u0000${r.value}`;
    const entry = net.get(key) ?? { dim: r.dim, value: r.value, n: 0 };
    entry.n += n;
    net.set(key, entry);
  };
  for (const r of rows) add(r, added.includes(r.scope) ? r.n : -r.n);
  for (const r of overlap) add(r, -r.n);
  return bugCountsFrom([...net.values()]);
}

/**
 * The scope's counts within these projects (a dashboard's `project` filter): the projects' own
 * counters for every bug, else a count of the scope's rows there (a person's bugs, few).
 */
export async function countBugsIn(
  db: Kysely<ReadModelDb>,
  scope: BugScope,
  projectIds: readonly string[],
  hidden: readonly string[] = [],
): Promise<BugCounts> {
  if (scope.kind === 'all') return countProjectBugs(db, projectIds, hidden);
  const wanted = [...new Set(projectIds)].filter((id) => !hidden.includes(id));
  if (wanted.length === 0) return bugCountsFrom([]);
  const { rows } = await sql<{ dim: string; value: string; n: number }>`
    select d.dim, d.value, count(*)::int as n
    from ${sql.table(`${READ_MODEL_SCHEMA}.bugs`)} b
    cross join lateral (values ('status', b.status), ('severity', b.severity), ('priority', b.priority)) as d(dim, value)
    where not b.deleted and not b.archived and ${bugScopeSql(scope, 'b')} and b.project_id = any(${wanted}::text[])
    group by d.dim, d.value`.execute(db);
  return bugCountsFrom(rows);
}

/** The counts of these projects' bugs (their own counters, added up), less those of `hidden` ones. */
export async function countProjectBugs(
  db: Kysely<ReadModelDb>,
  projectIds: readonly string[],
  hidden: readonly string[] = [],
): Promise<BugCounts> {
  const wanted = [...new Set(projectIds)].filter((id) => !hidden.includes(id));
  if (wanted.length === 0) return bugCountsFrom([]);
  const rows = await from(db)
    .selectFrom('bug_counters')
    .select(['dim', 'value', sql<number>`sum(n)::int`.as('n')])
    .where(
      'scope',
      'in',
      wanted.map((id) => `project:${id}`),
    )
    .groupBy(['dim', 'value'])
    .execute();
  return bugCountsFrom(rows);
}

/** Counts by dimension from (dimension, value, n) rows; what no row names is 0. */
export function bugCountsFrom(rows: readonly { dim: string; value: string; n: number }[]): BugCounts {
  const counts = {
    status: { Open: 0, 'In Progress': 0, Closed: 0 },
    severity: { Minor: 0, Major: 0, Critical: 0 },
    priority: { Low: 0, Medium: 0, High: 0 },
  } as Record<string, Record<string, number>>;
  for (const r of rows) {
    const dim = counts[r.dim];
    if (dim && r.value in dim) dim[r.value] = r.n;
  }
  return counts as unknown as BugCounts;
}

/** How many live bugs there are (from the counters: each live bug has one status). */
export async function countLiveBugs(db: Kysely<ReadModelDb>): Promise<number> {
  const { status } = await countBugs(db, { kind: 'all' });
  return status.Open + status['In Progress'] + status.Closed;
}

export type UserBugCounts = Readonly<{
  createdBugs: number;
  assignedBugs: number;
  pendingTasks: number;
  inProgressTasks: number;
  completedTasks: number;
}>;

export const noUserBugCounts: UserBugCounts = {
  createdBugs: 0,
  assignedBugs: 0,
  pendingTasks: 0,
  inProgressTasks: 0,
  completedTasks: 0,
};

/** Each user's task counters (over the bugs assigned to them) and how many bugs they reported. */
export async function countUserBugs(
  db: Kysely<ReadModelDb>,
  userIds: readonly string[],
): Promise<Map<string, UserBugCounts>> {
  const result = new Map<string, UserBugCounts>();
  if (userIds.length === 0) return result;
  const scopes = userIds.flatMap((id) => [`reporter:${id}`, `assignee:${id}`]);
  const rows = await from(db)
    .selectFrom('bug_counters')
    .select(['scope', 'value', 'n'])
    .where('scope', '=', sql<string>`any(${scopes}::text[])`)
    .where('dim', '=', sql<'status'>`'status'`)
    .execute();
  const mutable = new Map<string, { -readonly [K in keyof UserBugCounts]: number }>();
  for (const id of userIds) mutable.set(id, { ...noUserBugCounts });
  for (const r of rows) {
    const colon = r.scope.indexOf(':');
    const kind = r.scope.slice(0, colon);
    const c = mutable.get(r.scope.slice(colon + 1));
    if (!c) continue;
    if (kind === 'reporter') c.createdBugs += r.n;
    else {
      c.assignedBugs += r.n;
      if (r.value === 'Open') c.pendingTasks += r.n;
      else if (r.value === 'In Progress') c.inProgressTasks += r.n;
      else if (r.value === 'Closed') c.completedTasks += r.n;
    }
  }
  for (const [id, c] of mutable) result.set(id, c);
  return result;
}

/** Every live bug, oldest first, a page at a time (exports): memory stays flat at any size. */
export async function* bugPages(db: Kysely<ReadModelDb>, pageSize = 1000): AsyncGenerator<BugDto[]> {
  let after: { createdAt: string; id: string } | null = null;
  for (;;) {
    const cursor: { createdAt: string; id: string } | null = after;
    const rows: { dto: BugDto; ck: string; id: string }[] = await from(db)
      .selectFrom('bugs')
      .select(['dto', ...keysetColumns])
      .where((eb) => {
        const live = eb.not(eb.ref('deleted'));
        if (!cursor) return live;
        const after = eb(
          eb.refTuple('created_at', 'id'),
          '>',
          eb.tuple(sql<Date>`${cursor.createdAt}::timestamptz`, cursor.id),
        );
        return eb.and([live, after]);
      })
      .orderBy('created_at')
      .orderBy('id')
      .limit(pageSize)
      .execute();
    if (rows.length === 0) return;
    yield rows.map((r) => r.dto);
    const last = rows[rows.length - 1]!;
    after = { createdAt: last.ck, id: last.id };
    if (rows.length < pageSize) return;
  }
}

/**
 * A list of whole projects narrowed by one select field (and a status) counts from the
 * projects' option counters (`dim = 'field'`) instead of its rows; null when the list narrows
 * by anything else (or sees only some of the projects' bugs), which then counts its rows.
 */
async function countByFieldOption(db: Kysely<ReadModelDb>, query: ListQuery): Promise<number | null> {
  const f = query.filters ?? {};
  const { projects, fields, statuses, ...rest } = f;
  const [filter, ...more] = fields ?? [];
  if (query.scope.kind !== 'all' || query.q?.trim() || !projects?.length || !filter || more.length > 0) return null;
  if (Object.entries(rest).some(([key, value]) => key !== 'today' && value !== undefined && value !== false))
    return null;
  const hidden = new Set(query.hiddenProjects ?? []);
  const shown = projects.filter((p) => !hidden.has(p));
  const counters = optionCounters(filter, shown);
  if (counters === null) return null;
  const wanted = query.status ? [query.status] : (statuses ?? bugStatuses);
  if (query.status && statuses?.length && !statuses.includes(query.status)) return 0;
  const keys = counters.flatMap(({ projectId, prefix }) =>
    wanted.map((status) => ({ scope: `project:${projectId}`, value: `${prefix}${status}` })),
  );
  if (keys.length === 0) return 0;
  const row = await from(db)
    .selectFrom('bug_counters')
    .select(sql<string>`coalesce(sum(n), 0)`.as('n'))
    .where('dim', '=', 'field')
    .where((eb) =>
      eb(
        eb.tuple(eb.ref('scope'), eb.ref('value')),
        'in',
        keys.map((k) => eb.tuple(k.scope, k.value)),
      ),
    )
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
