import { ErrorSchema } from './errors';

const error = (description: string) => ({ description, content: { 'application/json': { schema: ErrorSchema } } });

/** The error responses every secured route can answer (DECISIONS §3). */
export const securedErrors = {
  400: error('Invalid input (body, query, search, select, sort or paging)'),
  401: error('Missing, unknown, expired or revoked credentials'),
  403: error('Below the minimum role, restricted customer, or customerId outside the caller\'s scope'),
} as const;

export const notFoundError = { 404: error('No such resource, or one the caller cannot see') } as const;
export const conflictError = { 409: error('Blocked by the current state (duplicate, in use, …)') } as const;
