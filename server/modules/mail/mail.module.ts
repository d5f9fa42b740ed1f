import { defineModule } from '@/server/modules/module';
import { registerMailRoutes } from './mail.handlers';
import { mailJobs } from './mail.jobs';
import { mailMessages } from './mail.table';

export const mailModule = defineModule({
  name: 'mail',
  routes: registerMailRoutes,
  tables: [mailMessages],
  jobs: ({ db, config, log }) => mailJobs(db, config, log),
});
