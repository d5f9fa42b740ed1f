import { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from './context';
import { validationHook } from './errors';
import type { RouteRegistrar } from './route';

/** What declares routes: a module's manifest, in the service (server/composition.ts). */
export type RouteSource = { routes?: (app: RouteRegistrar) => void };

/**
 * Registers every module's routes on `app` so that no route shadows another, whatever the module order:
 * Hono tries routes in registration order, so `/api/customer/resourceLimits` must come before
 * `/api/customer/{id}`. Modules declare their routes on a collecting app; path middleware (`use`) goes
 * first, then the routes with static segments before parameters at the first segment where they differ.
 * A method and path declared twice (parameter names aside), or one path template spelled with other parameter
 * names by another operation (OpenAPI: one name per position), fails here, at start.
 */
export function registerModuleRoutes(app: OpenAPIHono<AppEnv>, list: readonly RouteSource[]): void {
  const collector = new OpenAPIHono<AppEnv>({ strict: false, defaultHook: validationHook as never });
  for (const module of list) module.routes?.(collector);
  assertNoDuplicateRoutes(collector);
  const order = new Map(collector.routes.map((route, index) => [route, index]));
  collector.routes.sort((a, b) => compareRoutes(a, b) || order.get(a)! - order.get(b)!);
  app.route('/', collector);
}

type CollectedRoute = { method: string; path: string };

const isParameter = (segment: string) => segment.startsWith(':') || segment.includes('*');
const segmentsOf = (path: string) => path.split('/').filter((segment) => segment !== '');

/** Path middleware first; then, at the first differing segment, a static segment before a parameter. */
export function compareRoutes(a: CollectedRoute, b: CollectedRoute): number {
  const aIsMiddleware = a.method === 'ALL';
  const bIsMiddleware = b.method === 'ALL';
  if (aIsMiddleware !== bIsMiddleware) return aIsMiddleware ? -1 : 1;
  if (aIsMiddleware) return 0;
  const aSegments = segmentsOf(a.path);
  const bSegments = segmentsOf(b.path);
  for (let i = 0; i < Math.min(aSegments.length, bSegments.length); i++) {
    const x = aSegments[i]!;
    const y = bSegments[i]!;
    const xParam = isParameter(x);
    const yParam = isParameter(y);
    if (xParam !== yParam) return xParam ? 1 : -1;
    if (!xParam && x !== y) return x < y ? -1 : 1;
  }

  return aSegments.length - bSegments.length;
}

/**
 * The OpenAPI operations declared on `collector`: each `METHOD /path` (parameters as `{}`) at most once, and each
 * path template under one spelling (`/api/team/{id}` beside `/api/team/{assignments}` is one template named twice).
 */
function assertNoDuplicateRoutes(collector: OpenAPIHono<AppEnv>): void {
  const seen = new Set<string>();
  const spelling = new Map<string, string>();
  for (const definition of collector.openAPIRegistry.definitions) {
    if (definition.type !== 'route') continue;
    const path = definition.route.path.replace(/\/+$/, '');
    const normalized = path.replace(/\{[^}]+\}/g, '{}');
    const key = `${definition.route.method.toUpperCase()} ${normalized}`;
    if (seen.has(key)) throw new Error(`Route declared twice: ${key} (${definition.route.operationId ?? 'no operationId'})`);
    seen.add(key);
    const other = spelling.get(normalized) ?? path;
    if (other !== path)
      throw new Error(
        `One path template, two spellings: ${other} and ${path} (${definition.route.operationId ?? 'no operationId'}); use one parameter name per position`,
      );
    spelling.set(normalized, path);
  }
}
