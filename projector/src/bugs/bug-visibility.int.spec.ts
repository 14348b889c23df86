import {
  type Actor,
  type BugScope,
  bugAudience,
  bugPermissions,
  coversBugScope,
  defaultRank,
  generalProject,
  type Role,
} from '@bugtrail/domain';
import { createTestDatabase, type ThrowawayDatabase } from '@bugtrail/testing';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flowProjection } from '../flow/flow.projection.js';
import { countBugsAsOf, newestBugIdsAsOf } from '../flow/flow.queries.js';
import type { ReadModelDb } from '../schema.js';
import { bugScopeSql, isInBugScope, listedBugScope, visibleBugScope, visibleBugsSql } from './bug-visibility.js';
import { bugsProjection } from './bugs.projection.js';
import { countBugs, findVisibleBugByNumber, listBugs, searchVisibleBugs } from './bugs.queries.js';

/**
 * The visibility rule has two spellings, the domain's predicate (`bugPermissions.canView`,
 * `isInBugScope`) and the read model's SQL (bug-visibility.ts): here both answer the same
 * for every role, over bugs reported by one tester or another, assigned to one developer,
 * another, both or nobody, live and deleted.
 */

type Facts = {
  id: string;
  number: number;
  reporterId: string;
  assigneeIds: string[];
  deleted: boolean;
  projectId: string;
};

const actors: Record<string, Actor> = {
  admin: { id: 'admin-1', role: 'admin' },
  auditor: { id: 'auditor-1', role: 'auditor' },
  tester: { id: 'tester-1', role: 'tester' },
  otherTester: { id: 'tester-2', role: 'tester' },
  developer: { id: 'dev-1', role: 'developer' },
  otherDeveloper: { id: 'dev-2', role: 'developer' },
  idleDeveloper: { id: 'dev-3', role: 'developer' },
  // No members of the private project SEC (issue 35): its bugs do not exist for them.
  testerOutsideSec: { id: 'tester-1', role: 'tester', hiddenProjects: ['p-sec'] },
  developerOutsideSec: { id: 'dev-1', role: 'developer', hiddenProjects: ['p-sec'] },
  // Members of the team project WEB (access "team"): every bug of it is theirs to see, besides their own.
  testerInWebTeam: { id: 'tester-2', role: 'tester', hiddenProjects: ['p-sec'], teamProjects: ['p-web'] },
  developerInWebTeam: { id: 'dev-3', role: 'developer', hiddenProjects: [], teamProjects: ['p-web'] },
};

const bugs: Facts[] = [];
for (const reporterId of ['tester-1', 'tester-2', 'admin-1']) {
  for (const assigneeIds of [[], ['dev-1'], ['dev-2'], ['dev-1', 'dev-2']]) {
    for (const deleted of [false, true]) {
      for (const projectId of [generalProject.id, 'p-sec', 'p-web']) {
        const number = bugs.length + 1;
        bugs.push({ id: `bug-${number}`, number, reporterId, assigneeIds, deleted, projectId });
      }
    }
  }
}

const ids = (list: readonly { id: string }[]) => list.map((b) => b.id).sort();

