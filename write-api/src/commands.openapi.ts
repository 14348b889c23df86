import { z } from 'zod';

/** What every command route shares in /api/openapi.json: idempotency and read-your-writes. */

/** Headers of a command's answer (`settle` in deps.ts). */
export const positionHeaders = {
  'X-Event-Position': 'Checkpoint token of the last event written; send it as X-Min-Position to read your write',
  'X-Read-Model-Lag': 'Present (1) when the read models had not caught up within the wait',
};

/** `Idempotency-Key`, read by `commandContext` for every command. */
export const idempotencyHeader = z.object({
  'Idempotency-Key': z
    .string()
    .optional()
    .describe('A retried request with the same key appends nothing new and answers as the first did'),
});
