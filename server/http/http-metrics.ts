import type { Context, MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import type { Metrics } from '@/server/metrics/metrics';
import type { AppEnv } from './context';

/** The label of a request no route matched (an unknown path, or a method its path lacks). */
const UNMATCHED_ROUTE = 'unmatched';

/**
 * Counts and times every request of the app by the template of the route that answered it, never by its URL: the
 * label set stays bounded however many ids and hostile paths arrive (`signage_http_requests_total`, `…_duration_seconds`).
 */
export function httpMetrics(metrics: Metrics): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    await next();
    // After next: errors were turned into answers by then (onError), so every request has its status here.
    metrics.observeRequest({
      route: routeTemplate(c),
      method: c.req.method,
      status: c.res.status,
      seconds: (performance.now() - started) / 1000,
    });
  };
}

/** The OpenAPI path of the route that matched (`/api/v2/device/{id}`); middleware (`use`, method ALL) is no route. */
function routeTemplate(c: Context): string {
  const route = matchedRoutes(c).findLast((r) => r.method !== 'ALL');

  return route ? route.path.replace(/:(\w+)(\{[^}]*\})?/g, '{$1}') : UNMATCHED_ROUTE;
}
