import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '@/server/http/context';
import { listQuery } from '@/server/http/list-query';
import { serviceContext } from '@/server/http/service-context';
import * as routes from './ui-profiles.routes';
import * as service from './ui-profiles.service';

export function registerUiProfileRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(routes.listUiProfilesRoute, async (c) => c.json(await service.listUiProfiles(serviceContext(c), listQuery(c)), 200));

  app.openapi(routes.getUiProfileRoute, async (c) => {
    const input = { id: c.req.valid('param').id, select: c.req.valid('query').select };

    return c.json(await service.getUiProfile(serviceContext(c), input), 200);
  });

  app.openapi(routes.createUiProfileRoute, async (c) => c.json(await service.createUiProfile(serviceContext(c), c.req.valid('json')), 201));

  app.openapi(routes.updateUiProfileRoute, async (c) => {
    const input = { id: c.req.valid('param').id, body: c.req.valid('json') };

    return c.json(await service.updateUiProfile(serviceContext(c), input), 200);
  });

  app.openapi(routes.assignUiProfileRoute, async (c) => {
    const input = { id: c.req.valid('param').id, body: c.req.valid('json') };

    return c.json(await service.assignUiProfile(serviceContext(c), input), 200);
  });

  app.openapi(routes.deleteUiProfileRoute, async (c) => {
    await service.deleteUiProfile(serviceContext(c), { id: c.req.valid('param').id });

    return c.body(null, 204);
  });
}
