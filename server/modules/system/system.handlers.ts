import type { OpenAPIHono } from '@hono/zod-openapi';
import { ServiceUnavailableError } from '@/server/errors';
import type { AppEnv } from '@/server/http/context';
import { NotReadyError } from '@/server/readiness';
import { healthRoute, readyRoute } from './system.routes';

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
}
