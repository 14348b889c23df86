import {
  type BugLinks,
  type BugState,
  type LinkedBug,
  noLinks,
  parseBugKey,
  type RelationEdge,
  relationEdge,
  relationSeenFrom,
  type ShownRelationType,
} from '@bugtrail/domain';
import type { RecordedEvent } from '@bugtrail/eventstore';
import { sql, type Transaction } from 'kysely';
import type { ReadModelDb } from '../schema.js';

/**
 * Relations and sub-bugs in the bugs projection (api.md "Relations and sub-bugs", issue 36).
 * A relation is recorded on one bug's stream; both bugs show it, and every bug answer names
 * the other bug as it is now (key, title, status). So `bug_links` keeps each relation both ways,
 * and when a bug changes, the bugs that show it (its relations, its parent, its sub-bugs) are
 * written again in the same batch: every read path gets them from the row, at no cost to it.
 */
type Tx = Transaction<ReadModelDb>;
const t = (schema: string, table: string) => sql.id(schema, table);

/** What the links module needs of the batch's bugs (the projection's entries). */
export type LinkEntry = { id: string; before: BugState; state: BugState; changed: boolean };
type Row = {
  id: string;
  dto: { key?: string | null; title: string; status: LinkedBug['status']; number: number | null; projectId?: string };
  deleted: boolean;
  parent_id: string | null;
};

const RELATION_EVENTS: ReadonlySet<string> = new Set(['BugRelationAdded', 'BugRelationRemoved']);

/** The directed rows of one relation: each bug names it its way. */
function directed(edge: RelationEdge): [string, string, ShownRelationType][] {
  return [
    [edge.from, edge.to, relationSeenFrom(edge, edge.from)],
    [edge.to, edge.from, relationSeenFrom(edge, edge.to)],
  ];
}

/** The batch's relation events written to `bug_links`, in order (the last word on a pair wins); answers both ends of each. */
export async function writeRelations(
  db: Tx,
  schema: string,
  bugEvents: readonly RecordedEvent[],
): Promise<Set<string>> {
  const last = new Map<string, { row: [string, string, ShownRelationType]; add: boolean }>();
  const ends = new Set<string>();
  for (const e of bugEvents) {
    if (!RELATION_EVENTS.has(e.type)) continue;
    const d = e.data as { bugId: string; otherBugId: string; type: ShownRelationType };
    ends.add(d.bugId);
    ends.add(d.otherBugId);
    for (const row of directed(relationEdge(d.bugId, d.type, d.otherBugId))) {
      last.set(row.join('\u0000'), { row, add: e.type === 'BugRelationAdded' });
    }
  }
  const added = [...last.values()].filter((x) => x.add).map((x) => x.row);
  const removed = [...last.values()].filter((x) => !x.add).map((x) => x.row);
  const columns = (rows: [string, string, string][]) =>
    sql`unnest(${rows.map((r) => r[0])}::text[], ${rows.map((r) => r[1])}::text[], ${rows.map((r) => r[2])}::text[])`;
  if (removed.length > 0) {
    await sql`delete from ${t(schema, 'bug_links')} l using ${columns(removed)} as x(bug_id, other_id, type)
      where l.bug_id = x.bug_id and l.other_id = x.other_id and l.type = x.type`.execute(db);
  }
  if (added.length > 0) {
    await sql`insert into ${t(schema, 'bug_links')} (bug_id, other_id, type)
      select * from ${columns(added)} on conflict do nothing`.execute(db);
  }
  return ends;
}

/**
 * The bugs whose answers show one of `changed` (related to it, its parent, its sub-bugs), to be
 * written again, deleted ones too (their rows keep answering history and rebuilds alike);
 * `parents` are the parents the batch's bugs had or have.
 */
export async function bugsShowing(
  db: Tx,
  schema: string,
  changed: readonly string[],
  parents: readonly string[],
  relabelledProjects: readonly string[],
) {
  const found = new Set(parents);
  if (changed.length > 0) {
    const { rows } = await sql<{ id: string }>`
      select other_id as id from ${t(schema, 'bug_links')} where bug_id = any(${changed}::text[])
      union select id from ${t(schema, 'bugs')} where parent_id = any(${changed}::text[])`.execute(db);
    for (const r of rows) found.add(r.id);
  }
  // A project's new key: the bugs that name one of its bugs (related, sub-bugs, parents) show it.
  if (relabelledProjects.length > 0) {
    const { rows } = await sql<{ id: string }>`
      with named as (select id, parent_id from ${t(schema, 'bugs')} where project_id = any(${relabelledProjects}::text[]))
      select l.other_id as id from ${t(schema, 'bug_links')} l where l.bug_id in (select id from named)
      union select c.id from ${t(schema, 'bugs')} c where c.parent_id in (select id from named)
      union select parent_id from named where parent_id is not null`.execute(db);
    for (const r of rows) found.add(r.id);
  }
  return [...found];
}

