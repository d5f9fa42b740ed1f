import { v7 as uuidv7 } from 'uuid';
import { findRootContentGroup } from '@/server/modules/content-groups/content-groups.queries';
import { defineModule, plug } from '@/server/modules/module';
import { tagSources } from '@/server/modules/tags/tag-sources';
import { teamResources } from '@/server/modules/teams/team-registry';
import { insertDeviceContent } from './content.queries';
import { deviceContents } from './content.table';

/**
 * Device content: slides, interactive content and playlists (spec 2 "Content"). The table, its team and
 * tag plugs and its sweep factory are here; content folders (content-groups) count, move and delete it.
 */
export const contentModule = defineModule({
  name: 'content',
  tables: [deviceContents],
  plugs: [
    plug(teamResources, { type: 'deviceContent', table: deviceContents, idColumn: deviceContents.id, customerIdColumn: deviceContents.customerId }),
    plug(tagSources, { name: 'deviceContent', tagType: 'CONTENT', table: deviceContents, tagsColumn: deviceContents.tags, customerIdColumn: deviceContents.customerId }),
  ],
  sweep: {
    deviceContent: async (db, customerId) => {
      const root = await findRootContentGroup(db, customerId);
      if (!root) throw new Error(`customer ${customerId} has no root content folder`);

      return (
        await insertDeviceContent(db, {
          id: uuidv7(),
          customerId,
          deviceContentType: 'simpleLoop',
          simpleLoopType: 'NORMAL',
          version: '2.0',
          contentGroupId: root.id,
          groupPath: root.path,
          name: 'sweep',
          data: { loopData: {}, slides: [] },
        })
      ).id;
    },
  },
});
