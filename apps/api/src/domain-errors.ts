/** Field name (dotted path) to the messages shown beside that field. */
export type FieldErrors = Record<string, string[]>;

/**
 * A failure the client can act on. Services throw these; the errors plugin turns each into an
 * RFC 9457 problem whose `detail` is shown to the user as is.
 */
export abstract class DomainError extends Error {
  abstract readonly status: number;
  /** The problem `type`: a client that must act on this failure tells it apart by this. */
  readonly type: string = 'about:blank';

  constructor(
    readonly detail: string,
    readonly errors?: FieldErrors,
  ) {
    super(detail);
    this.name = new.target.name;
  }
}

/** Input that passed the schema but breaks a rule (a common password, a used reset link). */
export class BadRequest extends DomainError {
  readonly status = 400;
}

/** No credentials, or credentials that are wrong, expired or revoked. */
export class Unauthorized extends DomainError {
  readonly status = 401;
}

/** Valid credentials that may not do this (a deactivated account). */
export class Forbidden extends DomainError {
  readonly status = 403;
}

/** Missing, or belonging to someone else (never tell the two apart). */
export class NotFound extends DomainError {
  readonly status = 404;
}

export class Conflict extends DomainError {
  readonly status = 409;
}

/** Well-formed and allowed in general, but not possible here (a feature not configured). */
export class UnprocessableEntity extends DomainError {
  readonly status = 422;
}

/** A capability this server lacks or cannot reach just now (a detection type without a model). */
export class ServiceUnavailable extends DomainError {
  readonly status = 503;

  /** @param cause the underlying failure, kept for the logs */
  constructor(detail: string, cause?: unknown) {
    super(detail);
    this.cause = cause;
  }
}

export class RateLimited extends DomainError {
  readonly status = 429;

  /** @param detail what was limited, when 'too many attempts' does not say it */
  constructor(
    readonly retryAfterSeconds: number,
    detail?: string,
  ) {
    const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
    super(
      detail ??
        `Too many attempts. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
    );
  }
}
