import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '@/server/http/context';
import * as routes from './mail.routes';
import * as service from './mail.service';

export function registerMailRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(routes.getMailStatusRoute, (c) => c.json(service.mailStatus(c.var.deps.config), 200));

  app.openapi(routes.listOutboxRoute, async (c) => c.json(await service.listOutbox(c.var.deps.db, c.req.valid('query')), 200));
}
