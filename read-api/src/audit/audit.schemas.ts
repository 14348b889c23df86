import { isPosition } from '@bugtrail/eventstore';
import { z } from 'zod';

export const auditEventsQuery = z.object({
  after: z
    .string()
    .max(64)
    .refine(isPosition, 'after must be a position (32 lowercase hex characters)')
    .optional()
    .describe('Start after this position (an earlier line’s `position`); from the first event without it'),
  limit: z
    .string()
    .regex(/^\d+$/, 'limit must be a positive whole number')
    .transform(Number)
    .pipe(z.number().int().min(1, 'limit must be a positive whole number'))
    .optional()
    .describe('At most this many events; all of them without it'),
});

const chainBreakSchema = z.object({ stream: z.string(), revision: z.number().int(), reason: z.string() });

export const verifyAnswerSchema = z.object({
  ok: z.boolean(),
  streams: z.number().int(),
  events: z.number().int(),
  broken: z.array(chainBreakSchema).describe('Every break found (the first 1,000), by stream and revision'),
});
