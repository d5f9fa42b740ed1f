import type { Config } from '@/server/config';
import type { Database } from '@/server/db/client';
import { removeExpiredTokens } from '@/server/modules/oauth/oauth.service';
import { uploadJobs } from '@/server/modules/uploads/uploads.jobs';
import { cleanupOutdatedFiles, CLEANUP_OUTDATED_JOB } from '@/server/modules/file-folders/file-folders.jobs';
import { mailJobs } from '@/server/modules/mail/mail.jobs';
import type { Logger } from 'pino';
import type { JobDefinition } from './queue';

/** Every background job of the service. */
export function serviceJobs(db: Database, config: Config, log: Logger): JobDefinition[] {
  return [
    {
      name: 'auth.remove-expired-tokens',
      cron: '*/15 * * * *',
      run: async () => {
        const removed = await removeExpiredTokens(db, config);
        if (removed > 0) log.info({ removed }, 'expired token families removed');
      },
    },
    ...uploadJobs(db, config, log),
    { name: CLEANUP_OUTDATED_JOB, cron: '7 * * * *', run: async () => void (await cleanupOutdatedFiles(db, log)) },
    ...mailJobs(db, config, log),
  ];
}
