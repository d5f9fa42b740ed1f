import { createRoute, type OpenAPIHono, type RouteConfig } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import type { Role } from '@/server/context/roles';
import { authenticate, authenticateDevice, requireAssignedDevice, requireRole, resolveScope } from './auth-middleware';
import type { AppEnv } from './context';
import { sharedErrors } from './responses';
import { DEFAULT_BODY_LIMIT, declaredLengthLimit, requestInputGuard, type BodyLimit, type ParsedBodyTypes } from './request-input';

/**
 * How a route is protected. `public`: no credentials. `device`: the player API (spec 4), a device token
 * only, of any device (`'any'`: status, heartbeat, wsTicket, ws) or of an assigned one (`'assigned'`).
 * Otherwise a user's credentials, a minimum role and whether the route takes the `customerId` tenant
 * selector (`tenant: 'scoped'`).
 */
export type UserAccess = { public?: false; device?: undefined; minRole: Role; tenant: 'scoped' | 'none' };
export type DeviceAccess = { public?: false; device: 'any' | 'assigned' };
export type RouteAccess = { public: true; device?: undefined } | UserAccess | DeviceAccess;

export const isDeviceAccess = (access: RouteAccess): access is DeviceAccess => access.device !== undefined;
export const isUserAccess = (access: RouteAccess): access is UserAccess => !access.public && access.device === undefined;

/**
 * What a route declares about its request beyond the OpenAPI config. `bodyLimit`: the most bytes
 * its body may have (default DEFAULT_BODY_LIMIT, 1 MiB; a binary body the handler streams is cut there
 * too), or `'stream'` for a handler that streams the body itself and enforces its own limits (uploads).
 * `rateLimited`: what the operation counts and answers 429 (with `Retry-After`) for once over its limit
 * (server/auth/failure-limit.ts; every protected operation counts wrong one-time codes). `answersWhileStarting`:
 * the health checks, the only routes that answer while the service starts or stops (the others: 503).
 */
export type RouteOptions = {
  bodyLimit?: BodyLimit;
  resourceIds?: ResourceIds;
  notResourceIds?: IdExemptions;
  answersLikeMissing?: IdExemptions;
  rateLimited?: string;
  answersWhileStarting?: boolean;
};

/**
 * Where a route takes the id of a tenant's resource, by parameter (`path.id`, `query.fileId`,
 * `body.sourceFileId`; `[]` after the name: a body array of ids), naming the resource kind (a module's
 * sweep factory). The route-table security sweep fills each with another tenant's resource and expects
 * 404; every id-like parameter must be declared here or, with its reason, in `notResourceIds` (IdExemptions).
 */
export type ResourceIds = Readonly<Record<IdParameter, string>>;

type IdParameter = `${'path' | 'query' | 'body'}.${string}`;

/**
 * The id sweep's exceptions a route declares, each with its reason. `notResourceIds`: id-like parameters (`id`,
 * `…Id`, `…Ids`; a body array without `[]`) that name no tenant's resource to look up (a filter, a foreign system's
 * id, a flag). `answersLikeMissing`: declared resource ids refused with the answer a nonexistent id gets (naming
 * them) instead of 404, which reveals nothing another tenant's id would not; the sweep checks it is the same answer.
 */
export type IdExemptions = Readonly<Partial<Record<IdParameter, string>>>;

export type RouteTableEntry = {
  method: string;
  path: string;
  operationId: string;
  access: RouteAccess;
  bodyLimit: BodyLimit;
  /** The body media types a validator parses (JSON, form); empty when the route takes no such body. */
  parsedBody: ParsedBodyTypes;
  resourceIds: ResourceIds;
  notResourceIds: IdExemptions;
  answersLikeMissing: IdExemptions;
  answersWhileStarting: boolean;
  /** Every response by status, derived and declared (their schemas validate every answer in tests). */
  responses: RouteConfig['responses'];
};

/** Every declared route; the OpenAPI document and the security tests walk it. */
export const routeTable: RouteTableEntry[] = [];

type Declared<R extends RouteConfig> = ReturnType<typeof createRoute<R['path'], R>>;

