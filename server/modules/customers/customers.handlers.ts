import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '@/server/http/context';
import { listQuery } from '@/server/http/list-query';
import { serviceContext } from '@/server/http/service-context';
import * as routes from './customers.routes';
import * as service from './customers.service';

/** Registered after every static `/api/customer/<word>` route of other modules (see app.ts): `{id}` would shadow them. */
export function registerCustomerRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(routes.selectCustomersRoute, async (c) =>
    c.json(await service.selectAccessibleCustomers(serviceContext(c), listQuery(c)), 200),
  );
  app.openapi(routes.listCustomersRoute, async (c) => c.json(await service.listCustomers(serviceContext(c), listQuery(c)), 200));
  app.openapi(routes.getCustomerRoute, async (c) =>
    c.json(await service.getCustomer(serviceContext(c), { id: c.req.valid('param').id, ...c.req.valid('query') }), 200),
  );
  app.openapi(routes.createCustomerRoute, async (c) => c.json(await service.createCustomer(serviceContext(c), c.req.valid('json')), 201));
  app.openapi(routes.updateCustomerRoute, async (c) =>
    c.json(await service.updateCustomer(serviceContext(c), { id: c.req.valid('param').id, body: c.req.valid('json') }), 200),
  );
  app.openapi(routes.deleteCustomerRoute, async (c) => {
    await service.deleteCustomer(serviceContext(c), { id: c.req.valid('param').id });

    return c.body(null, 204);
  });
  app.openapi(routes.updateTeamSettingsRoute, async (c) =>
    c.json(await service.updateTeamSettings(serviceContext(c), c.req.valid('json')), 200),
  );
  app.openapi(routes.updateDeviceSettingsRoute, async (c) =>
    c.json(await service.updateDeviceSettings(serviceContext(c), c.req.valid('json')), 200),
  );
  app.openapi(routes.setDefaultContentsRoute, async (c) =>
    c.json(await service.setDefaultContents(serviceContext(c), c.req.valid('query')), 200),
  );
  app.openapi(routes.promoteAsSubresellerRoute, async (c) =>
    c.json(await service.promoteAsSubreseller(serviceContext(c), { id: c.req.valid('param').id }), 200),
  );
  app.openapi(routes.removeSubresellerPrivilegeRoute, async (c) =>
    c.json(await service.removeSubresellerPrivilege(serviceContext(c), { id: c.req.valid('param').id }), 200),
  );
  app.openapi(routes.moveToSubresellerRoute, async (c) => {
    const input = { id: c.req.valid('param').id, subresellerId: c.req.valid('query').subresellerId };

    return c.json(await service.moveToSubreseller(serviceContext(c), input), 200);
  });
}
