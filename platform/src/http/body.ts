import type { Context } from 'hono';
import type { z } from 'zod';
import { HttpError, zodToValidationError } from './errors.js';

export const JSON_BODY_LIMIT = 1024 * 1024;

/**
 * Reads a JSON body and validates it: 415 for another media type, 413 past 1 MB,
 * 400 for malformed JSON or a body that fails the schema. An empty body counts as {}.
 */
export async function readJson<S extends z.ZodType>(c: Context, schema: S): Promise<z.infer<S>> {
  const length = Number(c.req.header('content-length') ?? 'NaN');
  if (length > JSON_BODY_LIMIT) throw new HttpError(413, 'Request body too large (limit 1 MB)');
  const text = await c.req.text();
  if (text.length > JSON_BODY_LIMIT) throw new HttpError(413, 'Request body too large (limit 1 MB)');
  let body: unknown = {};
  if (text.trim().length > 0) {
    const type = c.req.header('content-type') ?? '';
    if (!/^application\/([\w.+-]+\+)?json\b/i.test(type) && type !== '') {
      throw new HttpError(415, 'Content-Type must be application/json');
    }
    try {
      body = JSON.parse(text);
    } catch {
      throw new HttpError(400, 'Malformed JSON body');
    }
  }
  const result = schema.safeParse(body);
  if (!result.success) throw zodToValidationError(result.error);
  return result.data;
}

/** Validates a query string object. */
export function readQuery<S extends z.ZodType>(c: Context, schema: S): z.infer<S> {
  const result = schema.safeParse(c.req.query());
  if (!result.success) throw zodToValidationError(result.error);
  return result.data;
}
