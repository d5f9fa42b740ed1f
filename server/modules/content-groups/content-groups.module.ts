import { v7 as uuidv7 } from 'uuid';
import { contentGroups } from '@/server/modules/folders/folders.table';
import { defineModule, plug } from '@/server/modules/module';
import { teamResources } from '@/server/modules/teams';
import { registerContentGroupRoutes } from './content-groups.handlers';
import { findRootContentGroup } from '@/server/modules/folders';
import { insertContentGroup } from './content-groups.queries';

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
  sweep: {
    contentGroup: async (db, customerId) => {
      const root = await findRootContentGroup(db, customerId);
      if (!root) throw new Error(`customer ${customerId} has no root content folder`);
      const id = uuidv7();

      return (await insertContentGroup(db, { id, customerId, parentId: root.id, name: `sweep ${id}`, path: [...root.path, id] })).id;
    },
  },
});
