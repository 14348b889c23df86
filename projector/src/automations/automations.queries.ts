import type { AutomationState } from '@bugtrail/domain';
import { type Kysely, sql } from 'kysely';
import { READ_MODEL_SCHEMA } from '../runtime/projection.js';
import type { ReadModelDb } from '../schema.js';

/** A rule as `GET /api/automations` answers it (`then`: its actions, as api.md calls them). */
export type AutomationDto = {
  _id: string;
  name: string;
  projectId: string | null;
  enabled: boolean;
  paused: boolean;
  when: AutomationState['when'];
  then: AutomationState['actions'];
  createdBy: string | null;
  createdAt: string;
  updatedAt: string;
};

type Stored = { state: AutomationState; created_by: string | null; created_at: Date; updated_at: Date };

const dtoOf = (row: Stored): AutomationDto => ({
  _id: row.state.id,
  name: row.state.name,
  projectId: row.state.projectId,
  enabled: row.state.enabled,
  paused: row.state.paused,
  when: row.state.when,
  // biome-ignore lint/suspicious/noThenProperty: api.md's word for a rule's actions (an array, never a thenable)
  then: row.state.actions,
  createdBy: row.created_by,
  createdAt: new Date(row.created_at).toISOString(),
  updatedAt: new Date(row.updated_at).toISOString(),
});

const from = (db: Kysely<ReadModelDb>) => db.withSchema(READ_MODEL_SCHEMA);

/**
 * The rules not deleted, oldest first: those of `projects` (ids) and, with `global`, the rules of
 * every project; every rule when `projects` is absent.
 */
export async function listAutomations(
  db: Kysely<ReadModelDb>,
  scope: { projects?: readonly string[]; global?: boolean } = {},
): Promise<AutomationDto[]> {
  let query = from(db)
    .selectFrom('automations')
    .select(['state', 'created_by', 'created_at', 'updated_at'])
    .where('deleted', '=', false)
    .orderBy('position');
  if (scope.projects) {
    const projects = [...scope.projects];
    query = query.where((eb) =>
      eb.or([
        ...(projects.length > 0 ? [eb('project_id', 'in', projects)] : []),
        ...(scope.global ? [eb('project_id', 'is', null)] : []),
        eb.val(false),
      ]),
    );
  }
  return (await query.execute()).map(dtoOf);
}

/** One rule not deleted, or null. */
export async function findAutomation(db: Kysely<ReadModelDb>, id: string): Promise<AutomationDto | null> {
  const row = await from(db)
    .selectFrom('automations')
    .select(['state', 'created_by', 'created_at', 'updated_at'])
    .where('id', '=', id)
    .where('deleted', '=', false)
    .executeTakeFirst();
  return row ? dtoOf(row) : null;
}

export type AutomationRunDto = {
  bugId: string;
  /** The bug's key now (`WEB-7`), null while it has none. */
  key: string | null;
  trigger: string;
  triggerEventId: string;
  at: string;
  outcomes: { type: string; outcome: 'done' | 'unchanged' | 'failed'; message?: string }[];
  failed: boolean;
  /** The cursor of this run: pass it as `before` for older ones. */
  position: string;
};

/** A rule's run log, newest first: `limit` runs before the `before` cursor. */
export async function automationRuns(
  db: Kysely<ReadModelDb>,
  automationId: string,
  options: { limit: number; before?: string | undefined },
): Promise<AutomationRunDto[]> {
  let query = from(db)
    .selectFrom('automation_runs as r')
    .leftJoin('bugs as b', 'b.id', 'r.bug_id')
    .selectAll('r')
    .select(sql<string | null>`b.dto->>'key'`.as('key'))
    .where('r.automation_id', '=', automationId)
    .orderBy('r.position', 'desc')
    .limit(options.limit);
  if (options.before) query = query.where('r.position', '<', options.before);
  const rows = await query.execute();
  return rows.map((r) => ({
    bugId: r.bug_id,
    key: r.key,
    trigger: r.trigger,
    triggerEventId: r.trigger_event_id,
    at: new Date(r.at).toISOString(),
    outcomes: r.outcomes,
    failed: r.failed,
    position: r.position,
  }));
}

/** The projects `userId` leads. */
export async function ledProjectIds(db: Kysely<ReadModelDb>, userId: string): Promise<string[]> {
  const rows = await from(db)
    .selectFrom('project_members')
    .select('project_id')
    .where('user_id', '=', userId)
    .where('role', '=', 'lead')
    .execute();
  return rows.map((r) => r.project_id);
}
