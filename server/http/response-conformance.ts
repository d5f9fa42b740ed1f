import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from './context';
import { ErrorSchema } from './errors';
import { routeTable, type RouteTableEntry } from './route';

/** One answer that does not match what its route declares. */
export type ResponseDrift = { route: string; status: number; problem: string };

type SchemaLike = { safeParse: (value: unknown) => { success: true; data: unknown } | { success: false; error: { issues: unknown[] } } };

const byPattern = new Map<string, RouteTableEntry>();

function routeOf(method: string, routePath: string): RouteTableEntry | undefined {
  if (byPattern.size !== routeTable.length) {
    byPattern.clear();
    for (const route of routeTable) byPattern.set(`${route.method} ${route.path.replace(/\{([^}]+)\}/g, ':$1')}`, route);
  }

  return byPattern.get(`${method} ${routePath}`);
}

/**
 * Tests only: checks every JSON answer against its route's declared schema for that status, strictly (a key
 * the schema does not declare is drift too, found by comparing the parsed value with the answer), so the
 * OpenAPI document cannot drift from what the API answers. Drift is handed to `report`, never to the client.
 */
export function responseConformance(report: (drift: ResponseDrift) => void): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    const route = routeOf(c.req.method, c.req.routePath);
    if (!route || !(c.res.headers.get('content-type') ?? '').includes('json')) return;
    const status = c.res.status;
    const declared = (route.responses as Record<string, { content?: Record<string, { schema?: unknown }> }> | undefined)?.[status];
    const label = `${route.method} ${route.path} (${route.operationId})`;
    // Errors any route can answer (413, 415, 429, 500, …) follow the shared error shape when not declared.
    if (!declared && status < 400) return report({ route: label, status, problem: 'status not declared' });
    const schema = (declared ? declared.content?.['application/json']?.schema : ErrorSchema) as SchemaLike | undefined;
    if (!schema || typeof schema.safeParse !== 'function') return;
    let body: unknown;
    try {
      body = await c.res.clone().json();
    } catch {
      return report({ route: label, status, problem: 'body is not JSON' });
    }
    const parsed = schema.safeParse(body);
    if (!parsed.success) return report({ route: label, status, problem: JSON.stringify(parsed.error.issues).slice(0, 2000) });
    const extra = undeclaredKeys(body, parsed.data, '');
    if (extra.length > 0) report({ route: label, status, problem: `undeclared keys: ${extra.join(', ')}` });
  };
}

/** Paths of keys in `sent` that parsing dropped (not in the schema). */
export function undeclaredKeys(sent: unknown, parsed: unknown, at: string): string[] {
  if (Array.isArray(sent) && Array.isArray(parsed)) return sent.flatMap((item, i) => undeclaredKeys(item, parsed[i], `${at}[${i}]`));
  if (!isObject(sent) || !isObject(parsed)) return [];

  return Object.keys(sent).flatMap((key) => (key in parsed ? undeclaredKeys(sent[key], parsed[key], `${at}.${key}`) : [`${at}.${key}`]));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
