import { randomBytes } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import { findRootFileFolder } from '@/server/modules/folders';
import { defineModule, plug } from '@/server/modules/module';
import { criteriaCompilers } from '@/server/modules/quick-filters';
import { tagSources } from '@/server/modules/tags';
import { teamResources } from '@/server/modules/teams';
import { fileCriteriaCompiler } from './file-criteria';
import { insertFileRow } from './files.queries';
import { registerFileRoutes } from './files.handlers';
import { files } from './files.table';

export const filesModule = defineModule({
  name: 'files',
  routes: registerFileRoutes,
  tables: [files],
  plugs: [
    plug(teamResources, { type: 'file', table: files, idColumn: files.id, customerIdColumn: files.customerId }),
    plug(tagSources, { name: 'file', tagType: 'FILE', table: files, tagsColumn: files.tags, customerIdColumn: files.customerId }),
    plug(criteriaCompilers, fileCriteriaCompiler),
  ],
  sweep: {
    file: async (db, customerId) => {
      const root = await findRootFileFolder(db, customerId);
      if (!root) throw new Error(`customer ${customerId} has no root file folder`);
      const id = uuidv7();
      await insertFileRow(db, {
        id,
        customerId,
        fileFolderId: root.id,
        folderPath: root.path,
        name: 'sweep.png',
        contentType: 'image/png',
        size: 1000,
        crcCheckSum: randomBytes(4).toString('hex'),
        creatorEmail: 'sweep@example.com',
        creatorName: 'Sweep',
      });

      return id;
    },
  },
});
