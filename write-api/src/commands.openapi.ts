import { z } from 'zod';

/** What every command route shares in /api/openapi.json: idempotency and read-your-writes. */

/** Headers of a command's answer (`settle` in deps.ts). */
export const positionHeaders = {
  'X-Event-Position': 'Checkpoint token of the last event written; send it as X-Min-Position to read your write',
  'X-Read-Model-Lag': 'Present (1) when the read models had not caught up within the wait',
};

/** `Idempotency-Key`: the write-api middleware (idempotency.ts), then `commandContext` for every command. */
export const idempotencyHeader = z.object({
  'Idempotency-Key': z
    .string()
    .max(200)
    .optional()
    .describe(
      'At most 200 characters, per caller, kept 24 h. The same request again (method, path, body) appends ' +
        'nothing and gets the first answer (status and body) with `Idempotent-Replayed: true`, after waiting ' +
        'briefly if the first is still running (409 if it still is). The same key for a different method, path ' +
        'or body: 422 "Idempotency-Key was already used for a different request". Answers 400, 401, 408, 409, ' +
        '413, 415, 429 and 5xx are not kept: a retry runs again.',
    ),
});
