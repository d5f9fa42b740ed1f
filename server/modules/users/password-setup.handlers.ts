import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { clientAddress } from '@/server/http/client-address';
import type { AppEnv } from '@/server/http/context';
import { serviceContext } from '@/server/http/service-context';
import * as routes from './password-setup.routes';
import * as service from './password-setup.service';

function publicContext(c: Context<AppEnv>): service.PublicContext {
  return { db: c.var.deps.db, config: c.var.deps.config, requestId: c.var.requestId, address: clientAddress(c) };
}

export function registerPasswordSetupRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(routes.getPasswordSetupRoute, async (c) => {
    c.header('Cache-Control', 'no-store');

    return c.json(await service.readPasswordSetupLink(publicContext(c), c.req.valid('query')), 200);
  });

  app.openapi(routes.completePasswordSetupRoute, async (c) => {
    c.header('Cache-Control', 'no-store');

    return c.json(await service.completePasswordSetup(publicContext(c), c.req.valid('json')), 200);
  });

  app.openapi(routes.resendPasswordSetupRoute, async (c) =>
    c.json(await service.resendPasswordSetup(serviceContext(c), { email: c.req.valid('query').email }), 200),
  );

  app.openapi(routes.copyPasswordSetupLinkRoute, async (c) => {
    c.header('Cache-Control', 'no-store');

    return c.json(await service.copyPasswordSetupLink(serviceContext(c), { email: c.req.valid('query').email }), 200);
  });
}