/**
 * Declares a route with its access rule and body limit. They become the route's middleware, in this
 * order: the declared-length check (413 before a byte is read, even before authentication),
 * authenticate (a user, or a device on the player API), role (or the device's assignment), tenant scope,
 * then the input guard (NUL in query, path and body; the body read within the limit; JSON depth) right
 * before the validators. The OpenAPI document shows them as `x-minimum-role` (or `x-caller: device`) and
 * `x-body-limit`.
 */
export function defineRoute<const R extends RouteConfig & { operationId: string }>(
  access: RouteAccess,
  config: R,
  options: RouteOptions = {},
): Declared<R> {
  const parsedBody = parsedBodyTypes(config);
  const bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT;
  checkBodyDeclaration(config, bodyLimit, parsedBody);
  checkIdExemptions(config, options);
  const middleware: MiddlewareHandler<AppEnv>[] = [];
  if (bodyLimit !== 'stream') middleware.push(declaredLengthLimit(bodyLimit));
  if (isDeviceAccess(access)) {
    middleware.push(authenticateDevice);
    if (access.device === 'assigned') middleware.push(requireAssignedDevice);
  } else if (isUserAccess(access)) {
    middleware.push(authenticate, requireRole(access.minRole));
    if (access.tenant === 'scoped') middleware.push(resolveScope);
  }
  const bodyRequired =
    (config.request?.body as { required?: boolean } | undefined)?.required === true && (parsedBody.json || parsedBody.form.length > 0);
  middleware.push(requestInputGuard({ limit: bodyLimit, parsedBody, bodyRequired }));
  const responses = withDerivedResponses(access, config, options, parsedBody);
  const route = createRoute({
    ...config,
    ...securityOf(access, config),
    responses,
    'x-body-limit': bodyLimit,
    ...(options.resourceIds ? { 'x-resource-ids': options.resourceIds } : {}),
    middleware: [...middleware, ...toArray(config.middleware as MiddlewareHandler<AppEnv> | MiddlewareHandler<AppEnv>[] | undefined)],
  } as R);
  routeTable.push({
    method: config.method.toUpperCase(),
    path: config.path,
    operationId: config.operationId,
    access,
    bodyLimit,
    parsedBody,
    resourceIds: options.resourceIds ?? {},
    notResourceIds: options.notResourceIds ?? {},
    answersLikeMissing: options.answersLikeMissing ?? {},
    answersWhileStarting: options.answersWhileStarting ?? false,
    responses,
  });

  return route as Declared<R>;
}

/**
 * The OpenAPI security of a route: a user's bearer token or cookie with `x-minimum-role`, a device token with
 * `x-caller`, or a public route's own (the OAuth client's Basic credentials) or none (`security: []`).
 */
function securityOf(access: RouteAccess, config: RouteConfig) {
  if (isDeviceAccess(access)) return { security: [{ deviceToken: [] }], 'x-caller': 'device', 'x-device-assignment': access.device };
  if (isUserAccess(access)) return { security: [{ bearerAuth: [] }, { sessionCookie: [] }], 'x-minimum-role': access.minRole };

  return { security: config.security ?? [] };
}

type Responses = RouteConfig['responses'];

/**
 * Every status the route can answer: what its declaration implies, then what it declares itself, merged per status
 * (a route's own description or schema wins; headers and content it leaves out come from the derived one).
 * - 400 everywhere (NUL in any query value, path parameter or body; invalid input);
 * - 401 for every user and device route; 403 for user routes (role, restricted customer, scope, origin, second
 *   factor) and assigned-device routes;
 * - 404 for a tenant-scoped route (a `customerId` that names no customer) and for declared resource ids;
 * - 413 everywhere (a body, or a declared Content-Length, above the route's limit; a streamed body past its own);
 * - 415 for a body a validator parses (another media type);
 * - 429 with `Retry-After` for a rate-limited route; 503 with `Retry-After` for every route but the health checks.
 */
