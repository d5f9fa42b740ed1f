import { contentGroups } from '@/server/modules/folders/folders.table';
import { defineModule, plug } from '@/server/modules/module';
import { teamResources } from '@/server/modules/teams';
import { registerContentGroupRoutes } from './content-groups.handlers';
import { folderSweep } from '@/server/modules/folders';

/** Content folders (spec 2 "Content folder"); the table lives with the other folder trees (folders module). */
export const contentGroupsModule = defineModule({
  name: 'content-groups',
  routes: registerContentGroupRoutes,
  plugs: [
    plug(teamResources, {
      type: 'contentGroup',
      table: contentGroups,
      idColumn: contentGroups.id,
      customerIdColumn: contentGroups.customerId,
    }),
  ],
  sweep: { contentGroup: folderSweep(contentGroups, 'content folder') },
});
