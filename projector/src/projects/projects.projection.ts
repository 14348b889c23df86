import {
  eventsOf,
  evolveProject,
  initialProjectState,
  type ProjectAccess,
  type ProjectRole,
  type ProjectState,
  projectEventTypes,
} from '@bugtrail/domain';
import { type Kysely, sql } from 'kysely';
import { chunks } from '../runtime/chunks.js';
import { defineProjection, type Recorded } from '../runtime/handlers.js';
import type { ReadModelDb } from '../schema.js';

/**
 * The live topic of one project: `project:{id}` heard by everybody for a public one, and by
 * its members before and after the change (with admins and auditors) for a private one.
 */
export const projectTopic = (state: ProjectState, before: ProjectState) =>
  state.private || before.private
    ? `project:${state.id}|${[...new Set([...Object.keys(before.members), ...Object.keys(state.members)])].join(',')}`
    : `project:${state.id}|*`;

type Changes = {
  /** Each touched project before the batch and after it, by id, with its creation's position. */
  projects: Map<string, { before: ProjectState; state: ProjectState; position: string | null }>;
  defaultProjectId: string | null;
};

/**
 * Projects (`GET /api/projects`, issue 35): each touched project's stored row and members are
 * read once, the domain's `evolveProject` folds the batch's events over them (one rule for the
 * write and the read side), and the rows are written back whole.
 */
