/**
 * The closed set of errors that services throw. They carry no HTTP objects;
 * the single error handler in server/http/errors.ts maps them to DECISIONS §3.
 */
export type ErrorDetails = Record<string, unknown>;

export class AppError extends Error {
  readonly status: number;
  readonly key: string;
  readonly details?: ErrorDetails;
  readonly headers?: Record<string, string>;

  constructor(status: number, key: string, message: string, details?: ErrorDetails, headers?: Record<string, string>) {
    super(message);
    this.name = new.target.name;
    this.status = status;
    this.key = key;
    this.details = details;
    this.headers = headers;
  }
}

/** 400: invalid body, query or path value; bad search/select/sort. */
export class ValidationError extends AppError {
  constructor(key: string, message: string, details?: ErrorDetails) {
    super(400, key, message, details);
  }
}

/** 401: no, unknown, expired or revoked credentials. */
export class UnauthorizedError extends AppError {
  constructor(message = 'Authentication required', key = 'auth.error.unauthorized') {
    super(401, key, message, undefined, { 'WWW-Authenticate': 'Bearer' });
  }
}

/** 403: below the minimum role, restricted customer, customerId outside scope, missing second factor. */
export class ForbiddenError extends AppError {
  constructor(message = 'You are not allowed to do this', key = 'auth.error.forbidden', details?: ErrorDetails) {
    super(403, key, message, details);
  }
}

/** 404: no such resource, or one of a tenant the caller cannot see. */
export class NotFoundError extends AppError {
  constructor(resource: string, id?: string | number) {
    super(404, `${resource}.error.notFound`, id === undefined ? `No such ${resource}` : `No ${resource} with id ${id}`);
  }
}

/** 409: every "blocked" condition of the spec. */
export class ConflictError extends AppError {
  constructor(key: string, message: string, details?: ErrorDetails) {
    super(409, key, message, details);
  }
}

/** 400 with the spec's resource-limit shape. */
export class LimitReachedError extends AppError {
  constructor(resource: string, used: number, limit: number) {
    super(400, 'resourceLimit.error.limitReached', `The limit of ${limit} ${resource} is reached`, { resource, used, limit });
  }
}

export class PayloadTooLargeError extends AppError {
  constructor(message: string, key = 'request.error.payloadTooLarge', details?: ErrorDetails) {
    super(413, key, message, details);
  }
}

export class UnsupportedMediaTypeError extends AppError {
  constructor(message = 'Unsupported media type') {
    super(415, 'request.error.unsupportedMediaType', message);
  }
}

export class TooManyRequestsError extends AppError {
  constructor(retryAfterSeconds: number, message = 'Too many requests') {
    super(429, 'request.error.rateLimited', message, { retryAfterSeconds }, { 'Retry-After': String(retryAfterSeconds) });
  }
}

/** 503: the service cannot take the request yet (starting, stopping); with `retryAfterSeconds`, when to try again. */
export class ServiceUnavailableError extends AppError {
  constructor(message = 'The service is unavailable', retryAfterSeconds?: number, details?: ErrorDetails) {
    super(
      503,
      'server.error.unavailable',
      message,
      details,
      retryAfterSeconds === undefined ? undefined : { 'Retry-After': String(retryAfterSeconds) },
    );
  }
}