/**
 * Each entry's relations, parent and sub-bug counts, from `bug_links`, the stored rows and the
 * batch's own states (which win over the rows they replace). `keyOf` names a batch bug's key.
 */
export async function linksOfEntries(
  db: Tx,
  schema: string,
  entries: ReadonlyMap<string, LinkEntry>,
  keyOf: (projectId: string, projectNumber: number | null) => string | null | undefined,
): Promise<(id: string) => BugLinks> {
  const ids = [...entries.keys()];
  if (ids.length === 0) return () => noLinks;
  const [links, kids] = await Promise.all([
    sql<{ bug_id: string; other_id: string; type: ShownRelationType }>`
      select bug_id, other_id, type from ${t(schema, 'bug_links')} where bug_id = any(${ids}::text[])`.execute(db),
    sql<{ id: string; parent_id: string }>`
      select id, parent_id from ${t(schema, 'bugs')} where parent_id = any(${ids}::text[]) and not deleted`.execute(db),
  ]);
  // Sub-bugs: the stored ones, less those the batch moved away, plus those it moved in.
  const children = new Map<string, Set<string>>();
  const addChild = (parent: string, child: string) => {
    if (!entries.has(parent)) return;
    if (!children.has(parent)) children.set(parent, new Set());
    children.get(parent)!.add(child);
  };
  for (const k of kids.rows) if (!entries.has(k.id)) addChild(k.parent_id, k.id);
  for (const e of entries.values()) {
    if (e.state.kind === 'reported' && !e.state.deleted && e.state.parentId) addChild(e.state.parentId, e.id);
  }
  const others = new Set<string>();
  for (const l of links.rows) others.add(l.other_id);
  for (const set of children.values()) for (const id of set) others.add(id);
  for (const e of entries.values()) if (e.state.kind === 'reported' && e.state.parentId) others.add(e.state.parentId);
  const missing = [...others].filter((id) => !entries.has(id));
  const stored = new Map<string, Row>();
  if (missing.length > 0) {
    const { rows } = await sql<Row>`select id, dto, deleted, parent_id from ${t(schema, 'bugs')}
      where id = any(${missing}::text[])`.execute(db);
    for (const r of rows) stored.set(r.id, r);
  }
  const facts = (id: string): LinkedBug | null => {
    const entry = entries.get(id);
    if (entry) {
      const s = entry.state;
      if (s.kind !== 'reported' || s.deleted) return null;
      return {
        _id: s.id,
        number: s.number,
        key: keyOf(s.projectId, s.projectNumber) ?? null,
        title: s.title,
        status: s.status,
        projectId: s.projectId,
      };
    }
    const row = stored.get(id);
    if (!row || row.deleted) return null;
    // Its key with its project's key as the batch knows it (a new key may not be on its row yet).
    const number = row.dto.key ? (parseBugKey(row.dto.key)?.number ?? null) : null;
    const key = row.dto.projectId ? keyOf(row.dto.projectId, number) : undefined;
    return {
      _id: id,
      number: row.dto.number ?? null,
      key: key === undefined ? (row.dto.key ?? null) : key,
      title: row.dto.title,
      status: row.dto.status,
      projectId: row.dto.projectId ?? '',
    };
  };
  const relationsOf = new Map<string, BugLinks['relations']>();
  for (const l of [...links.rows].sort((a, b) =>
    a.other_id < b.other_id ? -1 : a.other_id > b.other_id ? 1 : a.type < b.type ? -1 : 1,
  )) {
    const other = facts(l.other_id);
    if (!other) continue;
    if (!relationsOf.has(l.bug_id)) relationsOf.set(l.bug_id, []);
    relationsOf.get(l.bug_id)!.push({ type: l.type, bug: other });
  }
  return (id) => {
    const entry = entries.get(id);
    const parentId = entry?.state.kind === 'reported' ? entry.state.parentId : null;
    const parent = parentId ? facts(parentId) : null;
    const kidFacts = [...(children.get(id) ?? [])].flatMap((k) => {
      const f = facts(k);
      return f ? [f] : [];
    });
    return {
      relations: relationsOf.get(id) ?? [],
      parent: parent
        ? { _id: parent._id, key: parent.key, title: parent.title, status: parent.status, projectId: parent.projectId }
        : null,
      subBugs: { total: kidFacts.length, closed: kidFacts.filter((k) => k.status === 'Closed').length },
    };
  };
}
