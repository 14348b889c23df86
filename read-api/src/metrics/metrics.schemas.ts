import { METRIC_GROUPS } from '@bugtrail/projector';
import { z } from 'zod';
import { asOf, instant } from '../as-of.js';

const groupMessage = `groupBy must be one of ${METRIC_GROUPS.join(', ')}`;

const windowQuery = {
  from: instant('from', false).optional().describe('Start of the window (inclusive); all time without it'),
  to: instant('to', true).optional().describe('End of the window (exclusive; a date: through that day)'),
  asOf,
  groupBy: z
    .string()
    .refine((v) => (METRIC_GROUPS as readonly string[]).includes(v), groupMessage)
    .transform((v) => v as (typeof METRIC_GROUPS)[number])
    .optional()
    .describe(
      `Adds groups by one of ${METRIC_GROUPS.join(', ')} (as each bug was at asOf; a project or a developer by its id)`,
    ),
  project: z
    .string()
    .max(100)
    .optional()
    .describe(
      'Only the bugs in these projects at asOf: a key (any it has had) or `_id`; several comma-separated or the parameter repeated',
    ),
};
const ordered = { message: 'from must be before to', path: ['from'] };
const isOrdered = (q: { from?: Date | undefined; to?: Date | undefined }) => !q.from || !q.to || q.from < q.to;

export const metricsQuery = z.object(windowQuery).refine(isOrdered, ordered);

/** `GET /api/metrics/sla`: the bugs reported in the window, as they stand now. */
export const slaMetricsQuery = z
  .object({ from: windowQuery.from, to: windowQuery.to, project: windowQuery.project })
  .refine(isOrdered, ordered);
const target = z
  .object({
    met: z.number().int().describe('Bugs that met the target in time'),
    breached: z.number().int().describe('Met late, or unmet and past due'),
    pending: z.number().int().describe('Unmet, not due yet'),
    compliance: z.number().nullable().describe('met / (met + breached), 0 to 1; null when none is decided'),
  })
  .nullable()
  .describe('Null when the policy sets no such target');
export const slaMetricsAnswer = z.object({
  from: z.string().nullable(),
  to: z.string().nullable(),
  policies: z.array(
    z.object({
      _id: z.string(),
      name: z.string(),
      projectId: z.string().nullable(),
      conditions: z.array(z.object({ field: z.string(), op: z.string(), value: z.unknown() })),
      respondWithin: z.string().nullable(),
      resolveWithin: z.string().nullable(),
      createdAt: z.string(),
      bugs: z.number().int().describe('Bugs reported in the window that the policy holds for'),
      met: z.number().int().describe('Bugs that met every target in time'),
      breached: z.number().int().describe('Bugs that missed a target (late, or unmet and past due)'),
      pending: z.number().int().describe('Bugs with a target not due yet, none missed'),
      compliance: z
        .number()
        .nullable()
        .describe('met / (met + breached), 0 to 1: the share of decided bugs that kept the policy; null when none'),
      respond: target,
      resolve: target,
    }),
  ),
});

const limitMessage = 'limit must be a whole number from 1 to 5000';
export const cycleTimesQuery = z
  .object({
    ...windowQuery,
    limit: z
      .string()
      .regex(/^\d+$/, limitMessage)
      .transform(Number)
      .pipe(z.number().int().min(1, limitMessage).max(5000, limitMessage))
      .optional()
      .describe('At most this many points, the most recently closed (1–5000, default 2000)'),
  })
  .refine(isOrdered, ordered);

const seconds = z.number().nullable();
export const percentilesSchema = z.object({
  p50: seconds.describe('Median, in seconds (PostgreSQL percentile_cont); null with no bugs'),
  p85: seconds,
  p95: seconds,
  count: z.number().int().describe('How many bugs the percentiles are over'),
});
export const timeInStatusSchema = z
  .object({ Open: z.number(), 'In Progress': z.number(), Closed: z.number() })
  .describe('Mean seconds a bug of the window spent in each status (a stay still going counts up to `to` or asOf)');

const windowFields = {
  asOf: z.string().describe('The moment this answer is for: ask again with this `asOf` and get the same answer'),
  from: z.string().nullable(),
  to: z.string().nullable(),
};

export const metricsAnswerSchema = z.object({
  ...windowFields,
  groupBy: z.enum(METRIC_GROUPS).nullable(),
  cycleTime: percentilesSchema.describe(
    'First Open to last Closed, over the bugs Closed at asOf whose last Closed falls in the window',
  ),
  timeInStatus: timeInStatusSchema,
  timeInState: z
    .array(
      z.object({
        _id: z.string(),
        name: z.string().describe('As the state is called now ("Removed state" for one removed since)'),
        category: z.enum(['Open', 'In Progress', 'Closed']).nullable(),
        seconds: z.number().describe('Mean seconds per bug of the window in this state'),
      }),
    )
    .nullable()
    .describe(
      'With one `project`: time in each of its workflow states, in board order (a bug that chose no state is in its category’s first); null otherwise',
    ),
  reopened: z.number().int().describe('Moves out of Closed in the window'),
  weekly: z
    .array(
      z.object({
        week: z.string().describe('ISO week in UTC, 2026-W47'),
        opened: z.number().int(),
        closed: z.number().int(),
      }),
    )
    .describe('Every ISO week with a report or a move to Closed in the window, oldest first'),
  openAge: percentilesSchema.describe('Ages in seconds of the bugs not Closed at asOf'),
  groups: z
    .array(
      z.object({
        key: z.string().nullable().describe('The group’s value (e.g. Critical; a developer’s id; null: none)'),
        cycleTime: percentilesSchema,
        count: z.number().int().describe('The group’s bugs in the window'),
        timeInStatus: timeInStatusSchema,
      }),
    )
    .optional()
    .describe('With groupBy: one entry per value'),
});

export const cycleTimesAnswerSchema = z.object({
  ...windowFields,
  total: z.number().int().describe('Bugs with a cycle time in the window (points holds the newest `limit`)'),
  points: z.array(
    z.object({
      bugId: z.string(),
      title: z.string(),
      closedAt: z.string(),
      seconds: z.number(),
      key: z.string().nullable().describe('The bug’s groupBy value at asOf (null without groupBy)'),
    }),
  ),
});

export const cumulativeFlowAnswerSchema = z.object({
  ...windowFields,
  granularity: z.enum(['day', 'week']).describe('Days, or ISO weeks when the window spans more than 180 days'),
  points: z
    .array(
      z.object({
        date: z.string().describe('The day (or the week’s Monday), UTC'),
        Open: z.number().int(),
        'In Progress': z.number().int(),
        Closed: z.number().int(),
      }),
    )
    .describe('Bugs in each status at the end of each day (the last point: at asOf)'),
});
