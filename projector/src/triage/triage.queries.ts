import { applicableSuggestionKinds, type SuggestionKind, suggestionKinds } from '@bugtrail/domain';
import type { Kysely } from 'kysely';
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
  const rows = await db.withSchema(READ_MODEL_SCHEMA).selectFrom('suggestion_usage').selectAll().execute();
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
