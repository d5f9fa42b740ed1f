import type { Context } from 'hono';
import type { AppEnv } from './context';

/** The methods a path answers, in the order `Allow` lists them. */
const METHOD_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

type RegisteredRoute = { method: string; path: string };

/** A Hono path (`/api/file/:id`, `:name{regex}`, `*`) as a regular expression; a trailing slash is optional (strict: false). */
function patternOf(path: string): RegExp {
  const source = path
    .replace(/\/+$/, '')
    .split('/')
    .map((segment) => {
      if (segment === '*') return '.*';
      const param = /^:\w+(?:\{(.+)\})?$/.exec(segment);
      if (param) return param[1] ? `(?:${param[1]})` : '[^/]+';

      return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('/');

  return new RegExp(`^${source}/?$`);
}

/**
 * The methods of the app's routes by path, built once from the registered routes: the `Allow` of a 405 (DECISIONS §3
 * lists no 405; RFC 9110 §15.5.6). HEAD goes with GET (Hono answers it); OPTIONS only if a route answers it (none does).
 */
export function allowedMethods(routes: readonly RegisteredRoute[]): (path: string) => string[] {
  const byPath = new Map<string, Set<string>>();
  for (const route of routes) {
    const method = route.method.toUpperCase();
    if (!METHOD_ORDER.includes(method)) continue; // ALL: path middleware
    const methods = byPath.get(route.path) ?? new Set<string>();
    methods.add(method);
    if (method === 'GET') methods.add('HEAD');
    byPath.set(route.path, methods);
  }
  const patterns = [...byPath].map(([path, methods]) => ({ pattern: patternOf(path), methods }));

  return (path) => {
    const allowed = new Set<string>();
    for (const { pattern, methods } of patterns) if (pattern.test(path)) for (const method of methods) allowed.add(method);

    return METHOD_ORDER.filter((method) => allowed.has(method));
  };
}

/**
 * The app's not-found handler: a known path asked with a method it does not have is `405
 * request.error.methodNotAllowed` with `Allow`; anything else (an unknown path, or a route's own `c.notFound()`)
 * is `404 request.error.notFound`.
 */
export function notFoundOrMethodNotAllowed(routes: () => readonly RegisteredRoute[]) {
  let methodsOf: ((path: string) => string[]) | undefined;

  return (c: Context<AppEnv>) => {
    methodsOf ??= allowedMethods(routes());
    const allowed = methodsOf(c.req.path);
    if (allowed.length > 0 && !allowed.includes(c.req.method)) {
      c.header('Allow', allowed.join(', '));

      return c.json(
        {
          status: 405,
          key: 'request.error.methodNotAllowed',
          message: `${c.req.method} is not allowed on ${c.req.path}`,
          details: { allowed },
        },
        405,
      );
    }

    return c.json({ status: 404, key: 'request.error.notFound', message: `No route for ${c.req.method} ${c.req.path}` }, 404);
  };
}
