import { ErrorSchema } from './errors';

/** A response of the shared error shape (DECISIONS §3). */
const jsonError = (description: string) => ({ description, content: { 'application/json': { schema: ErrorSchema } } });

const retryAfter = (description: string) => ({ 'Retry-After': { description, schema: { type: 'integer' as const, minimum: 1 } } });

/**
 * The error responses a route's declaration implies (`derivedResponses` in route.ts adds them to every route, so the
 * document cannot drift from what the shared middleware answers). A route declares by hand only what is its own.
 */
export const sharedErrors = {
  400: jsonError('Invalid input (body, query, path, search, select, sort or paging)'),
  401: {
    ...jsonError('Missing, unknown, expired or revoked credentials'),
    headers: { 'WWW-Authenticate': { description: '`Bearer`', schema: { type: 'string' as const } } },
  },
  403: jsonError(
    "Below the minimum role, restricted customer, customerId outside the caller's scope, a cross-origin write with the console session, or a missing CAPTCHA or second factor",
  ),
  deviceNotAssigned: jsonError('`display.error.notAssigned`: the device is not assigned to a customer yet'),
  404: jsonError('No such resource, or one the caller cannot see'),
  tenantNotFound: jsonError(
    'No such resource, or one the caller cannot see; a `customerId` that names no customer (`customer.error.notFound`)',
  ),
  413: jsonError(
    'The request body, or its declared `Content-Length`, is larger than this operation accepts (`request.error.payloadTooLarge`, `details.maxBytes`)',
  ),
  415: jsonError('The body has a media type this operation does not take (`request.error.unsupportedMediaType`)'),
  429: (what: string) => ({
    ...jsonError(`Rate limited: ${what} (\`details.retryAfterSeconds\`)`),
    headers: retryAfter('Seconds until the window ends'),
  }),
  503: {
    ...jsonError('The service is starting or stopping (`server.error.unavailable`); try again'),
    headers: retryAfter('Seconds to wait before trying again'),
  },
} as const;

export const notFoundError = { 404: sharedErrors[404] } as const;
export const conflictError = { 409: jsonError('Blocked by the current state (duplicate, in use, …)') } as const;

/**
 * The `rateLimited` option of a protected operation (spec 1 item 9, server/auth/protected-operation.ts): wrong one-time
 * codes count like failed sign-ins.
 */
export const PROTECTED_OPERATION_LIMIT = 'wrong one-time codes (`x-totp`) of protected operations, per user';
