/**
 * Typed domain errors. Each API maps `code` to an HTTP status in one table
 * (platform's error handler), so the domain never knows about HTTP.
 */
export type FieldIssue = { field: string; message: string };

export abstract class DomainError extends Error {
  abstract readonly code: 'validation' | 'forbidden' | 'not_found' | 'conflict' | 'unauthorized' | 'rate_limited';
  override readonly name: string = this.constructor.name;
}

export class ValidationError extends DomainError {
  readonly code = 'validation' as const;
  constructor(
    message: string,
    readonly details: readonly FieldIssue[] = [],
  ) {
    super(message);
  }
  /** One field failed: the message is the field's own message, as clients show it. */
  static field(field: string, message: string): ValidationError {
    return new ValidationError(message, [{ field, message }]);
  }
}

export class ForbiddenError extends DomainError {
  readonly code = 'forbidden' as const;
}

export class NotFoundError extends DomainError {
  readonly code = 'not_found' as const;
}

export class ConflictError extends DomainError {
  readonly code = 'conflict' as const;
}

export class UnauthorizedError extends DomainError {
  readonly code = 'unauthorized' as const;
}

export class RateLimitedError extends DomainError {
  readonly code = 'rate_limited' as const;
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}
