import { sql } from 'drizzle-orm';
import { fileFolders } from '@/server/modules/folders/folders.table';
import { defineModule, plug } from '@/server/modules/module';
import { quickFilterUsages } from '@/server/modules/quick-filters';
import { teamResources } from '@/server/modules/teams';
import { folderViews } from '@/server/modules/files';
import { registerFileFolderRoutes } from './file-folders.handlers';
import { CLEANUP_OUTDATED_JOB, cleanupOutdatedFiles } from './file-folders.jobs';
import { folderSweep } from '@/server/modules/folders';
import { folderViewFolders } from './file-folders.service';

export const fileFoldersModule = defineModule({
  name: 'file-folders',
  routes: registerFileFolderRoutes,
  jobs: ({ db, log }) => [{ name: CLEANUP_OUTDATED_JOB, cron: '7 * * * *', run: async () => void (await cleanupOutdatedFiles(db, log)) }],
  plugs: [
    plug(teamResources, { type: 'fileFolder', table: fileFolders, idColumn: fileFolders.id, customerIdColumn: fileFolders.customerId }),
    plug(quickFilterUsages, {
      name: 'fileFolder',
      // A filtered folder shows the filter's files; deleting the filter would leave it pointing at nothing.
      count: (id) => sql`select count(*) from ${fileFolders} where ${fileFolders.quickFilterId} = ${id}`,
      blocksDelete: true,
      makesReadOnly: false,
    }),
    // The folders of the files' summary view.
    plug(folderViews, { folders: folderViewFolders }),
  ],
  sweep: { fileFolder: folderSweep(fileFolders, 'file folder') },
});
