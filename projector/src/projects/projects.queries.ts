import { type Actor, generalProject, seesEveryProject } from '@bugtrail/domain';
import { type Kysely, type Selectable, sql } from 'kysely';
import { READ_MODEL_SCHEMA } from '../runtime/projection.js';
import type { ReadModelDb } from '../schema.js';
import type { ProjectsTable } from './projects.tables.js';

export type ProjectRow = Selectable<ProjectsTable> & {
  members: { user_id: string; role: string; name: string; profile_image_url: string | null }[];
};

/**
 * The projects `actor` may see, in the order they were made (`ids`: only these). The one rule
 * of who sees a project on the read side (api.md "Projects"): a private project is absent
 * for a non-member.
 */
export async function listVisibleProjects(
  db: Kysely<ReadModelDb>,
  actor: Actor,
  ids?: readonly string[],
): Promise<ProjectRow[]> {
  const rm = db.withSchema(READ_MODEL_SCHEMA);
  let query = rm.selectFrom('projects').selectAll('projects').orderBy('position');
  if (ids) {
    if (ids.length === 0) return [];
    query = query.where('projects.id', 'in', ids);
  }
  if (!seesEveryProject(actor)) {
    query = query.where((eb) =>
      eb.or([
        eb('projects.private', '=', false),
        eb.exists(
          eb
            .selectFrom('project_members')
            .select('project_members.user_id')
            .whereRef('project_members.project_id', '=', 'projects.id')
            .where('project_members.user_id', '=', actor.id),
        ),
      ]),
    );
  }
  const projects = await query.execute();
  if (projects.length === 0) return [];
  const members = await rm
    .selectFrom('project_members')
    .leftJoin('users', 'users.id', 'project_members.user_id')
    .select([
      'project_members.project_id',
      'project_members.user_id',
      'project_members.role',
      'users.name',
      'users.profile_image_url',
    ])
    .where(
      'project_members.project_id',
      'in',
      projects.map((p) => p.id),
    )
    .execute();
  return projects.map((p) => ({
    ...p,
    members: members
      .filter((m) => m.project_id === p.id)
      .map((m) => ({
        user_id: m.user_id,
        role: m.role,
        name: m.name ?? '',
        profile_image_url: m.profile_image_url ?? null,
      })),
  }));
}

/** The project an id or any key it has had names, if `actor` may see it; else null (404). */
export async function findVisibleProject(
  db: Kysely<ReadModelDb>,
  actor: Actor,
  idOrKey: string,
): Promise<ProjectRow | null> {
  const byKey = await db
    .withSchema(READ_MODEL_SCHEMA)
    .selectFrom('project_keys')
    .select('project_id')
    .where('key', '=', idOrKey)
    .executeTakeFirst();
  const [row] = await listVisibleProjects(db, actor, [byKey?.project_id ?? idOrKey]);
  return row ?? null;
}

/** The default project's id: the one an admin chose, else General. */
export async function defaultProjectId(db: Kysely<ReadModelDb>): Promise<string> {
  const row = await db
    .withSchema(READ_MODEL_SCHEMA)
    .selectFrom('default_project')
    .select('project_id')
    .executeTakeFirst();
  return row?.project_id ?? generalProject.id;
}

/** Each of these projects' key and name now (a bug's answer names its project): any caller, ids it holds already. */
export async function findProjectLabels(
  db: Kysely<ReadModelDb>,
  ids: Iterable<string>,
): Promise<Map<string, { key: string; name: string }>> {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return new Map();
  const rows = await db
    .withSchema(READ_MODEL_SCHEMA)
    .selectFrom('projects')
    .select(['id', 'key', 'name'])
    .where('id', 'in', wanted)
    .execute();
  return new Map(rows.map((row) => [row.id, { key: row.key, name: row.name }]));
}

/**
 * What a person's projects give and take (api.md "Projects"): the private projects they are no
 * member of (`hidden`: their bugs do not exist for them) and the team projects they are a member
 * of (`team`: they read and work on all of their bugs). Admins and auditors: neither.
 */
export type ProjectRights = Readonly<{ hidden: readonly string[]; team: readonly string[] }>;
export const noProjectRights: ProjectRights = { hidden: [], team: [] };

/** A project that changes someone's rights (private, or team access), with its members. */
export type RestrictedProject = Readonly<{ id: string; private: boolean; team: boolean; members: ReadonlySet<string> }>;

/** Every private or team project with its members: to work out many people's rights at once (live streams). */
export async function restrictedProjects(db: Kysely<ReadModelDb>): Promise<RestrictedProject[]> {
  const rows = await db
    .withSchema(READ_MODEL_SCHEMA)
    .selectFrom('projects')
    .leftJoin('project_members', 'project_members.project_id', 'projects.id')
    .select(['projects.id', 'projects.private', 'projects.access', 'project_members.user_id'])
    .where((eb) => eb.or([eb('projects.private', '=', true), eb('projects.access', '=', 'team')]))
    .execute();
  const byId = new Map<string, { id: string; private: boolean; team: boolean; members: Set<string> }>();
  for (const row of rows) {
    const project = byId.get(row.id) ?? {
      id: row.id,
      private: row.private,
      team: row.access === 'team',
      members: new Set(),
    };
    if (row.user_id) project.members.add(row.user_id);
    byId.set(row.id, project);
  }
  return [...byId.values()];
}

/** `projectRightsOf` from `restrictedProjects`' answer. */
export function projectRightsAmong(
  projects: readonly RestrictedProject[],
  actor: Pick<Actor, 'id' | 'role'>,
): ProjectRights {
  if (seesEveryProject(actor)) return noProjectRights;
  return {
    hidden: projects.filter((p) => p.private && !p.members.has(actor.id)).map((p) => p.id),
    team: projects.filter((p) => p.team && p.members.has(actor.id)).map((p) => p.id),
  };
}

/** The person's project rights, read once per request (a few rows at most). */
export async function projectRightsOf(
  db: Kysely<ReadModelDb>,
  actor: Pick<Actor, 'id' | 'role'>,
): Promise<ProjectRights> {
  if (seesEveryProject(actor)) return noProjectRights;
  const { rows } = await sql<{ id: string; private: boolean; team: boolean; member: boolean }>`
    select p.id, p.private, p.access = 'team' as team,
      exists (select 1 from ${sql.table(`${READ_MODEL_SCHEMA}.project_members`)} m
              where m.project_id = p.id and m.user_id = ${actor.id}) as member
    from ${sql.table(`${READ_MODEL_SCHEMA}.projects`)} p
    where p.private or p.access = 'team'`.execute(db);
  return {
    hidden: rows.filter((r) => r.private && !r.member).map((r) => r.id),
    team: rows.filter((r) => r.team && r.member).map((r) => r.id),
  };
}

/** The actor with their project rights (`hiddenProjects`, `teamProjects`), as every bug read takes them. */
export async function withProjectRightsOf<A extends Actor>(db: Kysely<ReadModelDb>, actor: A): Promise<A> {
  const rights = await projectRightsOf(db, actor);
  return { ...actor, hiddenProjects: rights.hidden, teamProjects: rights.team };
}
