import { z } from 'zod';

export const automationRunsQuery = z.object({
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(200)
    .optional()
    .describe('At most this many runs (default 50, at most 200)'),
  before: z
    .string()
    .regex(/^[0-9a-zA-Z:._-]{1,100}$/, 'before must be a cursor from an earlier page')
    .optional()
    .describe('The `nextCursor` of the page before: older runs'),
});

const actionOutcome = z.object({
  type: z.string(),
  outcome: z.enum(['done', 'unchanged', 'failed']),
  message: z.string().optional(),
});

export const automationDtoSchema = z.object({
  _id: z.string(),
  name: z.string(),
  projectId: z.string().nullable(),
  enabled: z.boolean(),
  paused: z.boolean().describe('Paused after five failing runs in a row; enabling it again resumes it'),
  when: z.object({
    event: z.string(),
    conditions: z.array(z.object({ field: z.string(), op: z.string(), value: z.unknown() })),
  }),
  // biome-ignore lint/suspicious/noThenProperty: api.md's word for a rule's actions
  then: z.array(z.object({ type: z.string() }).loose()),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const automationRunsAnswer = z.object({
  runs: z.array(
    z.object({
      bugId: z.string(),
      key: z.string().nullable().describe('The bug’s key now'),
      trigger: z.string(),
      triggerEventId: z.string(),
      at: z.string().describe('When the trigger happened'),
      outcomes: z.array(actionOutcome).describe('What each action did, in the rule’s order'),
      failed: z.boolean(),
      position: z.string(),
    }),
  ),
  nextCursor: z.string().nullable(),
});

export const simulationAnswer = z.object({
  matched: z.number().int().describe('How many triggering events the rule would have matched'),
  actions: z
    .array(
      z.object({
        bugId: z.string(),
        key: z.string().nullable(),
        at: z.string().describe('When the triggering event happened'),
        action: z.object({ type: z.string() }).loose(),
      }),
    )
    .describe('What it would have done, oldest first (at most 5,000)'),
  truncated: z.boolean().describe('More actions than were answered'),
  eventsRead: z.number().int(),
});
