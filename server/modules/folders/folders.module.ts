import { defineModule, plug } from '@/server/modules/module';
import { tagSources } from '@/server/modules/tags/tag-sources';
import { teamResources } from '@/server/modules/teams/team-registry';
import { contentGroups, deviceGroups, fileFolders } from './folders.table';

/** The three folder trees (file, content, device); their routes and plugs live with the modules that manage them. */
export const foldersModule = defineModule({
  name: 'folders',
  tables: [deviceGroups, fileFolders, contentGroups],
  plugs: [
    plug(teamResources, { type: 'deviceGroup', table: deviceGroups, idColumn: deviceGroups.id, customerIdColumn: deviceGroups.customerId }),
    // Device folders carry device tags (spec 3: PUT /api/deviceGroup/{id} body {tags}); devices join when their module exists.
    plug(tagSources, { name: 'deviceGroup', tagType: 'DEVICE', table: deviceGroups, tagsColumn: deviceGroups.tags, customerIdColumn: deviceGroups.customerId }),
  ],
});
