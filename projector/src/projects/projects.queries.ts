import { type Actor, generalProject, seesEveryProject } from '@bugtrail/domain';
import type { Kysely, Selectable } from 'kysely';
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
 * The private projects `actor` is no member of (none for admins and auditors): their bugs do
 * not exist for them (api.md "Projects"). Read once per request; a few rows at most.
 */
/** Every private project's members, by project id (for asking many people's `hiddenProjects` at once). */
export async function privateProjectMembers(db: Kysely<ReadModelDb>): Promise<Map<string, Set<string>>> {
  const rows = await db
    .withSchema(READ_MODEL_SCHEMA)
    .selectFrom('projects')
    .leftJoin('project_members', 'project_members.project_id', 'projects.id')
    .select(['projects.id', 'project_members.user_id'])
    .where('projects.private', '=', true)
    .execute();
  const members = new Map<string, Set<string>>();
  for (const row of rows) {
    const set = members.get(row.id) ?? new Set<string>();
    if (row.user_id) set.add(row.user_id);
    members.set(row.id, set);
  }
  return members;
}

/** `hiddenProjectIds` from `privateProjectMembers`' answer. */
export function hiddenProjectsAmong(
  privateProjects: ReadonlyMap<string, ReadonlySet<string>>,
  actor: Pick<Actor, 'id' | 'role'>,
): string[] {
  if (seesEveryProject(actor)) return [];
  return [...privateProjects].filter(([, members]) => !members.has(actor.id)).map(([id]) => id);
}

export async function hiddenProjectIds(db: Kysely<ReadModelDb>, actor: Pick<Actor, 'id' | 'role'>): Promise<string[]> {
  if (seesEveryProject(actor)) return [];
  const rows = await db
    .withSchema(READ_MODEL_SCHEMA)
    .selectFrom('projects')
    .select('projects.id')
    .where('projects.private', '=', true)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('project_members')
            .select('project_members.user_id')
            .whereRef('project_members.project_id', '=', 'projects.id')
            .where('project_members.user_id', '=', actor.id),
        ),
      ),
    )
    .execute();
  return rows.map((row) => row.id);
}
