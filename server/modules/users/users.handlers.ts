import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '@/server/http/context';
import { sortValues } from '@/server/http/list-query';
import { serviceContext } from '@/server/http/service-context';
import { getMeRoute, listUsersRoute } from './users.routes';
import { getCurrentUser, listUsers } from './users.service';

export function registerUserRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(getMeRoute, async (c) => c.json(await getCurrentUser(serviceContext(c), c.req.valid('query')) as never, 200));

  app.openapi(listUsersRoute, async (c) => {
    const { sort, ...query } = c.req.valid('query');

    return c.json(await listUsers(serviceContext(c), { ...query, sort: sortValues(sort) }) as never, 200);
  });
}
