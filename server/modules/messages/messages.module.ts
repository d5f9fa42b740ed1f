import { contentUsages } from '@/server/modules/content';
import { deviceGroupUsages } from '@/server/modules/device-groups';
import { fileReferences } from '@/server/modules/files';
import { insertMessageGroup } from '@/server/modules/message-groups';
import { defineModule, plug } from '@/server/modules/module';
import { quickFilterUsages } from '@/server/modules/quick-filters';
import { messageContentUsages, messageDeviceGroupUsage, messageFileReferences, messageQuickFilterUsage } from './message-references';
import { registerMessageRoutes } from './messages.handlers';
import { insertMessage } from './messages.queries';
import { messageAssignmentTables, messages } from './messages.table';

/**
 * Messages (sub-channels), spec 2 "Message group and message": what a MESSAGE_GROUP channel plays. They reuse
 * the campaigns' assignment descriptors and writes; the playback loader reads them with their items.
 */
export const messagesModule = defineModule({
  name: 'messages',
  routes: registerMessageRoutes,
  tables: [messages, ...messageAssignmentTables],
  plugs: [
    plug(fileReferences, messageFileReferences),
    plug(contentUsages, ...messageContentUsages),
    plug(deviceGroupUsages, messageDeviceGroupUsage),
    plug(quickFilterUsages, messageQuickFilterUsage),
  ],
  sweep: {
    message: async (db, customerId) => {
      const group = await insertMessageGroup(db, { customerId, name: 'sweep' });

      return String((await insertMessage(db, { customerId, messageGroupId: group.id, name: 'sweep', type: 'ASSETS_STATIC' })).id);
    },
  },
});
