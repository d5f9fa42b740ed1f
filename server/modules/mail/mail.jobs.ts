import type { Logger } from 'pino';
import type { Config } from '@/server/config';
import type { Database } from '@/server/db/client';
import type { JobDefinition } from '@/server/jobs/queue';
import { deliverDueMail, installMailNudge } from './mail.service';

const MAIL_DELIVER_JOB = 'mail.deliver';

/** `mail.deliver` every minute, plus an in-process nudge right after a message is enqueued. */
export function mailJobs(db: Database, config: Config, log: Logger): JobDefinition[] {
  installMailNudge({ db, config, log });

  return [{ name: MAIL_DELIVER_JOB, cron: '* * * * *', run: async () => void (await deliverDueMail({ db, config, log })) }];
}
