import { defineModule, plug } from '@/server/modules/module';
import { teamResources } from '@/server/modules/teams';
import { createOutboundClient } from '@/server/outbound';
import { createDeliveryWorker } from './delivery-worker';
import type { RouteRegistrar } from '@/server/http/route';
import { registerNotificationChannelRoutes } from './notification-channels.handlers';
import { insertNotificationChannel } from './notification-channels.queries';
import { notificationChannels } from './notification-channels.table';
import { notificationDeliveries, notificationDeliveryAttempts, userNotifications } from './notification-deliveries.table';
import { insertSweepUserNotification } from './notification-deliveries.queries';
import { registerUserNotificationRoutes } from './user-notifications.handlers';

export const notificationChannelsModule = defineModule({
  name: 'notification-channels',
  routes: (app: RouteRegistrar) => {
    registerNotificationChannelRoutes(app);
    registerUserNotificationRoutes(app);
  },
  tables: [notificationChannels, notificationDeliveries, notificationDeliveryAttempts, userNotifications],
  plugs: [
    plug(teamResources, {
      type: 'notificationChannel',
      table: notificationChannels,
      idColumn: notificationChannels.id,
      customerIdColumn: notificationChannels.customerId,
    }),
  ],
  jobs: ({ db, config, log, stopping }) => {
    const worker = createDeliveryWorker({
      db,
      config,
      log,
      outbound: createOutboundClient({ allowPrivateNetwork: config.allowPrivateNetworkFetch }),
    });
    stopping?.addEventListener('abort', () => worker.stop(), { once: true });

    // Queued notifications wake this instance's worker after commit; the tick (one instance per time) takes what no
    // wake reached: deliveries queued by an instance without jobs, retries falling due, and leases of dead workers.
    return [{ name: 'notification-channels.deliver-due', cron: '*/5 * * * * *', run: async () => void (await worker.drain()) }];
  },
  sweep: {
    notificationChannel: async (db, customerId) =>
      String(
        (
          await insertNotificationChannel(db, {
            customerId,
            name: `sweep ${crypto.randomUUID()}`,
            channelType: 'EMAIL',
            notify: ['sweep@example.com'],
          })
        ).id,
      ),
    userNotification: insertSweepUserNotification,
  },
});
