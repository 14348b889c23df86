import type { Context, MiddlewareHandler } from 'hono';
import type { z } from 'zod';
import { HttpError, zodToValidationError } from './errors.js';
import { INVALID_CHARACTERS_MESSAGE, jsonHasInvalidCharacters } from './input-guard.js';

export const JSON_BODY_LIMIT = 1024 * 1024;
const TOO_LARGE = 'Request body too large (limit 1 MB)';

/**
 * Reads the raw body as a stream with a byte counter: past `limit` the reader is cancelled,
 * the connection is marked to close and a 413 is thrown, so nothing beyond the limit is ever
 * buffered, whether or not the client sent (or lied in) Content-Length.
 */
export async function readBodyBytes(c: Context, limit: number, message: string): Promise<Uint8Array> {
  const tooLarge = () => {
    c.header('Connection', 'close');
    return new HttpError(413, message);
  };
  const declared = Number(c.req.header('content-length') ?? 'NaN');
  if (declared > limit) throw tooLarge();
  const body = c.req.raw.body;
  if (!body) return new Uint8Array(0);
  if (c.req.raw.bodyUsed) {
    // Someone read it before us (through hono's body cache): take the cached copy, still capped.
    const bytes = new Uint8Array(await c.req.arrayBuffer());
    if (bytes.byteLength > limit) throw tooLarge();
    return bytes;
  }
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
}

/**
 * Reads a JSON body and validates it: 415 for another media type, 413 past 1 MB (counted as
 * the body streams in), 400 for malformed JSON, for a NUL or an unpaired surrogate in any
 * string or key, or for a body that fails the schema. An empty body counts as {}.
 */
export async function readJson<S extends z.ZodType>(c: Context, schema: S): Promise<z.infer<S>> {
  const text = new TextDecoder().decode(await readBodyBytes(c, JSON_BODY_LIMIT, TOO_LARGE));
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
    if (jsonHasInvalidCharacters(body)) throw new HttpError(400, INVALID_CHARACTERS_MESSAGE);
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

/**
 * A refusal (4xx, 5xx) answered before the request's body was read ends the connection after
 * the answer, so the server never takes in a body it refused: without it, the rest of an
 * upload would be drained off the socket to keep the connection alive.
 */
export function closeUnreadBodies(): MiddlewareHandler {
  return async (c, next) => {
    const raw = c.req.raw;
    await next();
    const hasBody =
      Number(c.req.header('content-length') ?? '0') > 0 || c.req.header('transfer-encoding') !== undefined;
    if (c.res.status < 400 || !hasBody || raw.bodyUsed) return;
    try {
      c.res.headers.set('Connection', 'close');
    } catch {
      // An answer whose headers cannot change (a fetched one) keeps its connection.
    }
  };
}
