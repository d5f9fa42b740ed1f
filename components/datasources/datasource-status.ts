import type { Datasource } from '@/lib/api/datasources';
import type { Page } from '@/lib/api/types';

/*
 * What the datasources list says about each row, without React: its refresh status, how far away a time is, and
 * whether the page should look again (a new external datasource waits for its first refresh, seconds away).
 */

/** How a datasource's data is doing. Internal and system datasources are not refreshed (`notRefreshed`). */
export type DatasourceStatus =
  | { kind: 'ok' }
  | { kind: 'pending' }
  | { kind: 'failing'; error: string | null; count: number }
  | { kind: 'deactivated'; error: string | null; count: number }
  | { kind: 'notRefreshed'; sourceType: 'INTERNAL' | 'SYSTEM' };

export function statusOf(
  d: Pick<Datasource, 'sourceType' | 'deactivated' | 'errorCounter' | 'lastError' | 'lastRefreshTime'>,
): DatasourceStatus {
  if (d.sourceType === 'INTERNAL' || d.sourceType === 'SYSTEM') return { kind: 'notRefreshed', sourceType: d.sourceType };
  const error = d.lastError ?? null;
  const count = d.errorCounter ?? 0;
  if (d.deactivated) return { kind: 'deactivated', error, count };
  if (count > 0 || error) return { kind: 'failing', error, count };
  if (d.lastRefreshTime === null || d.lastRefreshTime === undefined) return { kind: 'pending' };

  return { kind: 'ok' };
}

/** Whether a page holds an external datasource still waiting for its first refresh (the scheduler takes it within seconds). */
export function isAwaitingRefresh(page: Page<Datasource> | undefined): boolean {
  return (page?.content ?? []).some((d) => statusOf(d).kind === 'pending');
}

const UNITS: ReadonlyArray<[Intl.RelativeTimeFormatUnit, number]> = [
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
  ['second', 1_000],
];

/** `time` from `now` in words of `locale` ("3 minutes ago", "in 2 hours", "now"), in its largest whole unit. */
export function relativeTime(time: number, now: number, locale: string): string {
  const format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  const delta = time - now;
  for (const [unit, ms] of UNITS) {
    if (Math.abs(delta) >= ms || unit === 'second') {
      // Under ten seconds either way reads as "now": the list is read again every few seconds at most.
      if (unit === 'second' && Math.abs(delta) < 10_000) return format.format(0, 'second');

      return format.format(Math.trunc(delta / ms), unit);
    }
  }

  return format.format(0, 'second');
}
