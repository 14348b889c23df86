import type { AutomationCondition, SlaPolicy, SlaPolicyState } from '@bugtrail/domain';
import type pg from 'pg';

type Row = {
  id: string;
  project_id: string | null;
  name: string;
  conditions: AutomationCondition[];
  respond_seconds: number | null;
  resolve_seconds: number | null;
  created_at: string;
  since: string;
};

/**
 * The SLA policies that exist, as the write side keeps them (`write_api.sla_policies`): written
 * in the transaction of each policy event (this file is the table's one writer), read by every
 * bug answer write-api gives (the SLA that holds for the bug).
 */
export class SlaTable {
  constructor(private readonly db: pg.Pool | pg.ClientBase) {}

  static async write(tx: pg.ClientBase, state: SlaPolicyState): Promise<void> {
    await tx.query(
      `insert into write_api.sla_policies (id, project_id, name, conditions, respond_seconds, resolve_seconds, created_at, since, deleted)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       on conflict (id) do update set name = excluded.name, conditions = excluded.conditions,
         respond_seconds = excluded.respond_seconds, resolve_seconds = excluded.resolve_seconds,
         since = excluded.since, deleted = excluded.deleted`,
      [
        state.id,
        state.projectId,
        state.name,
        JSON.stringify(state.conditions),
        state.respondSeconds,
        state.resolveSeconds,
        state.createdAt,
        state.since,
        state.deleted,
      ],
    );
  }

  /** The policies that exist, those a bug of `projectId` may meet (its project's and every project's). */
  async live(projectId: string): Promise<SlaPolicy[]> {
    const { rows } = await this.db.query<Row>(
      `select id, project_id, name, conditions, respond_seconds, resolve_seconds, created_at, since
       from write_api.sla_policies where not deleted and (project_id is null or project_id = $1)`,
      [projectId],
    );
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      projectId: r.project_id,
      conditions: r.conditions,
      respondSeconds: r.respond_seconds,
      resolveSeconds: r.resolve_seconds,
      createdAt: r.created_at,
      since: r.since,
    }));
  }
}