describe('bug visibility: the SQL and the predicate agree', () => {
  let database: ThrowawayDatabase;
  let pool: pg.Pool;
  let db: Kysely<ReadModelDb>;
  const at = new Date('2030-01-01T00:00:00Z');

  beforeAll(async () => {
    database = await createTestDatabase();
    pool = new pg.Pool({ connectionString: database.url, max: 2 });
    db = new Kysely<ReadModelDb>({ dialect: new PostgresDialect({ pool }) });
    await sql`create schema rm`.execute(db);
    await bugsProjection.createTables(db, 'rm');
    await flowProjection.createTables(db, 'rm');
    for (const b of bugs) {
      const created = new Date(Date.UTC(2029, 0, b.number)).toISOString();
      const dto = { _id: b.id, number: b.number, title: `Visibility case ${b.number}`, description: 'Shared words' };
      await sql`insert into rm.bugs (id, number, project_id, reporter_id, assignee_ids, people, status, priority, severity,
          created_at, updated_at, deleted, rank, revision, dto)
        values (${b.id}, ${b.number}, ${b.projectId}, ${b.reporterId}, ${b.assigneeIds}::text[], ${[b.reporterId, ...b.assigneeIds]}::text[],
          'Open', 'Medium', 'Major', ${created}, ${created}, ${b.deleted}, ${defaultRank(b.number)}, 1, ${JSON.stringify(dto)}::jsonb)`.execute(
        db,
      );
      await sql`insert into rm.flow_bugs (bug_id, reporter_id, created_at, deleted_at, revision, state)
        values (${b.id}, ${b.reporterId}, ${created}, ${b.deleted ? created : null}, 1, '{}'::jsonb)`.execute(db);
      for (const status of [
        ['status', 'Open'],
        ['severity', 'Major'],
        ['priority', 'Medium'],
        ['project', b.projectId],
      ] as const) {
        await sql`insert into rm.bug_intervals (bug_id, field, value, entered_at, entered_revision)
          values (${b.id}, ${status[0]}, ${status[1]}, ${created}, 1)`.execute(db);
      }
      for (const a of b.assigneeIds) {
        await sql`insert into rm.bug_intervals (bug_id, field, value, entered_at, entered_revision)
          values (${b.id}, 'assignee', ${a}, ${created}, 1)`.execute(db);
      }
    }
    // The counters as the projection keeps them: every live bug in each scope it is in.
    const counters = new Map<string, number>();
    for (const b of bugs.filter((bug) => !bug.deleted)) {
      const scopes = [
        '*',
        `project:${b.projectId}`,
        `reporter:${b.reporterId}`,
        ...b.assigneeIds.map((a) => `assignee:${a}`),
      ];
      for (const scope of scopes) counters.set(scope, (counters.get(scope) ?? 0) + 1);
    }
    for (const [scope, n] of counters) {
      for (const [dim, value] of [
        ['status', 'Open'],
        ['severity', 'Major'],
        ['priority', 'Medium'],
      ]) {
        await sql`insert into rm.bug_counters (scope, dim, value, n) values (${scope}, ${dim}, ${value}, ${n})`.execute(
          db,
        );
      }
    }
  });
  afterAll(async () => {
    await db?.destroy();
    await database?.drop();
  });

  const inScope = async (scope: BugScope, alias?: string) => {
    const rows = alias
      ? await sql<{ id: string }>`select b.id from rm.bugs b where ${bugScopeSql(scope, 'b')}`.execute(db)
      : await sql<{ id: string }>`select id from rm.bugs where ${bugScopeSql(scope)}`.execute(db);
    return ids(rows.rows);
  };

  for (const [name, actor] of Object.entries(actors)) {
    describe(`${name} (${actor.role as Role})`, () => {
      const canView = bugs.filter((b) => bugPermissions.canView(actor, b));

      it('the scope in SQL holds the bugs the predicate puts in it, with or without an alias', async () => {
        const scope = visibleBugScope(actor);
        const expected = ids(bugs.filter((b) => isInBugScope(scope, b)));
        expect(await inScope(scope)).toEqual(expected);
        expect(await inScope(scope, 'b')).toEqual(expected);
        const listed = listedBugScope(actor);
        expect(await inScope(listed)).toEqual(ids(bugs.filter((b) => isInBugScope(listed, b))));
      });

      it('the bugs it may see in SQL are the bugs canView allows', async () => {
        const { rows } = await sql<{ id: string }>`select id from rm.bugs where ${visibleBugsSql(actor)}`.execute(db);
        expect(ids(rows)).toEqual(ids(canView));
        const aliased = await sql<{
          id: string;
        }>`select b.id from rm.bugs b where ${visibleBugsSql(actor, 'b')}`.execute(db);
        expect(ids(aliased.rows)).toEqual(ids(canView));
      });

      it("lists, the AI tools' search and a bug by number answer what canView allows", async () => {
        const page = await listBugs(db, { scope: visibleBugScope(actor), hiddenProjects: actor.hiddenProjects });
        expect(page.bugs.map((b) => b._id).sort()).toEqual(ids(canView));
        const found = await searchVisibleBugs(db, actor, 'visibility', 100);
        expect(found.map((b) => b._id).sort()).toEqual(ids(canView));
        for (const b of bugs) {
          const dto = await findVisibleBugByNumber(db, actor, b.number);
          expect(dto?._id ?? null, `#${b.number}`).toBe(bugPermissions.canView(actor, b) ? b.id : null);
        }
      });

      // The project's stays say where each bug was then (a private project's outsiders, a team's members).
      it('the dashboards as of a date count what canView allowed then', async () => {
        const scope = visibleBugScope(actor);
        const counts = await countBugsAsOf(db, scope, at, actor.hiddenProjects);
        expect(counts.status.Open).toBe(canView.length);
        expect((await newestBugIdsAsOf(db, scope, at, 100, actor.hiddenProjects)).sort()).toEqual(ids(canView));
      });

      // Those outside a project list with its bugs left out (ListQuery.hiddenProjects): a scope is theirs whole.
      it.skipIf(actor.hiddenProjects)('may list whole only the scopes whose every bug it may open', async () => {
        const scopes: BugScope[] = [
          { kind: 'all' },
          ...['tester-1', 'tester-2', 'admin-1'].map((id): BugScope => ({ kind: 'reporter', id })),
          ...['dev-1', 'dev-2'].map((id): BugScope => ({ kind: 'assignee', id })),
        ];
        for (const scope of scopes) {
          const live = bugs.filter((b) => !b.deleted && isInBugScope(scope, b));
          const allVisible = live.every((b) => bugPermissions.canView(actor, b));
          expect(coversBugScope(visibleBugScope(actor), scope), JSON.stringify(scope)).toBe(allVisible);
        }
      });

      it('counts what canView allows among the live bugs not archived, less what its projects hide', async () => {
        const counts = await countBugs(db, visibleBugScope(actor), actor.hiddenProjects);
        const live = canView.filter((b) => !b.deleted);
        expect(counts.status.Open + counts.status['In Progress'] + counts.status.Closed).toBe(live.length);
      });

      it('hears live of every bug it may see (and of every bug when it sees them all)', () => {
        for (const b of bugs) {
          const hears = bugPermissions.hearsOf(actor, {
            ids: bugAudience(b),
            isPublic: false,
            projects: [b.projectId],
          });
          if (bugPermissions.canView(actor, b)) expect(hears, b.id).toBe(true);
          if (visibleBugScope(actor).kind === 'all') expect(hears, b.id).toBe(true);
        }
      });
    });
  }
});
