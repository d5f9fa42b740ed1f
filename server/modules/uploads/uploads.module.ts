import { v4 as uuidv4, v7 as uuidv7 } from 'uuid';
import { defineModule } from '@/server/modules/module';
import { uploadJobs } from './uploads.jobs';
import { registerUploadRoutes } from './uploads.handlers';
import { insertSession } from './uploads.queries';
import { uploadParts, uploadSessions } from './uploads.table';

export const uploadsModule = defineModule({
  name: 'uploads',
  routes: registerUploadRoutes,
  tables: [uploadSessions, uploadParts],
  jobs: ({ db, config, log }) => uploadJobs(db, config, log),
  sweep: {
    uploadSession: async (db, customerId) => {
      const id = uuidv7();
      const session = await insertSession(db, {
        id,
        customerId,
        name: 'sweep.mp4',
        size: 10,
        totalChunks: 1,
        maxChunkSize: 10,
        storageKey: `customer/${customerId}/files/${id}`,
        storageUploadId: uuidv4(),
        expiresAt: new Date(Date.now() + 60_000),
      });

      return session.id;
    },
  },
});
