import { listQuery } from '@/server/http/list-query';
import type { RouteRegistrar } from '@/server/http/route';
import { serviceContext } from '@/server/http/service-context';
import * as routes from './messages.routes';
import * as service from './messages.service';

export function registerMessageRoutes(app: RouteRegistrar): void {
  app.openapi(routes.listMessagesRoute, async (c) => c.json(await service.listMessages(serviceContext(c), listQuery(c)), 200));

  app.openapi(routes.getMessageRoute, async (c) =>
    c.json(await service.getMessage(serviceContext(c), c.req.valid('param').id, c.req.valid('query').select), 200),
  );

  app.openapi(routes.createMessageRoute, async (c) => c.json(await service.createMessage(serviceContext(c), c.req.valid('json')), 201));

  app.openapi(routes.updateMessageRoute, async (c) =>
    c.json(await service.updateMessage(serviceContext(c), c.req.valid('param').id, c.req.valid('json')), 200),
  );

  app.openapi(routes.deleteMessageRoute, async (c) => {
    await service.deleteMessage(serviceContext(c), c.req.valid('param').id);

    return c.body(null, 204);
  });
}
