import { applicableSuggestionKinds, type SuggestionKind, suggestionKinds } from '@bugtrail/domain';
import { type Kysely, sql } from 'kysely';
import { READ_MODEL_SCHEMA } from '../runtime/projection.js';
import type { ReadModelDb } from '../schema.js';
import { REPORTS_ROW } from './triage.projection.js';

export type SuggestionUsageCounts = {
  /** Reports made with the form's suggestions (carrying the metadata). */
  reports: number;
  /** Of those, how many showed each kind. */
  shown: Record<SuggestionKind, number>;
  /** …and how many took it (a duplicate is a link: nothing to take). */
  taken: Record<(typeof applicableSuggestionKinds)[number], number>;
};

/** How often the report form's suggestions were shown and taken (admin dashboard). */
export async function suggestionUsage(db: Kysely<ReadModelDb>): Promise<SuggestionUsageCounts> {
  return countsFrom(await db.withSchema(READ_MODEL_SCHEMA).selectFrom('suggestion_usage').selectAll().execute());
}

function countsFrom(rows: readonly { kind: string; shown: number; taken: number }[]): SuggestionUsageCounts {
  const byKind = new Map(rows.map((r) => [r.kind, r]));
  return {
    reports: byKind.get(REPORTS_ROW)?.shown ?? 0,
    shown: Object.fromEntries(suggestionKinds.map((k) => [k, byKind.get(k)?.shown ?? 0])) as Record<
      SuggestionKind,
      number
    >,
    taken: Object.fromEntries(applicableSuggestionKinds.map((k) => [k, byKind.get(k)?.taken ?? 0])) as Record<
      (typeof applicableSuggestionKinds)[number],
      number
    >,
  };
}

/** The same, as it was at `asOf` (the dashboard's time travel): the reports made until then. */
export async function suggestionUsageAsOf(db: Kysely<ReadModelDb>, asOf: Date): Promise<SuggestionUsageCounts> {
  const { rows } = await sql<{ kind: string; shown: number; taken: number }>`
    with r as (select shown, taken from rm.suggestion_reports where reported_at <= ${asOf.toISOString()}::timestamptz)
    select ${REPORTS_ROW}::text as kind, count(*)::int as shown, count(*) filter (where cardinality(taken) > 0)::int as taken from r
    union all
    select k as kind, count(*)::int as shown, count(*) filter (where k = any(r.taken))::int as taken
    from r cross join unnest(r.shown) as k group by k`.execute(db);
  return countsFrom(rows);
}
