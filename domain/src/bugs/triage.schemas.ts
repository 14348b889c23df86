import { z } from 'zod';
import {
  applicableSuggestionKinds,
  isApplicableSuggestionKind,
  isSuggestionKind,
  type SuggestionKind,
  type SuggestionUsage,
  suggestionKinds,
  triageLimits,
} from './triage.js';

const kindList = z.array(z.string().max(40)).max(16).nullish();

/**
 * The report's optional `suggestions` field as the web sends it with `POST /api/bugs`. The
 * shape is checked (400 when it is not lists of words); words it does not know are dropped,
 * not refused, so a newer form that shows a new kind still reports against this server.
 * Each kind counts once, and a taken suggestion was shown.
 */
export const suggestionUsageInput = z.object({ shown: kindList, taken: kindList }).transform((raw): SuggestionUsage => {
  const taken = [...new Set((raw.taken ?? []).filter(isApplicableSuggestionKind))];
  const shown = new Set<SuggestionKind>([...(raw.shown ?? []).filter(isSuggestionKind), ...taken]);
  // In the vocabulary's order, so equal usages are stored alike.
  return {
    shown: suggestionKinds.filter((k) => shown.has(k)),
    taken: applicableSuggestionKinds.filter((k) => taken.includes(k)),
  };
});

const optionalText = (max: number, label: string) =>
  z
    .string({ error: `${label} must be text` })
    .max(max, `${label} must be at most ${max.toLocaleString('en-US')} characters`)
    .nullish()
    .transform((v) => v ?? '');

/** `POST /api/bugs/suggestions`'s body: what the reporter has typed so far (both may be empty). */
export const triageRequestSchema = z.object({
  title: optionalText(triageLimits.titleMaxChars, 'title'),
  description: optionalText(triageLimits.descriptionMaxChars, 'description'),
});
export type TriageRequest = z.infer<typeof triageRequestSchema>;
