import {
  type BugLinks,
  type BugState,
  bugDecider,
  bugKey,
  type Event,
  isHiddenFrom,
  type LinkedBug,
  type RelationEdge,
  type ReportedBug,
  relationEdge,
  relationSeenFrom,
  type ShownRelationType,
  streams,
} from '@bugtrail/domain';

import type pg from 'pg';
import type { WriteApiDeps } from '../deps.js';
import { loadProject } from '../projects/project-facts.js';

/**
 * Relations and sub-bugs as the write side keeps them (`write_api.bug_relations`,
 * `write_api.bug_parents`, ADR 026): written in the transaction of each relation or parent event
 * (this file is the tables' one writer), read by the decisions that follow them (a loop, a
 * blocked close) and by the answers, which name the other bugs from their own streams.
 */
export class BugRelations {
  constructor(private readonly db: pg.Pool | pg.ClientBase) {}

  /** The rows the decided events change: relations added or removed, the parent set. */
  static async write(tx: pg.ClientBase, state: BugState, events: readonly Event[]): Promise<void> {
    for (const e of events) {
      const d = e.data as { bugId: string; otherBugId: string; type: ShownRelationType; parentId: string | null };
      if (e.type === 'BugRelationAdded' || e.type === 'BugRelationRemoved') {
        const edge = relationEdge(d.bugId, d.type, d.otherBugId);
        await tx.query(
          e.type === 'BugRelationAdded'
            ? 'insert into write_api.bug_relations (from_id, to_id, kind) values ($1, $2, $3) on conflict do nothing'
            : 'delete from write_api.bug_relations where from_id = $1 and to_id = $2 and kind = $3',
          [edge.from, edge.to, edge.kind],
        );
      } else if (e.type === 'BugParentSet' && state.kind === 'reported') {
        await tx.query(
          d.parentId === null
            ? 'delete from write_api.bug_parents where bug_id = $1'
            : `insert into write_api.bug_parents (bug_id, parent_id) values ($1, $2)
               on conflict (bug_id) do update set parent_id = excluded.parent_id`,
          d.parentId === null ? [state.id] : [state.id, d.parentId],
        );
      }
    }
  }

  async has(edge: RelationEdge): Promise<boolean> {
    const { rows } = await this.db.query(
      'select 1 from write_api.bug_relations where from_id = $1 and to_id = $2 and kind = $3',
      [edge.from, edge.to, edge.kind],
    );
    return rows.length > 0;
  }

  /** Whether `from` blocks `to` already, directly or through other bugs (a new `to` blocks `from` would loop). */
  async blocksTransitively(from: string, to: string): Promise<boolean> {
    const { rows } = await this.db.query(
      `with recursive reach(id) as (
         select to_id from write_api.bug_relations where from_id = $1 and kind = 'blocks'
         union
         select r.to_id from write_api.bug_relations r join reach on r.from_id = reach.id where r.kind = 'blocks'
       ) select 1 from reach where id = $2 limit 1`,
      [from, to],
    );
    return rows.length > 0;
  }

  /** Whether `ancestor` is `bugId`'s parent, or its parent's, and so on. */
  async isAncestor(ancestor: string, bugId: string): Promise<boolean> {
    const { rows } = await this.db.query(
      `with recursive up(id) as (
         select parent_id from write_api.bug_parents where bug_id = $1
         union
         select p.parent_id from write_api.bug_parents p join up on p.bug_id = up.id
       ) select 1 from up where id = $2 limit 1`,
      [bugId, ancestor],
    );
    return rows.length > 0;
  }

  /** The bugs that block `bugId`. */
  async blockers(bugId: string): Promise<string[]> {
    const { rows } = await this.db.query<{ from_id: string }>(
      `select from_id from write_api.bug_relations where to_id = $1 and kind = 'blocks' order by from_id`,
      [bugId],
    );
    return rows.map((r) => r.from_id);
  }

