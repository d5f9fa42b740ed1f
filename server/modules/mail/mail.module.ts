import { defineModule } from '@/server/modules/module';
import { mailJobs } from './mail.jobs';
import { mailMessages } from './mail.table';

export const mailModule = defineModule({ name: 'mail', tables: [mailMessages], jobs: ({ db, config, log }) => mailJobs(db, config, log) });
