import { listQuery } from '@/server/http/list-query';
import type { RouteRegistrar } from '@/server/http/route';
import { serviceContext } from '@/server/http/service-context';
import * as routes from './message-groups.routes';
import * as service from './message-groups.service';

export function registerMessageGroupRoutes(app: RouteRegistrar) {
  app.openapi(routes.listMessageGroupsRoute, async (c) => c.json(await service.listMessageGroups(serviceContext(c), listQuery(c)), 200));

  app.openapi(routes.getMessageGroupRoute, async (c) =>
    c.json(await service.getMessageGroup(serviceContext(c), { id: c.req.valid('param').id, select: c.req.valid('query').select }), 200),
  );

  app.openapi(routes.createMessageGroupRoute, async (c) => {
    const { teamIds } = c.req.valid('query');

    return c.json(await service.createMessageGroup(serviceContext(c), { body: c.req.valid('json'), teamIds }), 201);
  });

  app.openapi(routes.updateMessageGroupRoute, async (c) =>
    c.json(await service.updateMessageGroup(serviceContext(c), { id: c.req.valid('param').id, body: c.req.valid('json') }), 200),
  );

  app.openapi(routes.deleteMessageGroupRoute, async (c) => {
    await service.deleteMessageGroup(serviceContext(c), { id: c.req.valid('param').id });

    return c.body(null, 204);
  });
}
