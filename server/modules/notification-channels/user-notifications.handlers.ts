import type { RouteRegistrar } from '@/server/http/route';
import { serviceContext } from '@/server/http/service-context';
import * as routes from './user-notifications.routes';
import * as service from './user-notifications.service';

export function registerUserNotificationRoutes(app: RouteRegistrar) {
  app.openapi(routes.listMyNotificationsRoute, async (c) =>
    c.json(await service.listMyNotifications(serviceContext(c), c.req.valid('query')), 200),
  );

  app.openapi(routes.countMyUnreadNotificationsRoute, async (c) => c.json(await service.countMyUnread(serviceContext(c)), 200));

  app.openapi(routes.markMyNotificationReadRoute, async (c) => {
    await service.markMyNotificationRead(serviceContext(c), { id: c.req.valid('param').notificationId });

    return c.body(null, 204);
  });

  app.openapi(routes.markAllMyNotificationsReadRoute, async (c) =>
    c.json(await service.markAllMyNotificationsRead(serviceContext(c)), 200),
  );
}
