import type { BugStatus, Priority, Severity } from './bug-vocabulary.js';

/**
 * Triage suggestions on the report form (api.md "Triage suggestions"): the answer's shape,
 * its reasons' words, and how the report records which suggestions were shown and taken.
 * No zod here: the browser loads this through `@bugtrail/domain/vocabulary`
 * (`triage.schemas.ts` holds the input schema).
 */

/** Every kind of suggestion the form can show. */
export const suggestionKinds = ['duplicates', 'severity', 'priority', 'assignees'] as const;
/** The kinds one click applies to the form (a duplicate is a link, nothing to apply). */
export const applicableSuggestionKinds = ['severity', 'priority', 'assignees'] as const;
export type SuggestionKind = (typeof suggestionKinds)[number];
export type ApplicableSuggestionKind = (typeof applicableSuggestionKinds)[number];

/**
 * What a report's `BugReported` event records in its metadata (`metadata.suggestions`):
 * which kinds the form showed while the reporter typed and which they applied. Absent
 * on reports made without the form's suggestions (older clients, scripts, seeds).
 */
export type SuggestionUsage = Readonly<{
  shown: readonly SuggestionKind[];
  taken: readonly ApplicableSuggestionKind[];
}>;

export const isSuggestionKind = (value: unknown): value is SuggestionKind =>
  (suggestionKinds as readonly unknown[]).includes(value);
export const isApplicableSuggestionKind = (value: unknown): value is ApplicableSuggestionKind =>
  (applicableSuggestionKinds as readonly unknown[]).includes(value);

/**
 * The suggestion usage an event's metadata records, or undefined when it records none. The
 * envelope (core/event.ts) keeps `suggestions` as any JSON object, so its shape is checked
 * here, where the feature that wrote it reads it: the report only ever stored known kinds
 * (`suggestionUsageInput`), so every stored usage reads back as it was written.
 */
export function suggestionUsageOf(metadata: Readonly<{ suggestions?: unknown }>): SuggestionUsage | undefined {
  const usage = metadata.suggestions;
  if (typeof usage !== 'object' || usage === null) return undefined;
  const { shown, taken } = usage as Readonly<{ shown?: unknown; taken?: unknown }>;
  if (!Array.isArray(shown) || !Array.isArray(taken)) return undefined;
  if (!shown.every(isSuggestionKind) || !taken.every(isApplicableSuggestionKind)) return undefined;
  return { shown, taken };
}

export type DuplicateSuggestion = Readonly<{
  _id: string;
  number: number | null;
  title: string;
  status: BugStatus;
  /** 0–1, two decimals: how alike the titles and words are. */
  score: number;
}>;

export type ValueSuggestion<V extends string> = Readonly<{ value: V; reason: string }>;

export type AssigneeSuggestion = Readonly<{ _id: string; name: string; reason: string }>;

/** `POST /api/bugs/suggestions`'s answer. */
export type TriageSuggestions = Readonly<{
  duplicates: readonly DuplicateSuggestion[];
  severity: ValueSuggestion<Severity> | null;
  priority: ValueSuggestion<Priority> | null;
  assignees: readonly AssigneeSuggestion[];
}>;

export const noSuggestions: TriageSuggestions = { duplicates: [], severity: null, priority: null, assignees: [] };

export const triageLimits = {
  /** The form asks once the title has this many characters (the server answers empty below it). */
  titleMinChars: 3,
  titleMaxChars: 1000,
  descriptionMaxChars: 100_000,
  duplicates: 5,
  assignees: 3,
  /** Severity and priority are voted on by this many of the most similar bugs. */
  neighbours: 5,
} as const;

const most = (count: number, of: number) => (count === of ? `All ${of}` : `${count} of the ${of}`);

/** The reasons the answer gives, in one place so the web and the tests read the same words. */
export const triageReasons = {
  severity: (count: number, of: number, value: Severity) => `${most(count, of)} most similar bugs were ${value}`,
  priority: (count: number, of: number, value: Priority) =>
    `${most(count, of)} most similar bugs had ${value} priority`,
  assignee: (closed: number, open: number) =>
    `Closed ${closed} similar bug${closed === 1 ? '' : 's'}; ${open} open now`,
} as const;
