import type { SuggestionUsage } from '@bugtrail/domain';
import type { RecordedEvent } from '@bugtrail/eventstore';
import { type Kysely, sql } from 'kysely';
import type { Projection } from '../runtime/projection.js';
import type { ReadModelDb } from '../schema.js';

/** The row that counts the reports themselves (see SuggestionUsageTable). */
export const REPORTS_ROW = '*';

/**
 * Suggestion usage for the admin dashboard: counts by kind, kept by per-batch deltas.
 * A report counts as made, whatever happens to the bug later (a deleted bug's report
 * still showed what it showed).
 */
export const triageProjection: Projection = {
  name: 'triage',
  version: 1,
  tables: ['suggestion_usage'],

  async createTables(db: Kysely<ReadModelDb>, schema: string) {
    await sql`create table ${sql.id(schema, 'suggestion_usage')} (
      kind text primary key,
      shown int not null,
      taken int not null
    )`.execute(db);
  },

  async apply(events: readonly RecordedEvent[], { db, schema }) {
    const deltas = new Map<string, { shown: number; taken: number }>();
    const bump = (kind: string, shown: number, taken: number) => {
      const d = deltas.get(kind) ?? { shown: 0, taken: 0 };
      deltas.set(kind, { shown: d.shown + shown, taken: d.taken + taken });
    };
    for (const event of events) {
      if (event.type !== 'BugReported') continue;
      const usage = event.metadata.suggestions as SuggestionUsage | undefined;
      if (!usage) continue;
      bump(REPORTS_ROW, 1, usage.taken.length > 0 ? 1 : 0);
      for (const kind of usage.shown) bump(kind, 1, (usage.taken as readonly string[]).includes(kind) ? 1 : 0);
    }
    if (deltas.size === 0) return;
    const kinds = [...deltas.keys()];
    await sql`insert into ${sql.id(schema, 'suggestion_usage')} as u (kind, shown, taken)
      select * from unnest(${kinds}::text[], ${kinds.map((k) => deltas.get(k)!.shown)}::int[], ${kinds.map((k) => deltas.get(k)!.taken)}::int[])
      on conflict (kind) do update set shown = u.shown + excluded.shown, taken = u.taken + excluded.taken`.execute(db);
    // No topic of its own: every BugReported is also the bugs projection's, whose `bugs`
    // topic already refreshes the dashboards.
  },
};
