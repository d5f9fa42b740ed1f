import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '@/server/http/context';
import { healthRoute, readyRoute } from './system.routes';

export function registerSystemRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(healthRoute, (c) => c.json({ status: 'ok' as const }, 200));

  app.openapi(readyRoute, async (c) => {
    const ready = await c.var.deps.ready().catch(() => false);

    return ready ? c.json({ status: 'ok' as const }, 200) : c.json({ status: 'unavailable' as const }, 503);
  });
}
