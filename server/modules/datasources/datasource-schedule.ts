import { nextCronTime } from '@/server/jobs/cron';
import { DEFAULT_REFRESH_SECONDS, MIN_REFRESH_SECONDS } from './datasources.schemas';
import type { DatasourceRow } from './datasources.table';

/**
 * When an external datasource is next due after `after` (epoch ms): at the next time of its cron expression in
 * its zone, else `refreshFrequency` seconds later. A cron expression that never fires again (a date in the past)
 * leaves nothing due (null).
 */
export function nextRefreshAfter(row: Pick<DatasourceRow, 'refreshFrequency' | 'cronExpressionParameters'>, after: number): Date | null {
  const cron = row.cronExpressionParameters;
  if (cron) {
    const next = nextCronTime(cron.cronExpression, after, cron.timeZone);

    return next === undefined ? null : new Date(next);
  }
  const seconds = Math.max(MIN_REFRESH_SECONDS, row.refreshFrequency ?? DEFAULT_REFRESH_SECONDS);

  return new Date(after + seconds * 1000);
}
