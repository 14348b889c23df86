import { type Actor, type ProjectState, projectDecider, seesEveryProject, streams } from '@bugtrail/domain';
import type { CommandHandler } from '@bugtrail/eventstore';
import type { AuthEnv } from '@bugtrail/platform';
import type { MiddlewareHandler } from 'hono';
import type pg from 'pg';
import type { WriteApiDeps } from '../deps.js';

/**
 * Who may see which project, as the write side keeps it (`write_api.project_rights`): each
 * project's privacy and members, written in the transaction of the event that changes them
 * (`alongside`, ADR 026; this file is the table's one writer). A bug command asks it which
 * private projects its actor (and the people it names: assignees, mentions) is no member of,
 * so a decision never waits for a read model and a member who has left can change nothing.
 */
export class ProjectRights {
  constructor(private readonly pool: pg.Pool) {}

  /** The project's privacy, access and members as the decided state has them (every project command). */
  static async write(tx: pg.ClientBase | pg.Pool, state: ProjectState): Promise<void> {
    await tx.query(
      `insert into write_api.project_rights (project_id, private, access, members) values ($1, $2, $3, $4)
       on conflict (project_id) do update set private = excluded.private, access = excluded.access, members = excluded.members`,
      [state.id, state.private, state.access, Object.keys(state.members)],
    );
  }

  /**
   * The private projects `actor` is no member of (`hidden`) and the team projects they are a
   * member of (`team`); neither for admins and auditors.
   */
  async of(actor: Pick<Actor, 'id' | 'role'>): Promise<{ hidden: string[]; team: string[] }> {
    if (seesEveryProject(actor)) return { hidden: [], team: [] };
    const { rows } = await this.pool.query<{ project_id: string; private: boolean; team: boolean; member: boolean }>(
      `select project_id, private, access = 'team' as team, $1 = any(members) as member
       from write_api.project_rights where private or access = 'team'`,
      [actor.id],
    );
    return {
      hidden: rows.filter((r) => r.private && !r.member).map((r) => r.project_id),
      team: rows.filter((r) => r.team && r.member).map((r) => r.project_id),
    };
  }

  /** For each person named, the private projects they are no member of (their roles say who sees every project). */
  async hiddenFromEach(people: ReadonlyMap<string, { role: Actor['role'] }>): Promise<Record<string, string[]>> {
    const hidden: Record<string, string[]> = {};
    if (people.size === 0) return hidden;
    const { rows } = await this.pool.query<{ project_id: string; members: string[] }>(
      'select project_id, members from write_api.project_rights where private',
    );
    for (const [id, person] of people) {
      hidden[id] = seesEveryProject(person)
        ? []
        : rows.filter((row) => !row.members.includes(id)).map((row) => row.project_id);
    }
    return hidden;
  }

  /**
   * Projects made before this table (issue 35's first slices) are folded in from their streams
   * once, at start: each project named in `project_keys` without a row here. Idempotent, and
   * several processes starting at once write the same rows.
   */
  async fillFromStreams(commands: CommandHandler): Promise<void> {
    const { rows } = await this.pool.query<{ project_id: string }>(
      `select distinct k.project_id from write_api.project_keys k
       where not exists (select 1 from write_api.project_rights a where a.project_id = k.project_id)`,
    );
    for (const { project_id } of rows) {
      const { state } = await commands.load(streams.project(project_id), projectDecider);
      if (!state.exists) continue;
      await ProjectRights.write(this.pool, state);
    }
  }
}

/**
 * After `requireAuth`: the caller with their project rights as the write side knows them
 * (`Actor.hiddenProjects`, `Actor.teamProjects`). The bug deciders treat a hidden project's bugs
 * as missing (404), so a member who has left changes nothing there, and let a team project's
 * members work on its bugs; read-api's middleware of the same name does the same for every read.
 */
export function withProjectRights(deps: Pick<WriteApiDeps, 'pool'>): MiddlewareHandler<AuthEnv> {
  const rights = new ProjectRights(deps.pool);
  return async (c, next) => {
    const actor = c.var.actor;
    if (actor.hiddenProjects === undefined) {
      const { hidden, team } = await rights.of(actor);
      c.set('actor', { ...actor, hiddenProjects: hidden, teamProjects: team });
    }
    await next();
  };
}
