/**
 * How often the report form's triage suggestions were shown and taken, from the
 * `suggestions` metadata of `BugReported` events. One row per kind, and the row `*` for
 * the reports themselves: `shown` = reports that carried the metadata, `taken` = those
 * that took at least one suggestion.
 */
export interface SuggestionUsageTable {
  kind: string;
  shown: number;
  taken: number;
}
