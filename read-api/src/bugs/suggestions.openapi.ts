import {
  applicableSuggestionKinds,
  bugStatusSchema,
  prioritySchema,
  severitySchema,
  suggestionKinds,
  triageLimits,
  triageRequestSchema,
} from '@bugtrail/domain';
import { forbiddenAnswer, invalidAnswer, type RouteSpec, schemaNames } from '@bugtrail/platform';
import { z } from 'zod';

/** POST /api/bugs/suggestions (suggestions.routes.ts), relative to its mount there. */

const valueSuggestion = <T extends z.ZodType>(value: T) =>
  z.object({ value, reason: z.string().describe('Why, e.g. "4 of the 5 most similar bugs were Major"') }).nullable();

export const triageSuggestionsSchema = z.object({
  duplicates: z
    .array(
      z.object({
        _id: z.string(),
        number: z.number().int().nullable(),
        title: z.string(),
        status: bugStatusSchema,
        score: z.number().min(0).max(1).describe('0–1, two decimals'),
      }),
    )
    .max(triageLimits.duplicates)
    .describe(`At most ${triageLimits.duplicates}, best first; only bugs the caller may open`),
  severity: valueSuggestion(severitySchema).describe('Null when nothing is similar enough or the vote is split'),
  priority: valueSuggestion(prioritySchema).describe('Null when nothing is similar enough or the vote is split'),
  assignees: z
    .array(
      z.object({
        _id: z.string(),
        name: z.string(),
        reason: z.string().describe('e.g. "Closed 3 similar bugs; 2 open now"'),
      }),
    )
    .max(triageLimits.assignees)
    .describe(`At most ${triageLimits.assignees} active developers, best first`),
});
schemaNames.add(triageSuggestionsSchema, { id: 'TriageSuggestions' });

export const suggestionReadOperations: RouteSpec[] = [
  {
    method: 'post',
    path: '/',
    summary: 'Triage suggestions for a bug being reported: likely duplicates, severity, priority, assignees',
    description: [
      "Computed from the team's own bugs in PostgreSQL (trigram similarity of titles plus full-text search), no AI provider. Changes nothing: served by read-api (ADR 019).",
      `A title under ${triageLimits.titleMinChars} characters with an empty description (both empty included) answers 200 with no suggestions.`,
      "Duplicates are bugs the caller may open (a tester's own reports). Severity, priority and assignees come from every bug, answered as values and counts only; for a tester, others' bugs count by title alone.",
      `The report form then sends which kinds it showed (${suggestionKinds.join(', ')}) and which were taken (${applicableSuggestionKinds.join(', ')}) with \`POST /api/bugs\` as \`suggestions\`.`,
    ].join('\n\n'),
    tags: ['bugs'],
    roles: ['tester', 'admin'],
    body: {
      schema: triageRequestSchema,
      fields: {
        title: `What the reporter typed so far; at most ${triageLimits.titleMaxChars.toLocaleString('en-US')} characters`,
        description: `At most ${triageLimits.descriptionMaxChars.toLocaleString('en-US')} characters; its first words count`,
      },
    },
    responses: {
      200: {
        description: 'The suggestions (empty lists and nulls when nothing fits)',
        schema: triageSuggestionsSchema,
      },
      400: invalidAnswer,
      403: forbiddenAnswer,
    },
  },
];