export const projectsProjection = defineProjection({
  name: 'projects',
  // 2: custom fields (issue 37), removed ones flagged.
  // 3: workflow states (issue 37).
  version: 3,
  tables: ['projects', 'project_members', 'project_keys', 'default_project'],

  async createTables(db: Kysely<ReadModelDb>, schema: string) {
    await sql`create table ${sql.id(schema, 'projects')} (
      id text primary key,
      key text not null,
      name text not null,
      description text not null,
      private boolean not null,
      access text not null,
      archived boolean not null,
      created_at timestamptz not null,
      position text collate "C" not null,
      fields jsonb not null default '[]',
      states jsonb not null default '[]'
    )`.execute(db);
    await sql`create table ${sql.id(schema, 'project_members')} (
      project_id text not null,
      user_id text not null,
      role text not null,
      primary key (project_id, user_id)
    )`.execute(db);
    await sql`create index ${sql.id(`${schema}_project_members_user`)} on ${sql.id(schema, 'project_members')} (user_id)`.execute(
      db,
    );
    await sql`create table ${sql.id(schema, 'project_keys')} (
      key text primary key,
      project_id text not null
    )`.execute(db);
    await sql`create table ${sql.id(schema, 'default_project')} (
      id boolean primary key default true check (id),
      project_id text not null
    )`.execute(db);
  },

  async load(events, { db, schema }) {
    const ids = [...new Set(eventsOf(events, ...projectEventTypes).map((e) => e.data.projectId))];
    const loaded = new Map<string, ProjectState>();
    if (ids.length === 0) return loaded;
    const table = db.withSchema(schema);
    const rows = await table.selectFrom('projects').selectAll().where('id', 'in', ids).execute();
    const members = await table.selectFrom('project_members').selectAll().where('project_id', 'in', ids).execute();
    const keys = await table.selectFrom('project_keys').selectAll().where('project_id', 'in', ids).execute();
    for (const row of rows) {
      loaded.set(row.id, {
        exists: true,
        id: row.id,
        key: row.key,
        keys: [...keys.filter((k) => k.project_id === row.id && k.key !== row.key).map((k) => k.key), row.key],
        name: row.name,
        description: row.description,
        private: row.private,
        access: row.access as ProjectAccess,
        archived: row.archived,
        createdAt: row.created_at.toISOString(),
        members: Object.fromEntries(
          members.filter((m) => m.project_id === row.id).map((m) => [m.user_id, m.role as ProjectRole]),
        ),
        fields: row.fields,
        states: row.states,
      });
    }
    return loaded;
  },

  begin: (loaded: Map<string, ProjectState>): Changes => ({
    projects: new Map([...loaded].map(([id, state]) => [id, { before: state, state, position: null }])),
    defaultProjectId: null,
  }),
  on: {
    ProjectCreated: fold,
    ProjectRenamed: fold,
    ProjectDescriptionChanged: fold,
    ProjectKeyChanged: fold,
    ProjectPrivacyChanged: fold,
    ProjectAccessChanged: fold,
    ProjectArchived: fold,
    ProjectRestored: fold,
    ProjectMemberAdded: fold,
    ProjectMemberRoleChanged: fold,
    ProjectMemberRemoved: fold,
    ProjectFieldAdded: fold,
    ProjectFieldChanged: fold,
    ProjectFieldRemoved: fold,
    ProjectStatesSet: fold,
    DefaultProjectSet(changes, event) {
      changes.defaultProjectId = event.data.projectId;
    },
  },

  async write(changes, { db, schema, topics }) {
    const table = db.withSchema(schema);
    const touched = [...changes.projects.values()].filter((p) => p.state !== p.before && p.state.exists);
    for (const batch of chunks(touched)) {
      const ids = batch.map((p) => p.state.id);
      // A project's creation is in the batch, or its row is stored (load read it): keep its position.
      const rows = batch.map(({ state, position }) => ({
        id: state.id,
        key: state.key,
        name: state.name,
        description: state.description,
        private: state.private,
        access: state.access,
        archived: state.archived,
        created_at: state.createdAt,
        position: position ?? '',
        fields: JSON.stringify(state.fields),
        states: JSON.stringify(state.states),
      }));
      await table
        .insertInto('projects')
        .values(rows)
        .onConflict((oc) =>
          oc.column('id').doUpdateSet((eb) => ({
            key: eb.ref('excluded.key'),
            name: eb.ref('excluded.name'),
            description: eb.ref('excluded.description'),
            private: eb.ref('excluded.private'),
            access: eb.ref('excluded.access'),
            archived: eb.ref('excluded.archived'),
            fields: eb.ref('excluded.fields'),
            states: eb.ref('excluded.states'),
            // A replayed creation writes its position again; later batches keep the stored one.
            position: sql`case when excluded.position = '' then ${sql.ref('projects.position')} else excluded.position end`,
          })),
        )
        .execute();
      await table.deleteFrom('project_members').where('project_id', 'in', ids).execute();
      const members = batch.flatMap(({ state }) =>
        Object.entries(state.members).map(([user_id, role]) => ({ project_id: state.id, user_id, role })),
      );
      if (members.length > 0) await table.insertInto('project_members').values(members).execute();
      const keys = batch.flatMap(({ state }) => state.keys.map((key) => ({ key, project_id: state.id })));
      await table
        .insertInto('project_keys')
        .values(keys)
        .onConflict((oc) => oc.column('key').doNothing())
        .execute();
      for (const { before, state } of batch) topics.add(projectTopic(state, before));
    }
    const chosen = changes.defaultProjectId;
    if (chosen !== null) {
      await table
        .insertInto('default_project')
        .values({ id: true, project_id: chosen })
        .onConflict((oc) => oc.column('id').doUpdateSet({ project_id: chosen }))
        .execute();
      topics.add('projects');
    }
  },
});

type ProjectRecorded = Recorded<(typeof projectEventTypes)[number]>;

/** Every project event folds the same way: the domain's evolve over the project's state so far. */
function fold(changes: Changes, event: ProjectRecorded): void {
  const id = event.data.projectId;
  const known = changes.projects.get(id) ?? {
    before: initialProjectState(),
    state: initialProjectState(),
    position: null,
  };
  const state = evolveProject(known.state, event);
  const position = event.type === 'ProjectCreated' ? event.position : known.position;
  changes.projects.set(id, { ...known, state, position });
}
