/**
 * Domain errors. They say what went wrong in the user's language and carry no transport
 * detail: each edge (http/, cli/) maps them to a status or an exit code.
 */
import { MSG } from './messages.js';

export interface FieldError {
  field: string;
  message: string;
}

export abstract class DomainError extends Error {
  abstract readonly kind: 'validation' | 'unauthenticated' | 'forbidden' | 'not_found' | 'conflict' | 'too_many_requests' | 'busy';
}

export class ValidationError extends DomainError {
  readonly kind = 'validation' as const;
  constructor(
    readonly errors: FieldError[],
    message: string = MSG.validationFailed,
  ) {
    super(message);
    this.name = 'ValidationError';
  }
  static single(field: string, message: string): ValidationError {
    return new ValidationError([{ field, message }]);
  }
}

export class UnauthenticatedError extends DomainError {
  readonly kind = 'unauthenticated' as const;
  constructor(message: string = MSG.unauthenticated) {
    super(message);
    this.name = 'UnauthenticatedError';
  }
}

export class ForbiddenError extends DomainError {
  readonly kind = 'forbidden' as const;
  constructor(message: string = MSG.forbidden) {
    super(message);
    this.name = 'ForbiddenError';
  }
}

export class NotFoundError extends DomainError {
  readonly kind = 'not_found' as const;
  constructor(message: string) {
    super(message);
    this.name = 'NotFoundError';
  }
}

export class ConflictError extends DomainError {
  readonly kind = 'conflict' as const;
  constructor(
    message: string,
    readonly field?: string,
    /** what a client needs to act on it (the earlier payment of a probable duplicate) */
    readonly details?: Record<string, string>,
  ) {
    super(message);
    this.name = 'ConflictError';
  }
}

/** Too many attempts (failed sign-ins): try again after `retryAfterSeconds`. */
export class TooManyRequestsError extends DomainError {
  readonly kind = 'too_many_requests' as const;
  constructor(
    readonly retryAfterSeconds: number,
    message: string = MSG.tooManyLoginFailures(Math.max(1, Math.ceil(retryAfterSeconds / 60))),
  ) {
    super(message);
    this.name = 'TooManyRequestsError';
  }
}

/** The server is busy (the password-hashing queue is full): try again after `retryAfterSeconds`. */
export class BusyError extends DomainError {
  readonly kind = 'busy' as const;
  constructor(
    readonly retryAfterSeconds: number,
    message: string = MSG.serverBusy,
  ) {
    super(message);
    this.name = 'BusyError';
  }
}

export function isDomainError(err: unknown): err is DomainError {
  return err instanceof DomainError;
}
