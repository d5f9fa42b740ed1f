import { listQuery, scopedQuery } from '@/server/http/list-query';
import type { RouteRegistrar } from '@/server/http/route';
import { serviceContext } from '@/server/http/service-context';
import * as routes from './notification-channels.routes';
import * as service from './notification-channels.service';
import * as deliveries from './notification-deliveries.service';

export function registerNotificationChannelRoutes(app: RouteRegistrar) {
  app.openapi(routes.listNotificationChannelsRoute, async (c) =>
    c.json(await service.listNotificationChannels(serviceContext(c), listQuery(c)), 200),
  );

  app.openapi(routes.listSimpleNotificationChannelsRoute, async (c) =>
    c.json(await service.listSimpleNotificationChannels(serviceContext(c), scopedQuery(c)), 200),
  );

  app.openapi(routes.getNotificationChannelRoute, async (c) =>
    c.json(
      await service.getNotificationChannel(serviceContext(c), { id: c.req.valid('param').channelId, select: c.req.valid('query').select }),
      200,
    ),
  );

  app.openapi(routes.createNotificationChannelRoute, async (c) => {
    const { teamIds } = c.req.valid('query');

    return c.json(await service.createNotificationChannel(serviceContext(c), { body: c.req.valid('json'), teamIds }), 201);
  });

  app.openapi(routes.updateNotificationChannelRoute, async (c) =>
    c.json(
      await service.updateNotificationChannel(serviceContext(c), { id: c.req.valid('param').channelId, body: c.req.valid('json') }),
      200,
    ),
  );

  app.openapi(routes.deleteNotificationChannelRoute, async (c) => {
    await service.deleteNotificationChannel(serviceContext(c), { id: c.req.valid('param').channelId });

    return c.body(null, 204);
  });

  app.openapi(routes.testNotificationChannelRoute, async (c) =>
    c.json(await deliveries.testNotificationChannel(serviceContext(c), { id: c.req.valid('param').channelId }), 200),
  );

  app.openapi(routes.listNotificationDeliveriesRoute, async (c) => {
    const { page, size } = c.req.valid('query');

    return c.json(await deliveries.listDeliveries(serviceContext(c), { id: c.req.valid('param').channelId, page, size }), 200);
  });

  app.openapi(routes.rotateNotificationChannelSecretRoute, async (c) =>
    c.json(await deliveries.rotateWebhookSecret(serviceContext(c), { id: c.req.valid('param').channelId }), 200),
  );
}
