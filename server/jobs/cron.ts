import { Cron } from 'croner';

/*
 * Cron expressions, read in a time zone (croner: no dependencies, defined behaviour across DST changes). The job
 * runner's schedules (UTC) and the datasources' refresh times (their own zone) both come here.
 */

/** The next time strictly after `after` (epoch ms) that `expression` fires in `timeZone`; undefined when it never does. */
export function nextCronTime(expression: string, after: number, timeZone = 'UTC'): number | undefined {
  return new Cron(expression, { timezone: timeZone }).nextRun(new Date(after))?.getTime();
}