function withDerivedResponses(
  access: RouteAccess,
  config: RouteConfig & { operationId: string },
  options: RouteOptions,
  parsedBody: ParsedBodyTypes,
): Responses {
  const declared = config.responses as Record<string, Record<string, unknown>>;
  if (declared['429'] && !options.rateLimited)
    throw new Error(`${config.operationId}: a route that answers 429 says what it counts with the rateLimited option`);
  const scoped = isUserAccess(access) && access.tenant === 'scoped';
  const derived: Partial<Record<number, object>> = {
    400: sharedErrors[400],
    ...(isUserAccess(access) || isDeviceAccess(access) ? { 401: sharedErrors[401] } : {}),
    ...(isUserAccess(access)
      ? { 403: sharedErrors[403] }
      : isDeviceAccess(access) && access.device === 'assigned'
        ? { 403: sharedErrors.deviceNotAssigned }
        : {}),
    ...(scoped
      ? { 404: sharedErrors.tenantNotFound }
      : Object.keys(options.resourceIds ?? {}).length > 0
        ? { 404: sharedErrors[404] }
        : {}),
    413: sharedErrors[413],
    ...(parsedBody.json || parsedBody.form.length > 0 ? { 415: sharedErrors[415] } : {}),
    ...(options.rateLimited ? { 429: sharedErrors[429](options.rateLimited) } : {}),
    ...(options.answersWhileStarting ? {} : { 503: sharedErrors[503] }),
  };
  const merged: Record<string, object> = {};
  for (const status of new Set([...Object.keys(declared), ...Object.keys(derived).map(String)].sort())) {
    merged[status] = { ...(derived[Number(status)] ?? {}), ...(declared[status] ?? {}) };
  }

  return merged as Responses;
}

const isZodSchema = (schema: unknown) => typeof (schema as { safeParse?: unknown } | undefined)?.safeParse === 'function';

/** The declared body media types that zod-openapi gives a validator (which reads the whole body). */
function parsedBodyTypes(config: RouteConfig): ParsedBodyTypes {
  const content = config.request?.body?.content ?? {};
  const validated = Object.entries(content)
    .filter(([, media]) => isZodSchema((media as { schema?: unknown } | undefined)?.schema))
    .map(([type]) => type.toLowerCase());

  return {
    json: validated.some((type) => /^application\/([\w.-]+\+)?json/.test(type)),
    form: validated.filter((type) => type.startsWith('multipart/form-data') || type.startsWith('application/x-www-form-urlencoded')),
  };
}

/**
 * A body a validator parses is buffered, so it cannot be `'stream'`. A body no validator parses (binary,
 * multipart read by the handler) is streamed by its handler: with a numeric limit requestBodyStream cuts
 * it there; `'stream'` leaves the limits to the handler (uploads).
 */
function checkBodyDeclaration(config: RouteConfig & { operationId: string }, bodyLimit: BodyLimit, parsed: ParsedBodyTypes): void {
  if (bodyLimit === 'stream' && (parsed.json || parsed.form.length > 0)) {
    throw new Error(`${config.operationId}: a validated body is buffered and cannot be declared 'stream'`);
  }
  if (typeof bodyLimit === 'number' && !(Number.isInteger(bodyLimit) && bodyLimit > 0))
    throw new Error(`${config.operationId}: bodyLimit must be a positive integer`);
}

/** An exception of the id sweep contradicts no declared id: it names a parameter that is (answersLikeMissing) or is not (notResourceIds) one. */
function checkIdExemptions(config: RouteConfig & { operationId: string }, options: RouteOptions): void {
  const declared = (where: string) =>
    Object.hasOwn(options.resourceIds ?? {}, where) || Object.hasOwn(options.resourceIds ?? {}, `${where}[]`);
  for (const where of Object.keys(options.notResourceIds ?? {})) {
    if (declared(where)) throw new Error(`${config.operationId}: ${where} is declared as a resource id and as not one`);
  }
  for (const where of Object.keys(options.answersLikeMissing ?? {})) {
    if (!Object.hasOwn(options.resourceIds ?? {}, where))
      throw new Error(`${config.operationId}: ${where} answers like a missing id but is no declared resource id`);
  }
}

function toArray<T>(value: T | T[] | undefined): T[] {
  if (value === undefined) return [];

  return Array.isArray(value) ? value : [value];
}

/** What a module declares its routes on (the app collects them and registers static paths first). */
export type RouteRegistrar = OpenAPIHono<AppEnv>;
