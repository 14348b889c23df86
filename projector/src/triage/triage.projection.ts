import { suggestionUsageOf } from '@bugtrail/domain';
import { type Kysely, sql } from 'kysely';
import { defineProjection } from '../runtime/handlers.js';
import type { ReadModelDb } from '../schema.js';

/** The row that counts the reports themselves (see SuggestionUsageTable). */
export const REPORTS_ROW = '*';

/**
 * Suggestion usage for the admin dashboard: counts by kind, kept by per-batch deltas
 * (read in one lookup), and each report's usage with its moment (`suggestion_reports`),
 * so the dashboard `?asOf=` tells what it showed then. A report counts as made, whatever
 * happens to the bug later (a deleted bug's report still showed what it showed).
 */
/** A batch's reports that carried suggestion usage, and what they add to each kind's counts. */
export type TriageChanges = {
  reports: { id: string; at: string; shown: string[]; taken: string[] }[];
  deltas: Map<string, { shown: number; taken: number }>;
};

const bump = (changes: TriageChanges, kind: string, shown: number, taken: number) => {
  const d = changes.deltas.get(kind) ?? { shown: 0, taken: 0 };
  changes.deltas.set(kind, { shown: d.shown + shown, taken: d.taken + taken });
};

export const triageProjection = defineProjection({
  name: 'triage',
  version: 2,
  tables: ['suggestion_usage', 'suggestion_reports'],

  async createTables(db: Kysely<ReadModelDb>, schema: string) {
    await sql`create table ${sql.id(schema, 'suggestion_usage')} (
      kind text primary key,
      shown int not null,
      taken int not null
    )`.execute(db);
    await sql`create table ${sql.id(schema, 'suggestion_reports')} (
      event_id text primary key,
      reported_at timestamptz not null,
      shown text[] not null,
      taken text[] not null
    )`.execute(db);
    await sql`create index ${sql.id(`${schema}_suggestion_reports_at`)} on ${sql.id(schema, 'suggestion_reports')} (reported_at)`.execute(
      db,
    );
  },

  begin: (): TriageChanges => ({ reports: [], deltas: new Map() }),
  on: {
    BugReported(changes, event) {
      const usage = suggestionUsageOf(event.metadata);
      if (!usage) return;
      const taken: readonly string[] = usage.taken;
      changes.reports.push({ id: event.id, at: event.metadata.occurredAt, shown: [...usage.shown], taken: [...taken] });
      bump(changes, REPORTS_ROW, 1, taken.length > 0 ? 1 : 0);
      for (const kind of usage.shown) bump(changes, kind, 1, taken.includes(kind) ? 1 : 0);
    },
  },

  async write({ reports, deltas }, { db, schema }) {
    if (deltas.size === 0) return;
    await sql`insert into ${sql.id(schema, 'suggestion_reports')} (event_id, reported_at, shown, taken)
      select x.id, x.at::timestamptz, array(select jsonb_array_elements_text(x.shown)), array(select jsonb_array_elements_text(x.taken))
      from jsonb_to_recordset(${JSON.stringify(reports)}::jsonb) as x(id text, at text, shown jsonb, taken jsonb)
      on conflict (event_id) do nothing`.execute(db);
    const kinds = [...deltas.keys()];
    await sql`insert into ${sql.id(schema, 'suggestion_usage')} as u (kind, shown, taken)
      select * from unnest(${kinds}::text[], ${kinds.map((k) => deltas.get(k)!.shown)}::int[], ${kinds.map((k) => deltas.get(k)!.taken)}::int[])
      on conflict (kind) do update set shown = u.shown + excluded.shown, taken = u.taken + excluded.taken`.execute(db);
    // No topic of its own: every BugReported is also the bugs projection's, whose `bugs`
    // topic already refreshes the dashboards.
  },
});
