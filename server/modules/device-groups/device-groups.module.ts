import { deviceGroups } from '@/server/modules/folders/folders.table';
import { defineModule, plug } from '@/server/modules/module';
import { tagSources } from '@/server/modules/tags';
import { teamResources } from '@/server/modules/teams';
import { deviceFolderSearches } from '@/server/modules/devices';
import { registerDeviceGroupRoutes } from './device-groups.handlers';
import { deviceGroupResource } from './device-groups.resource';
import { folderSweep } from '@/server/modules/folders';

/**
 * Device folders (spec 3 "Device folder"); the table lives with the other folder trees (folders module).
 * Alerts and channels plug into device-group-plugs.ts (`alertCount`, the usage fields).
 */
export const deviceGroupsModule = defineModule({
  name: 'device-groups',
  routes: registerDeviceGroupRoutes,
  plugs: [
    plug(teamResources, { type: 'deviceGroup', table: deviceGroups, idColumn: deviceGroups.id, customerIdColumn: deviceGroups.customerId }),
    // PUT /api/deviceGroup/{id} body {tags}: a device folder's tags are DEVICE tags (spec 3).
    plug(tagSources, {
      name: 'deviceGroup',
      tagType: 'DEVICE',
      table: deviceGroups,
      tagsColumn: deviceGroups.tags,
      customerIdColumn: deviceGroups.customerId,
    }),
    // A DEVICEGROUP batch over devices searches the device folders.
    plug(deviceFolderSearches, { resource: deviceGroupResource }),
  ],
  sweep: { deviceGroup: folderSweep(deviceGroups, 'device folder') },
});
