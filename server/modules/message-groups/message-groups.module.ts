import { defineModule, plug } from '@/server/modules/module';
import { teamResources } from '@/server/modules/teams';
import { registerMessageGroupRoutes } from './message-groups.handlers';
import { insertMessageGroup } from './message-groups.queries';
import { messageGroups } from './message-groups.table';

export const messageGroupsModule = defineModule({
  name: 'message-groups',
  routes: registerMessageGroupRoutes,
  tables: [messageGroups],
  plugs: [
    plug(teamResources, {
      type: 'messageGroup',
      table: messageGroups,
      idColumn: messageGroups.id,
      customerIdColumn: messageGroups.customerId,
    }),
  ],
  sweep: { messageGroup: async (db, customerId) => String((await insertMessageGroup(db, { customerId, name: 'sweep' })).id) },
});
