import { defineModule, plug } from '@/server/modules/module';
import { teamResources } from '@/server/modules/teams';
import { registerNotificationChannelRoutes } from './notification-channels.handlers';
import { insertNotificationChannel } from './notification-channels.queries';
import { notificationChannels } from './notification-channels.table';

export const notificationChannelsModule = defineModule({
  name: 'notification-channels',
  routes: registerNotificationChannelRoutes,
  tables: [notificationChannels],
  plugs: [
    plug(teamResources, {
      type: 'notificationChannel',
      table: notificationChannels,
      idColumn: notificationChannels.id,
      customerIdColumn: notificationChannels.customerId,
    }),
  ],
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
  },
});
