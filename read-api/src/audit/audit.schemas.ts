import { decodePosition, isPosition } from '@bugtrail/eventstore';
import { z } from 'zod';

/** Both halves of a position are signed 64-bit numbers in the stores (Postgres bigint, ESDB's int64). */
const LARGEST_HALF = 0x7fffffffffffffffn;
function fitsTheStore(position: string): boolean {
  const [major, minor] = decodePosition(position);
  return major <= LARGEST_HALF && minor <= LARGEST_HALF;
}

export const auditEventsQuery = z.object({
  after: z
    .string()
    .max(64)
    .refine(
      (value) => isPosition(value) && fitsTheStore(value),
      'after must be a position (32 lowercase hex characters, an earlier line’s position)',
    )
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

export const auditActivityQuery = z.object({
  before: z
    .string()
    .max(64)
    .refine(isPosition, 'before must be a position (32 lowercase hex characters)')
    .optional()
    .describe('Older than this position (the previous page’s `next`); from the newest without it'),
  limit: z
    .string()
    .regex(/^\d+$/, 'limit must be a whole number from 1 to 100')
    .transform(Number)
    .pipe(
      z
        .number()
        .int()
        .min(1, 'limit must be a whole number from 1 to 100')
        .max(100, 'limit must be a whole number from 1 to 100'),
    )
    .optional()
    .describe('At most this many entries (1–100, default 30)'),
});
