import {
  eventsOf,
  evolveMilestone,
  initialMilestoneState,
  type MilestoneEvent,
  type MilestoneState,
  milestoneEventSchemas,
} from '@bugtrail/domain';
import { type Kysely, sql } from 'kysely';
import type { Projection } from '../runtime/projection.js';
import type { ReadModelDb } from '../schema.js';

const TYPES = Object.keys(milestoneEventSchemas) as (keyof typeof milestoneEventSchemas)[];

/**
 * Milestones (`GET /api/projects/{id}/milestones`, issue 36): each touched milestone's row is read
 * once, the domain's `evolveMilestone` folds the batch's events over it, and it is written back
 * whole. Their bugs and progress are the bugs read model's (`milestone_id`); their burn-ups the
 * flow read model's stays.
 */
export const milestonesProjection: Projection = {
  name: 'milestones',
  version: 1,
  tables: ['milestones'],

  async createTables(db: Kysely<ReadModelDb>, schema: string) {
    await sql`create table ${sql.id(schema, 'milestones')} (
      id text primary key,
      project_id text not null,
      name text not null,
      description text not null,
      start_date text,
      due_date text,
      closed_at timestamptz,
      deleted boolean not null,
      created_at timestamptz not null
    )`.execute(db);
  },

  async createIndexes(db: Kysely<ReadModelDb>, schema: string) {
    await sql`create index ${sql.id(`${schema}_milestones_project`)} on ${sql.id(schema, 'milestones')} (project_id) where not deleted`.execute(
      db,
    );
  },

  async apply(events, { db, schema, topics }) {
    const mine = eventsOf(events, ...TYPES);
    if (mine.length === 0) return;
    const ids = [...new Set(mine.map((e) => e.data.milestoneId))];
    const { rows } = await sql<{
      id: string;
      project_id: string;
      name: string;
      description: string;
      start_date: string | null;
      due_date: string | null;
      closed_at: Date | null;
      deleted: boolean;
      created_at: Date;
    }>`select * from ${sql.id(schema, 'milestones')} where id = any(${ids}::text[])`.execute(db);
    const states = new Map<string, { state: MilestoneState; createdAt: string }>();
    for (const r of rows) {
      states.set(r.id, {
        state: {
          exists: true,
          deleted: r.deleted,
          id: r.id,
          projectId: r.project_id,
          name: r.name,
          description: r.description,
          startDate: r.start_date,
          dueDate: r.due_date,
          closedAt: r.closed_at?.toISOString() ?? null,
        },
        createdAt: r.created_at.toISOString(),
      });
    }
    for (const e of mine) {
      const id = e.data.milestoneId;
      const current = states.get(id) ?? { state: initialMilestoneState(), createdAt: e.metadata.occurredAt };
      states.set(id, {
        ...current,
        state: evolveMilestone(current.state, e as unknown as MilestoneEvent & { metadata: typeof e.metadata }),
      });
    }
    const out = [...states.values()]
      .filter((x) => x.state.exists)
      .map(({ state: s, createdAt }) => ({
        id: s.id,
        project_id: s.projectId,
        name: s.name,
        description: s.description,
        start_date: s.startDate,
        due_date: s.dueDate,
        closed_at: s.closedAt,
        deleted: s.deleted,
        created_at: createdAt,
      }));
    if (out.length === 0) return;
    // Heard by those who see the project (read-api leaves it out for the others).
    for (const projectId of new Set(out.map((m) => m.project_id))) topics.add(`milestones|*|${projectId}`);
    await sql`insert into ${sql.id(schema, 'milestones')}
      select * from jsonb_to_recordset(${JSON.stringify(out)}::jsonb) as x(
        id text, project_id text, name text, description text, start_date text, due_date text,
        closed_at timestamptz, deleted boolean, created_at timestamptz)
      on conflict (id) do update set name = excluded.name, description = excluded.description,
        start_date = excluded.start_date, due_date = excluded.due_date, closed_at = excluded.closed_at,
        deleted = excluded.deleted`.execute(db);
  },
};
