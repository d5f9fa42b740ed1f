import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '@/server/http/context';
import { serviceContext } from '@/server/http/service-context';
import { customerLimitsRoute, listServerLimitsRoute, resetLimitsRoute, updateConfigBatchRoute } from './resource-limits.routes';
import { customerLimits, listServerLimits, resetLimitConfig, updateLimitConfig } from './resource-limits.service';

export function registerResourceLimitRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(listServerLimitsRoute, async (c) => c.json(await listServerLimits(serviceContext(c)), 200));
  app.openapi(updateConfigBatchRoute, async (c) => c.json(await updateLimitConfig(serviceContext(c), c.req.valid('json')), 200));
  app.openapi(resetLimitsRoute, async (c) => {
    await resetLimitConfig(serviceContext(c), c.req.valid('query'));

    return c.body(null, 204);
  });
  app.openapi(customerLimitsRoute, async (c) => c.json(await customerLimits(serviceContext(c)), 200));
}
