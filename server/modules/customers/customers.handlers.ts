import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '@/server/http/context';
import { sortValues } from '@/server/http/list-query';
import { serviceContext } from '@/server/http/service-context';
import { createCustomerRoute, selectCustomersRoute } from './customers.routes';
import { createCustomer, selectAccessibleCustomers } from './customers.service';

export function registerCustomerRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(selectCustomersRoute, async (c) => {
    const { sort, ...query } = c.req.valid('query');

    return c.json(await selectAccessibleCustomers(serviceContext(c), { ...query, sort: sortValues(sort) }) as never, 200);
  });

  app.openapi(createCustomerRoute, async (c) => c.json(await createCustomer(serviceContext(c), c.req.valid('json')) as never, 201));
}
