import { defineModule } from '@/server/modules/module';
import { contentGroups, deviceGroups, fileFolders } from './folders.table';

/**
 * The three folder trees (file, content, device) and what they share (folder-tree.ts); their routes and
 * plugs live with the modules that manage them (file-folders, content-groups, device-groups).
 */
export const foldersModule = defineModule({
  name: 'folders',
  tables: [deviceGroups, fileFolders, contentGroups],
});
