import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from './context';
import { CLIENT_CLOSED_REQUEST, ErrorSchema } from './errors';
import { routeTable, type RouteTableEntry } from './route';

/** One answer that does not match what its route declares. */
export type ResponseDrift = { route: string; status: number; problem: string };

type SchemaLike = { safeParse: (value: unknown) => { success: true; data: unknown } | { success: false; error: { issues: unknown[] } } };

type DeclaredResponse = { content?: Record<string, { schema?: unknown }>; headers?: Record<string, unknown> };

/** What a 500 must look like (toErrorBody: `server.error.internal`, nothing of the failure). */
const INTERNAL_ERROR: DeclaredResponse = { content: { 'application/json': { schema: ErrorSchema } } };

const byPattern = new Map<string, RouteTableEntry>();

function routeOf(method: string, routePath: string): RouteTableEntry | undefined {
  if (byPattern.size !== routeTable.length) {
    byPattern.clear();
    for (const route of routeTable) byPattern.set(`${route.method} ${route.path.replace(/\{([^}]+)\}/g, ':$1')}`, route);
  }

  return byPattern.get(`${method} ${routePath}`);
}

/**
 * Tests only: checks every answer of a declared route against the route's declaration. Its status must be declared
 * (success or error: the document lists every status an operation can answer, most of them derived from the route's
 * declaration, server/http/route.ts); a JSON answer must match the declared schema for that status, strictly (a key
 * the schema does not declare is drift too, found by comparing the parsed value with the answer). So the OpenAPI
 * document cannot drift from what the API answers. The one status no operation declares is 500 (a bug, never a
 * contract; the document says so once): it must have the shared error shape. Drift is handed to `report`, never to
 * the client.
 */
export function responseConformance(report: (drift: ResponseDrift) => void): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    const route = routeOf(c.req.method, c.req.routePath);
    if (!route) return;
    const status = c.res.status;
    // Nobody received it: the client hung up before its request was read (the access log's status only).
    if (status === CLIENT_CLOSED_REQUEST) return;
    const declared =
      (route.responses as Record<string, DeclaredResponse> | undefined)?.[status] ?? (status === 500 ? INTERNAL_ERROR : undefined);
    const label = `${route.method} ${route.path} (${route.operationId})`;
    if (!declared) return report({ route: label, status, problem: 'status not declared' });
    const missingHeaders = Object.keys(declared.headers ?? {}).filter((name) => !c.res.headers.has(name));
    if (missingHeaders.length > 0) report({ route: label, status, problem: `declared headers missing: ${missingHeaders.join(', ')}` });
    if (!(c.res.headers.get('content-type') ?? '').includes('json')) return;
    const schema = declared.content?.['application/json']?.schema as SchemaLike | undefined;
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
