import type { MiddlewareHandler } from 'hono';
import { authenticateAccessToken } from '@/server/auth/authenticate';
import { actorHasRole, actorLogFields } from '@/server/context/actor';
import type { Role } from '@/server/context/roles';
import { accessTokenFromSessionCookie } from '@/server/auth/session-cookie';
import { parseCustomerIdParam, resolveTenantScope } from '@/server/auth/tenant-scope';
import { ForbiddenError, UnauthorizedError } from '@/server/errors';
import type { AppEnv } from './context';

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
  c.set('scope', await resolveTenantScope(c.var.deps.db, actor, parseCustomerIdParam(c.req.query('customerId'))));
  await next();
};
