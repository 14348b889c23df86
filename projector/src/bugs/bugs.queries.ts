import type { BugDto, BugStatus } from '@bugtrail/domain';
import { type Kysely, type RawBuilder, sql } from 'kysely';
import { READ_MODEL_SCHEMA } from '../runtime/projection.js';
import { type BugScope, scopeKey } from './bugs.tables.js';

/**
 * The queries read-api runs on the bugs read model. Every list is newest first,
 * keyset-paged on (created_at, id); every count comes from the counters, never a
 * count(*) over bugs.
 */
const bugs = sql.id(READ_MODEL_SCHEMA, 'bugs');
const counters = sql.id(READ_MODEL_SCHEMA, 'bug_counters');

export type ListCursor = Readonly<{ createdAt: string; id: string }>;

export type ListQuery = Readonly<{
  scope: BugScope;
  status?: BugStatus | undefined;
  q?: string | undefined;
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
  if (!id || !TIMESTAMP.test(createdAt)) return null;
  const iso = createdAt.replace(' ', 'T').replace(/([+-]\d{2})$/, '$1:00');
  if (Number.isNaN(Date.parse(iso))) return null;
  return { createdAt, id };
}

function scopeWhere(scope: BugScope) {
  switch (scope.kind) {
    case 'all':
      return sql`true`;
    case 'reporter':
      return sql`reporter_id = ${scope.id}`;
    case 'assignee':
      return sql`assignee_ids @> array[${scope.id}]::text[]`;
  }
}

export async function listBugs(
  db: Kysely<any>,
  query: ListQuery,
): Promise<{ bugs: BugDto[]; nextCursor: string | null }> {
  const conditions = [sql`not deleted`, scopeWhere(query.scope)];
  if (query.status) conditions.push(sql`status = ${query.status}`);
  if (query.q?.trim()) conditions.push(sql`search @@ websearch_to_tsquery('english', ${query.q.trim()})`);
  if (query.cursor) {
    conditions.push(sql`(created_at, id) < (${query.cursor.createdAt}::timestamptz, ${query.cursor.id})`);
  }
  const limit = query.limit === undefined ? sql`` : sql`limit ${query.limit + 1}`;
  const { rows } = await sql<{ dto: BugDto; ck: string; id: string }>`
    select dto, created_at::text as ck, id from ${bugs}
    where ${sql.join(conditions, sql` and `)}
    order by created_at desc, id desc ${limit}`.execute(db);
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

export async function findBug(db: Kysely<any>, id: string): Promise<BugAccessRow | null> {
  const { rows } = await sql<{ dto: BugDto; reporter_id: string; assignee_ids: string[]; deleted: boolean }>`
    select dto, reporter_id, assignee_ids, deleted from ${bugs} where id = ${id}`.execute(db);
  const row = rows[0];
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
export async function countBugs(db: Kysely<any>, scope: BugScope): Promise<BugCounts> {
  const { rows } = await sql<{ dim: string; value: string; n: number }>`
    select dim, value, n from ${counters} where scope = ${scopeKey(scope)}`.execute(db);
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
export async function countUserBugs(db: Kysely<any>, userIds: readonly string[]): Promise<Map<string, UserBugCounts>> {
  const result = new Map<string, UserBugCounts>();
  if (userIds.length === 0) return result;
  const scopes = userIds.flatMap((id) => [`reporter:${id}`, `assignee:${id}`]);
  const { rows } = await sql<{ scope: string; value: string; n: number }>`
    select scope, value, n from ${counters} where scope = any(${scopes}::text[]) and dim = 'status'`.execute(db);
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
export async function* bugPages(db: Kysely<any>, pageSize = 1000): AsyncGenerator<BugDto[]> {
  let after: ListCursor | null = null;
  for (;;) {
    const keyset: RawBuilder<unknown> = after
      ? sql`and (created_at, id) > (${after.createdAt}::timestamptz, ${after.id})`
      : sql``;
    const { rows }: { rows: { dto: BugDto; ck: string; id: string }[] } = await sql<{
      dto: BugDto;
      ck: string;
      id: string;
    }>`
      select dto, created_at::text as ck, id from ${bugs} where not deleted ${keyset}
      order by created_at, id limit ${pageSize}`.execute(db);
    if (rows.length === 0) return;
    yield rows.map((r) => r.dto);
    const last: { ck: string; id: string } = rows[rows.length - 1]!;
    after = { createdAt: last.ck, id: last.id };
    if (rows.length < pageSize) return;
  }
}
