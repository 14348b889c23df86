import { DomainError, RateLimitedError, ValidationError } from '@bugtrail/domain';
import type { Context, ErrorHandler, NotFoundHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { ZodError } from 'zod';
import { isDatabaseUnavailable } from '../db.js';
import type { Logger } from '../logger.js';

/** An HTTP-level refusal that has no domain meaning (415, 413, malformed JSON). */
export class HttpError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    message: string,
  ) {
    super(message);
  }
}

/** The one table from error codes to HTTP statuses. */
const statusByCode: Record<DomainError['code'], ContentfulStatusCode> = {
  validation: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  rate_limited: 429,
};

export function zodToValidationError(error: ZodError): ValidationError {
  const details = error.issues.map((issue) => ({
    field: issue.path.map(String).join('.') || 'body',
    message: issue.message,
  }));
  return new ValidationError(details[0]?.message ?? 'Invalid request', details);
}

export function errorBody(error: unknown): { status: ContentfulStatusCode; body: Record<string, unknown> } | null {
  if (error instanceof ZodError) return errorBody(zodToValidationError(error));
  if (error instanceof ValidationError) {
    return {
      status: 400,
      body: { message: error.message, ...(error.details.length ? { details: error.details } : {}) },
    };
  }
  if (error instanceof DomainError) return { status: statusByCode[error.code], body: { message: error.message } };
  if (error instanceof HttpError) return { status: error.status, body: { message: error.message } };
  if (error instanceof HTTPException)
    return { status: error.status as ContentfulStatusCode, body: { message: error.message || 'Request refused' } };
  if (isDatabaseUnavailable(error))
    return { status: 503, body: { message: 'Service temporarily unavailable. Please try again shortly.' } };
  return null;
}

export function createErrorHandler(logger: Logger): ErrorHandler {
  return (error: unknown, c: Context) => {
    const known = errorBody(error);
    if (known) {
      if (error instanceof RateLimitedError) c.header('Retry-After', String(error.retryAfterSeconds));
      if (known.status === 503) c.header('Retry-After', '1');
      return c.json(known.body, known.status);
    }
    const log = (c.get('log') as Logger | undefined) ?? logger;
    log.error('unhandled error', { error, method: c.req.method, path: c.req.path });
    return c.json({ message: 'Server error. Please try again later.' }, 500);
  };
}

export const notFoundJson: NotFoundHandler = (c) => c.json({ message: 'Not found' }, 404);
