import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { HTTPException } from 'hono/http-exception';
import { z } from '@hono/zod-openapi';
import { AppError, ServiceUnavailableError } from '@/server/errors';
import type { AppEnv } from './context';
import { clientHungUp } from './node-listener';
import { ruleKeyOf } from './wire.schemas';

export type ErrorBody = { status: number; key: string; message: string; details?: Record<string, unknown> };

/** The error body of DECISIONS §3, for the OpenAPI document. */
export const ErrorSchema = z
  .object({
    status: z.number().int(),
    key: z.string().openapi({ example: 'file.error.inUse' }),
    message: z.string(),
    details: z.record(z.string(), z.unknown()).optional(),
  })
  .openapi('Error');

type PgError = { code?: string; constraint?: string; detail?: string; cause?: unknown };

/** PostgreSQL errors reach us wrapped by drizzle (`cause`) or bare, from either driver. */
function pgErrorOf(err: unknown): PgError | undefined {
  let current: unknown = err;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    const candidate = current as PgError;
    if (typeof candidate.code === 'string' && /^[0-9A-Z]{5}$/.test(candidate.code)) return candidate;
    current = candidate.cause;
  }

  return undefined;
}

/** Maps any thrown value to the public error body; internal detail never leaves a 500. */
export function toErrorBody(err: unknown): { body: ErrorBody; headers?: Record<string, string> } {
  if (err instanceof AppError) {
    return {
      body: { status: err.status, key: err.key, message: err.message, ...(err.details ? { details: err.details } : {}) },
      headers: err.headers,
    };
  }
  if (err instanceof HTTPException) {
    const status = err.status;
    const key =
      status === 413 ? 'request.error.payloadTooLarge' : status === 415 ? 'request.error.unsupportedMediaType' : 'request.error.invalid';

    return { body: { status, key, message: err.message || 'Invalid request' } };
  }
  const pg = pgErrorOf(err);
  if (pg?.code === '23505') {
    return {
      body: {
        status: 409,
        key: 'request.error.duplicate',
        message: 'A resource with the same unique value already exists',
        details: pg.constraint ? { constraint: pg.constraint } : undefined,
      },
    };
  }
  if (pg?.code === '23503') {
    return {
      body: {
        status: 409,
        key: 'request.error.referenced',
        message: 'The operation conflicts with a reference to or from another resource',
      },
    };
  }
  // Class 22, data exception: a value the database cannot take (bad text representation, out of range, a
  // timestamp past year 9999 whose ISO form it cannot read, …) is the caller's, never a server error.
  if (pg?.code?.startsWith('22')) {
    return { body: { status: 400, key: 'request.error.invalidValue', message: 'A value has an invalid format or is out of range' } };
  }

  return { body: { status: 500, key: 'server.error.internal', message: 'Internal server error' } };
}

/** nginx's status for a request its client closed before it was answered: the access log's, never sent. */
export const CLIENT_CLOSED_REQUEST = 499;

export function errorResponse(c: Context<AppEnv>, err: unknown): Response {
  // The client hung up mid-upload: what failed after that is no server error, and nobody is left to answer.
  if (clientHungUp(c.env?.incoming)) {
    c.var.log?.info(
      { reason: err instanceof Error ? err.message : String(err) },
      'client closed the connection before the request was read',
    );

    return c.body(null, CLIENT_CLOSED_REQUEST as ContentfulStatusCode);
  }
  const { body, headers } = toErrorBody(err);
  // A 503 the service chose (starting, stopping) is no failure: the request's own log line records it.
  if (body.status >= 500 && !(err instanceof ServiceUnavailableError)) {
    c.var.log?.error({ err }, 'request failed');
  }
  for (const [name, value] of Object.entries(headers ?? {})) c.header(name, value);

  return c.json(body, body.status as ContentfulStatusCode);
}

type Issue = { code: string; path: PropertyKey[]; message: string; expected?: string; errors?: Issue[][]; params?: unknown };

/**
 * A value that fails `T | null` (an attribute whose null the schema accepts, update-body.ts) is reported as the
 * issues of `T`, not as a bare "Invalid input" of the union: null was not what the client meant.
 */
function withoutNullBranch(issue: Issue): Issue[] {
  if (issue.code !== 'invalid_union' || !issue.errors) return [issue];
  const isNullBranch = (branch: Issue[]) =>
    branch.length === 1 && branch[0]!.code === 'invalid_type' && branch[0]!.expected === 'null' && branch[0]!.path.length === 0;
  const rest = issue.errors.filter((branch) => !isNullBranch(branch));
  if (rest.length !== 1 || rest.length === issue.errors.length) return [issue];

  return rest[0]!.flatMap((inner) => withoutNullBranch({ ...inner, path: [...issue.path, ...inner.path] }));
}

/** The 400 of a value its zod schema refused: a request's body, query or path value, or a device's WebSocket frame. */
export function validationErrorBody(error: z.ZodError, target?: string): ErrorBody {
  const raw = error.issues.flatMap((issue) => withoutNullBranch(issue));
  const issues = raw.map((i) => ({ path: i.path.join('.'), message: i.message }));
  const first = issues[0];
  const where = target ? `${target} ` : '';

  return {
    status: 400,
    // Only issues of keyed rules (between values, or a language the server checks): their key (a client's form
    // cannot know them from the schema alone).
    key: keyOfIssues(raw),
    message: first ? `Invalid ${where}value${first.path ? ` '${first.path}'` : ''}: ${first.message}` : 'Invalid request',
    details: { target, issues },
  };
}

/** The key of a keyed rule when every issue is one (the first one's when they differ; all are in `details`). */
function keyOfIssues(issues: readonly Issue[]): string {
  const keys = issues.map(ruleKeyOf);

  return keys.length > 0 && keys.every((key) => key !== undefined) ? keys[0]! : 'request.error.invalid';
}

/** zod-openapi validation hook: every invalid body, query or path value becomes our 400. */
export function validationHook(
  result: { success: true } | { success: false; error: z.ZodError; target?: string },
  c: Context<AppEnv>,
): Response | undefined {
  if (result.success) return undefined;

  return c.json(validationErrorBody(result.error, result.target), 400);
}
