import type { MiddlewareHandler } from 'hono';
import { authenticateAccessToken } from '@/server/auth/authenticate';
import { authenticateDeviceToken } from '@/server/auth/device-token';
import { actorHasRole, actorLogFields, deviceActorOf } from '@/server/context/actor';
import type { Role } from '@/server/context/roles';
import { accessTokenFromSessionCookie } from '@/server/auth/session-cookie';
import { resolveTenantScope } from '@/server/auth/tenant-scope';
import { ForbiddenError, UnauthorizedError, ValidationError } from '@/server/errors';
import type { AppEnv } from './context';
import { customerIdSelector } from './wire.schemas';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Resolves the caller from `Authorization: Bearer` (opaque token or its JWT form) or, for the
 * console, from the next-auth session cookie. Cookie-authenticated writes must come from the
 * console's own origin (CSRF protection); bearer calls carry no ambient credentials.
 */
export const authenticate: MiddlewareHandler<AppEnv> = async (c, next) => {
  const { db } = c.var.deps;
  const header = c.req.header('authorization');
  let resolved;
  if (header !== undefined) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match) throw new UnauthorizedError('The Authorization header must be "Bearer <token>"');
    resolved = await authenticateAccessToken(db, match[1]!, 'bearer', c.var.log);
    if (!resolved) throw new UnauthorizedError('The access token is invalid, expired or revoked', 'auth.error.invalidToken');
  } else {
    const accessToken = await accessTokenFromSessionCookie(c.req.header('cookie'));
    if (!accessToken) throw new UnauthorizedError();
    if (!SAFE_METHODS.has(c.req.method) && !isConsoleOrigin(c.req.header('origin'), c.req.url, c.var.deps.config.publicUrl)) {
      throw new ForbiddenError('Cross-origin requests with the console session are refused', 'auth.error.originMismatch');
    }
    resolved = await authenticateAccessToken(db, accessToken, 'cookie', c.var.log);
    if (!resolved) throw new UnauthorizedError('The session has expired', 'auth.error.invalidToken');
  }
  if (resolved.customerRestricted) {
    throw new ForbiddenError('The customer account is restricted', 'auth.error.customerRestricted');
  }
  c.set('actor', resolved.actor);
  c.var.log.debug({ ...actorLogFields(resolved.actor), via: resolved.actor.via }, 'authenticated');
  await next();
};

function isConsoleOrigin(origin: string | undefined, requestUrl: string, publicUrl: string | undefined): boolean {
  if (!origin) return false;
  const allowed = new Set([new URL(requestUrl).origin]);
  if (publicUrl) allowed.add(new URL(publicUrl).origin);

  return allowed.has(origin);
}

export function requireRole(minimum: Role): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const actor = c.var.actor;
    if (!actor) throw new UnauthorizedError();
    if (!actorHasRole(actor, minimum)) {
      throw new ForbiddenError(`This operation needs the role ${minimum} or higher`, 'auth.error.roleRequired', { minimumRole: minimum });
    }
    await next();
  };
}

/** Resolves the `customerId` selector once; services read it from the context. */
export const resolveScope: MiddlewareHandler<AppEnv> = async (c, next) => {
  const actor = c.var.actor;
  if (!actor) throw new UnauthorizedError();
  c.set('scope', await resolveTenantScope(c.var.deps.db, actor, customerIdOf(c.req.query('customerId'))));
  await next();
};

/** The `customerId` selector, read by the one schema the OpenAPI document shows for it (wire.schemas.ts). */
function customerIdOf(raw: string | undefined): number | null | undefined {
  const parsed = customerIdSelector.safeParse(raw);
  if (!parsed.success) {
    throw new ValidationError(
      'request.error.invalid',
      `Invalid query value 'customerId': expected a customer id, -1 or null, got '${raw}'`,
      { parameter: 'customerId' },
    );
  }

  return parsed.data;
}

/**
 * The player API (`/api/display/**`, spec 4 §2): only `Authorization: Bearer <device token>`. A user's token,
 * the console's cookie or no credentials answer 401, as does a device whose customer is restricted.
 */
export const authenticateDevice: MiddlewareHandler<AppEnv> = async (c, next) => {
  const header = c.req.header('authorization');
  if (header === undefined) throw new UnauthorizedError('A device access token is required');
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) throw new UnauthorizedError('The Authorization header must be "Bearer <token>"');
  const result = await authenticateDeviceToken(c.var.deps.db, match[1]!, c.var.log);
  if ('refused' in result) {
    if (result.refused === 'customerRestricted')
      throw new UnauthorizedError('The customer account is restricted', 'auth.error.customerRestricted');
    throw new UnauthorizedError('The device access token is invalid, expired or revoked', 'auth.error.invalidToken');
  }
  c.set('device', result.caller);
  const actor = deviceActorOf(result.caller);
  if (actor) c.set('actor', actor);
  c.var.log.debug({ deviceId: result.caller.deviceId }, 'device authenticated');
  // The activity write (once a minute) runs beside the handler, off its path, and ends before the response leaves.
  try {
    await next();
  } finally {
    await result.activity;
  }
};

/** Spec 4 §3: an unassigned device may call only status, heartbeat, wsTicket and ws. */
export const requireAssignedDevice: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.var.device?.customerId == null)
    throw new ForbiddenError('The device is not assigned to a customer yet', 'display.error.notAssigned');
  await next();
};

/**
 * Routes that several kinds of caller use (DECISIONS §6: a datasource's `set` and `merge`): a user's bearer token
 * or console session (the actor and its scope without a selector), a device token (the device), or no credentials
 * at all (neither is set; the service decides what an anonymous caller may do). Credentials that are sent must
 * be valid: an unknown token is 401, never read as anonymous.
 */
export const identifyCaller: MiddlewareHandler<AppEnv> = async (c, next) => {
  const header = c.req.header('authorization');
  const match = header === undefined ? undefined : /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (header !== undefined && !match) throw new UnauthorizedError('The Authorization header must be "Bearer <token>"');
  if (match) {
    const { db } = c.var.deps;
    const user = await authenticateAccessToken(db, match[1]!, 'bearer', c.var.log);
    if (!user) return authenticateDevice(c, next);
    if (user.customerRestricted) throw new ForbiddenError('The customer account is restricted', 'auth.error.customerRestricted');
    c.set('actor', user.actor);
  } else if (await accessTokenFromSessionCookie(c.req.header('cookie'))) {
    return authenticate(c, async () => {
      c.set('scope', await resolveTenantScope(c.var.deps.db, c.var.actor!, undefined));
      await next();
    });
  }
  if (c.var.actor) c.set('scope', await resolveTenantScope(c.var.deps.db, c.var.actor, undefined));
  await next();
};
