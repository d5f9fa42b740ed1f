'use client';

import { Link } from '@/components/ui/link';
import { useTranslations } from 'next-intl';
import { useEffect, useMemo, useState } from 'react';
import { Temporal } from 'temporal-polyfill';
import { BarChart } from '@/components/reports/bar-chart';
import { Card } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { useProofOfPlayReport } from '@/lib/api/proof-of-play';
import { useFormat } from '@/lib/i18n/use-format';
import { groupHref } from '@/lib/reports/group-links';
import { formatPlayTime, periodLabel, periodStarts, playsPerPeriod, type ReportRequest } from '@/lib/reports/report-params';

const HOUR = 3_600_000;

/** The 24 whole hours of `timeZone` up to the current one (included), moved on at each new hour. */
function useLastDay(timeZone: string): { from: number; to: number } {
  const hourStart = () => Temporal.Now.zonedDateTimeISO(timeZone).round({ smallestUnit: 'hour', roundingMode: 'floor' }).epochMilliseconds;
  const [start, setStart] = useState(hourStart);
  useEffect(() => {
    const timer = setInterval(() => setStart(hourStart()), 60_000);

    return () => clearInterval(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- hourStart only reads timeZone
  }, [timeZone]);

  return useMemo(() => ({ from: start - 23 * HOUR, to: start + HOUR }), [start]);
}

/**
 * What the screen played over the last 24 hours (its proof of play): plays per hour in the screen's time
 * zone, and what showed most (the file, else the content).
 */
export function ScreenPlays({ deviceId, timeZone }: { deviceId: string; timeZone: string }) {
  const t = useTranslations('devices.plays');
  const format = useFormat();
  const day = useLastDay(timeZone);
  const hourly = useMemo<ReportRequest>(
    () => ({ subject: { type: 'device', id: deviceId }, ...day, timeZone, resolution: 'HOURLY' }),
    [deviceId, day, timeZone],
  );
  const items = useMemo<ReportRequest>(
    () => ({
      subject: { type: 'device', id: deviceId },
      ...day,
      timeZone,
      resolution: 'TOTAL',
      groupBy: 'ASSET',
      sort: 'impressionStartCount,desc',
      limit: 8,
    }),
    [deviceId, day, timeZone],
  );
  const perHour = useProofOfPlayReport(hourly, { refetchInterval: 60_000 });
  const byContent = useProofOfPlayReport(items, { refetchInterval: 60_000 });
  const hours = useMemo(
    () => playsPerPeriod(perHour.data?.rows ?? [], periodStarts(hourly, timeZone, 'HOURLY')),
    [perHour.data, hourly, timeZone],
  );
  const total = hours.reduce((sum, h) => sum + h.plays, 0);
  const playTime = (perHour.data?.rows ?? []).reduce((sum, r) => sum + r.duration, 0);
  const top = byContent.data?.rows ?? [];

  return (
    <Card className="p-5">
      <div className="mb-3 flex flex-wrap items-start justify-between gap-2">
        <div>
          <h2 className="text-sm font-semibold text-zinc-900">{t('heading')}</h2>
          <p className="text-xs text-zinc-500">{t('zone', { timeZone })}</p>
        </div>
        <Link
          href={`/proof-of-play?screen=${encodeURIComponent(deviceId)}&groupBy=ASSET`}
          className="text-sm font-medium text-brand-700 hover:text-brand-800"
        >
          {t('report')}
        </Link>
      </div>
      {perHour.isPending ? <Spinner className="m-4 size-5" label={t('loading')} /> : null}
      {perHour.isError ? <p className="text-sm text-red-700">{t('loadError')}</p> : null}
      {perHour.isSuccess ? (
        <>
          <p className="text-sm text-zinc-700">
            {t.rich('total', {
              formatted: format.number(total),
              count: total,
              time: formatPlayTime(playTime),
              total: (chunks) => (
                <span className="text-lg font-semibold text-zinc-900 tabular-nums" data-testid="screen-plays-total">
                  {chunks}
                </span>
              ),
            })}
          </p>
          <BarChart
            className="mt-2"
            height={120}
            label={t('chart', { timeZone })}
            bars={hours.map((h) => ({
              key: h.at,
              label: periodLabel(h.at, timeZone, 'HOURLY', { hourOnly: true, locale: format.locale }),
              value: h.plays,
              title: t('bar', { period: periodLabel(h.at, timeZone, 'HOURLY', { locale: format.locale }), count: h.plays }),
            }))}
          />
          {top.length > 0 ? (
            <ol className="mt-3 divide-y divide-zinc-100 text-sm" aria-label={t('most')}>
              {top.map((row) => {
                const href = groupHref(row.groupBy);
                const name = row.groupBy.name || `#${row.groupBy.id}`;

                return (
                  <li key={String(row.groupBy.id)} className="flex items-center justify-between gap-3 py-1.5">
                    {href ? (
                      <Link href={href} className="min-w-0 truncate text-zinc-900 hover:underline">
                        {name}
                      </Link>
                    ) : (
                      <span className="min-w-0 truncate text-zinc-900">{name}</span>
                    )}
                    <span className="shrink-0 text-zinc-600 tabular-nums">
                      {t('row', { count: format.number(row.impressionStartCount), time: formatPlayTime(row.duration) })}
                    </span>
                  </li>
                );
              })}
            </ol>
          ) : total === 0 ? (
            <p className="mt-2 text-sm text-zinc-500">{t('none')}</p>
          ) : null}
        </>
      ) : null}
    </Card>
  );
}
