import { createRoute, type RouteConfig } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import type { Role } from '@/server/auth/roles';
import { authenticate, requireRole, resolveScope } from './auth-middleware';
import type { AppEnv } from './context';

/**
 * How a route is protected. `public`: no credentials. Otherwise a minimum role and whether
 * the route takes the `customerId` tenant selector (`tenant: 'scoped'`).
 */
export type RouteAccess = { public: true } | { public?: false; minRole: Role; tenant: 'scoped' | 'none' };

export type RouteTableEntry = {
  method: string;
  path: string;
  operationId: string;
  access: RouteAccess;
};

/** Every declared route; the OpenAPI document and the security tests walk it. */
export const routeTable: RouteTableEntry[] = [];

type Declared<R extends RouteConfig> = ReturnType<typeof createRoute<R['path'], R>>;

/**
 * Declares a route with its access rule. The rule becomes the route's middleware (authenticate,
 * role, tenant scope) and an `x-minimum-role` extension in the OpenAPI document.
 */
export function defineRoute<const R extends RouteConfig & { operationId: string }>(access: RouteAccess, config: R): Declared<R> {
  const middleware: MiddlewareHandler<AppEnv>[] = [];
  if (!access.public) {
    middleware.push(authenticate, requireRole(access.minRole));
    if (access.tenant === 'scoped') middleware.push(resolveScope);
  }
  const route = createRoute({
    ...config,
    ...(access.public
      ? {}
      : { security: [{ bearerAuth: [] }, { sessionCookie: [] }], 'x-minimum-role': access.minRole }),
    middleware: [...middleware, ...toArray(config.middleware as MiddlewareHandler<AppEnv> | MiddlewareHandler<AppEnv>[] | undefined)],
  } as R);
  routeTable.push({ method: config.method.toUpperCase(), path: config.path, operationId: config.operationId, access });

  return route as Declared<R>;
}

function toArray<T>(value: T | T[] | undefined): T[] {
  if (value === undefined) return [];

  return Array.isArray(value) ? value : [value];
}
