import { createHash, timingSafeEqual } from 'node:crypto';
import type { OpenAPIHono } from '@hono/zod-openapi';
import { AppError, ServiceUnavailableError, UnauthorizedError } from '@/server/errors';
import type { AppEnv } from '@/server/http/context';
import { NotReadyError } from '@/server/readiness';
import { healthRoute, metricsRoute, readyRoute } from './system.routes';

export function registerSystemRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(healthRoute, (c) => c.json({ status: 'ok' as const }, 200));

  app.openapi(readyRoute, async (c) => {
    // NotReadyError names the failed check (server/readiness.ts); any other failure says only "not ready".
    const isReady = await c.var.deps.ready().catch((error: unknown) => {
      if (error instanceof NotReadyError) throw error;

      return false;
    });
    if (!isReady) throw new ServiceUnavailableError('Not ready', 1);

    return c.json({ status: 'ok' as const }, 200);
  });

  app.openapi(metricsRoute, async (c) => {
    const { metrics, config } = c.var.deps;
    const token = config.metrics.token;
    // Not configured: the same answer as a path that does not exist.
    if (!metrics || !token) throw new AppError(404, 'request.error.notFound', `No route for ${c.req.method} ${c.req.path}`);
    const given = /^Bearer\s+(\S+)\s*$/i.exec(c.req.header('authorization') ?? '')?.[1] ?? '';
    if (!isSameSecret(given, token)) throw new UnauthorizedError('The metrics need the METRICS_TOKEN as a bearer token');

    return c.text(await metrics.exposition(), 200, { 'Content-Type': metrics.contentType });
  });
}

/** Compares digests of equal length, so the time taken says nothing about the token's length or prefix. */
function isSameSecret(given: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();

  return timingSafeEqual(digest(given), digest(expected));
}
