import { v7 as uuidv7 } from 'uuid';
import { findRootContentGroup } from '@/server/modules/folders';
import { fileReferences } from '@/server/modules/files';
import { defineModule, plug } from '@/server/modules/module';
import { criteriaCompilers } from '@/server/modules/quick-filters';
import { tagSources } from '@/server/modules/tags';
import { teamResources } from '@/server/modules/teams';
import { contentCriteriaCompiler } from './content-criteria';
import { contentFileReferences } from './content-references';
import { starterTemplates } from './content-templates';
import { syncTemplates } from './content-templates.queries';
import { registerContentRoutes } from './content.handlers';
import { insertDeviceContent } from './content.queries';
import { contentReferences, contentTemplates, deviceContents } from './content.table';

/**
 * Device content: slides, interactive content and playlists (spec 2 "Content"), their documents and what
 * those reference (files through the file reference registry), CONTENT quick filters and the starter
 * templates. Content folders (content-groups) count, move and delete it.
 */
export const contentModule = defineModule({
  name: 'content',
  routes: registerContentRoutes,
  tables: [deviceContents, contentReferences, contentTemplates],
  prepare: (db) => syncTemplates(db, starterTemplates),
  plugs: [
    plug(fileReferences, contentFileReferences),
    plug(criteriaCompilers, contentCriteriaCompiler),
    plug(teamResources, {
      type: 'deviceContent',
      table: deviceContents,
      idColumn: deviceContents.id,
      customerIdColumn: deviceContents.customerId,
    }),
    plug(tagSources, {
      name: 'deviceContent',
      tagType: 'CONTENT',
      table: deviceContents,
      tagsColumn: deviceContents.tags,
      customerIdColumn: deviceContents.customerId,
    }),
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
          data: { loopData: { resolution: { width: 1920, height: 1080 } }, slides: [] },
        })
      ).id;
    },
  },
});