  /** Every relation `bugId` is part of, named from its side. */
  async of(bugId: string): Promise<{ type: ShownRelationType; otherId: string }[]> {
    const { rows } = await this.db.query<{ from_id: string; to_id: string; kind: RelationEdge['kind'] }>(
      `select from_id, to_id, kind from write_api.bug_relations where from_id = $1
       union all select from_id, to_id, kind from write_api.bug_relations where to_id = $1`,
      [bugId],
    );
    return rows.map((r) => {
      const edge = { from: r.from_id, to: r.to_id, kind: r.kind };
      return { type: relationSeenFrom(edge, bugId), otherId: r.from_id === bugId ? r.to_id : r.from_id };
    });
  }

  async children(bugId: string): Promise<string[]> {
    const { rows } = await this.db.query<{ bug_id: string }>(
      'select bug_id from write_api.bug_parents where parent_id = $1',
      [bugId],
    );
    return rows.map((r) => r.bug_id);
  }
}

/** Other bugs, as the write side reads them from their streams (live ones only). */
export async function loadBugs(deps: WriteApiDeps, ids: readonly string[]): Promise<Map<string, ReportedBug>> {
  const found = new Map<string, ReportedBug>();
  await Promise.all(
    [...new Set(ids)].map(async (id) => {
      const { state } = await deps.commands.load(streams.bug(id), bugDecider);
      if (state.kind === 'reported' && !state.deleted) found.set(id, state);
    }),
  );
  return found;
}

/** The open bugs that block `bugId`, by key: what a close must wait for. */
export async function openBlockersOf(deps: WriteApiDeps, bugId: string): Promise<{ id: string; key: string }[]> {
  const ids = await new BugRelations(deps.pool).blockers(bugId);
  if (ids.length === 0) return [];
  const bugs = await loadBugs(deps, ids);
  const open = [...bugs.values()].filter((b) => b.status !== 'Closed');
  const linked = await linkedBugs(deps, open);
  return open.map((b) => ({ id: b.id, key: linked.get(b.id)?.key ?? `#${b.number ?? '?'}` }));
}

async function linkedBugs(deps: WriteApiDeps, bugs: readonly ReportedBug[]): Promise<Map<string, LinkedBug>> {
  const projects = new Map<string, string>();
  await Promise.all(
    [...new Set(bugs.map((b) => b.projectId))].map(async (id) => projects.set(id, (await loadProject(deps, id)).key)),
  );
  return new Map(
    bugs.map((b) => [
      b.id,
      {
        _id: b.id,
        number: b.number,
        key: bugKey(projects.get(b.projectId) ?? '', b.projectNumber),
        title: b.title,
        status: b.status,
        projectId: b.projectId,
      },
    ]),
  );
}

/**
 * The bug's relations, parent and sub-bug counts as its answer shows them, from the write side's
 * rows and the other bugs' streams; bugs of projects hidden from `reader` are left out.
 */
export async function linksOf(
  deps: WriteApiDeps,
  bug: ReportedBug,
  reader: Parameters<typeof isHiddenFrom>[0],
): Promise<BugLinks> {
  const relations = new BugRelations(deps.pool);
  const [related, children] = await Promise.all([relations.of(bug.id), relations.children(bug.id)]);
  const others = await loadBugs(deps, [
    ...related.map((r) => r.otherId),
    ...children,
    ...(bug.parentId ? [bug.parentId] : []),
  ]);
  const visible = [...others.values()].filter((b) => !isHiddenFrom(reader, b));
  const linked = await linkedBugs(deps, visible);
  const kids = children.flatMap((id) => {
    const child = others.get(id);
    return child && child.parentId === bug.id ? [child] : [];
  });
  const parent = bug.parentId ? linked.get(bug.parentId) : undefined;
  return {
    relations: related.flatMap((r) => {
      const other = linked.get(r.otherId);
      return other ? [{ type: r.type, bug: other }] : [];
    }),
    parent: parent
      ? { _id: parent._id, key: parent.key, title: parent.title, status: parent.status, projectId: parent.projectId }
      : null,
    subBugs: { total: kids.length, closed: kids.filter((k) => k.status === 'Closed').length },
  };
}
