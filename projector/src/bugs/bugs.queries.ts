import type { BugDto, BugStatus } from '@bugtrail/domain';
import { type Expression, type ExpressionBuilder, type Kysely, type SqlBool, sql } from 'kysely';
import { READ_MODEL_SCHEMA } from '../runtime/projection.js';
import type { ReadModelDb } from '../schema.js';
import { type BugScope, scopeKey } from './bugs.tables.js';

/**
 * The queries read-api runs on the bugs read model. Every list is newest first,
 * keyset-paged on (created_at, id); every count comes from the counters, never a
 * count(*) over bugs. Live-bug filters say `not deleted` as the partial indexes do.
 */
const from = (db: Kysely<ReadModelDb>) => db.withSchema(READ_MODEL_SCHEMA);
type BugsEb = ExpressionBuilder<ReadModelDb, 'bugs'>;
/** The keyset: created_at as PostgreSQL prints it (full precision, round-trips), and the id. */
const keysetColumns = [sql<string>`created_at::text`.as('ck'), 'id'] as const;

export type ListCursor = Readonly<{ createdAt: string; id: string }>;

export type ListQuery = Readonly<{
  scope: BugScope;
  status?: BugStatus | undefined;
  q?: string | undefined;
  /**
   * Set to a tester's id when the list shows them others' bugs as rows only: `q` then matches
   * descriptions only of the bugs they reported, so a search cannot read others' descriptions.
   */
  descriptionsOf?: string | undefined;
  limit?: number | undefined;
  cursor?: ListCursor | undefined;
}>;

/** A timestamptz as PostgreSQL prints it (or ISO 8601): checked before it reaches SQL. */
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(\.\d{1,6})?(Z|[+-]\d{2}(:?\d{2})?)$/;

export function encodeCursor(cursor: ListCursor): string {
  return Buffer.from(`${cursor.createdAt}|${cursor.id}`, 'utf8').toString('base64url');
}

/** The cursor, or null when the token is not one of ours. */
export function decodeCursor(token: string): ListCursor | null {
  const text = Buffer.from(token, 'base64url').toString('utf8');
  const bar = text.indexOf('|');
  if (bar < 0) return null;
  const createdAt = text.slice(0, bar);
  const id = text.slice(bar + 1);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: PostgreSQL refuses NUL; no id has control characters
  if (!id || id.length > 200 || /[\u0000-\u001f\u007f]/.test(id) || !isRealTimestamp(createdAt)) return null;
  return { createdAt, id };
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

function scopeWhere(eb: BugsEb, scope: BugScope): Expression<SqlBool> {
  switch (scope.kind) {
    case 'all':
      return sql<boolean>`true`;
    case 'reporter':
      return eb('reporter_id', '=', scope.id);
    case 'assignee':
      return eb('assignee_ids', '@>', sql<string[]>`array[${scope.id}]::text[]`);
  }
}

/** (created_at, id) compared with a cursor, as the indexes order them. */
const keysetAfter = (eb: BugsEb, op: '<' | '>', cursor: ListCursor) =>
  eb(eb.refTuple('created_at', 'id'), op, eb.tuple(sql<Date>`${cursor.createdAt}::timestamptz`, cursor.id));

export async function listBugs(
  db: Kysely<ReadModelDb>,
  query: ListQuery,
): Promise<{ bugs: BugDto[]; nextCursor: string | null }> {
  let select = from(db)
    .selectFrom('bugs')
    .select(['dto', ...keysetColumns])
    .where((eb) => {
      const conditions = [eb.not(eb.ref('deleted')), scopeWhere(eb, query.scope)];
      if (query.status) conditions.push(eb('status', '=', query.status));
      const q = query.q?.trim();
      if (q) {
        const tsquery = sql<string>`websearch_to_tsquery('english', ${q})`;
        conditions.push(eb('search', '@@', tsquery));
        if (query.descriptionsOf !== undefined) {
          conditions.push(
            eb.or([
              eb('reporter_id', '=', query.descriptionsOf),
              eb(sql`to_tsvector('english', coalesce(dto->>'title', ''))`, '@@', tsquery),
            ]),
          );
        }
      }
      if (query.cursor) conditions.push(keysetAfter(eb, '<', query.cursor));
      return eb.and(conditions);
    })
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc');
  if (query.limit !== undefined) select = select.limit(query.limit + 1);
  const rows = await select.execute();
  if (query.limit !== undefined && rows.length > query.limit) {
    const page = rows.slice(0, query.limit);
    const last = page[page.length - 1]!;
    return {
      bugs: page.map((r) => r.dto),
      nextCursor: encodeCursor({ createdAt: last.ck, id: last.id }),
    };
  }
  return { bugs: rows.map((r) => r.dto), nextCursor: null };
}

export type BugAccessRow = Readonly<{ dto: BugDto; reporterId: string; assigneeIds: string[]; deleted: boolean }>;

export async function findBug(db: Kysely<ReadModelDb>, id: string): Promise<BugAccessRow | null> {
  const row = await from(db)
    .selectFrom('bugs')
    .select(['dto', 'reporter_id', 'assignee_ids', 'deleted'])
    .where('id', '=', id)
    .executeTakeFirst();
  return row
    ? { dto: row.dto, reporterId: row.reporter_id, assigneeIds: row.assignee_ids, deleted: row.deleted }
    : null;
}

export type BugCounts = Readonly<{
  status: Readonly<Record<'Open' | 'In Progress' | 'Closed', number>>;
  severity: Readonly<Record<'Minor' | 'Major' | 'Critical', number>>;
  priority: Readonly<Record<'Low' | 'Medium' | 'High', number>>;
}>;

/** The scope's counts by status, severity and priority: at most nine rows, at any size. */
export async function countBugs(db: Kysely<ReadModelDb>, scope: BugScope): Promise<BugCounts> {
  const rows = await from(db)
    .selectFrom('bug_counters')
    .select(['dim', 'value', 'n'])
    .where('scope', '=', scopeKey(scope))
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
  let after: ListCursor | null = null;
  for (;;) {
    const cursor: ListCursor | null = after;
    const rows: { dto: BugDto; ck: string; id: string }[] = await from(db)
      .selectFrom('bugs')
      .select(['dto', ...keysetColumns])
      .where((eb) => {
        const live = eb.not(eb.ref('deleted'));
        return cursor ? eb.and([live, keysetAfter(eb, '>', cursor)]) : live;
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
