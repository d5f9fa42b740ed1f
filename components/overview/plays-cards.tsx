'use client';

import { Link } from '@/components/ui/link';
import { useTranslations } from 'next-intl';
import { useMemo, useState } from 'react';
import { BarChart } from '@/components/reports/bar-chart';
import { Card } from '@/components/ui/card';
import { ChartIcon, ChevronRightIcon, DocumentIcon, PlayIcon, PlaylistIcon, WarningIcon } from '@/components/ui/icons';
import { deviceResource, deviceTenant } from '@/lib/api/devices';
import { useProofOfPlayReport, useTopPlayed } from '@/lib/api/proof-of-play';
import { groupHref } from '@/lib/reports/group-links';
import {
  addDays,
  browserTimeZone,
  dayWindow,
  formatPlayTime,
  periodLabel,
  periodStarts,
  playsPerPeriod,
  dateIn,
  type ReportRequest,
  type TopPlayedKind,
} from '@/lib/reports/report-params';
import { useFormat } from '@/lib/i18n/use-format';
import { useTenant } from '@/lib/tenant/tenant-context';

/** The last 7 local days (today included) in the browser's zone, fixed when the overview opens. */
function useLastWeek(): Omit<ReportRequest, 'subject'> & { today: string } {
  const [week] = useState(() => {
    const timeZone = browserTimeZone();
    const today = dateIn(timeZone, Date.now());

    return { ...dayWindow(addDays(today, -6), today, timeZone), timeZone, today };
  });

  return useMemo(() => ({ from: week.from, to: week.to, timeZone: week.timeZone, resolution: 'DAILY', today: week.today }), [week]);
}

function Header({ icon: Icon, title, href, linkLabel }: { icon: typeof PlayIcon; title: string; href: string; linkLabel: string }) {
  return (
    <div className="flex items-center justify-between gap-2">
      <h2 className="flex items-center gap-2 text-sm font-medium text-zinc-500">
        <Icon className="size-4" />
        {title}
      </h2>
      <Link href={href} className="inline-flex items-center gap-1 text-sm font-medium text-brand-700 hover:text-brand-800">
        {linkLabel}
        <ChevronRightIcon className="size-4" />
      </Link>
    </div>
  );
}

/**
 * Plays today and per day of the last 7 days (in the browser's zone): the screens' plays counted per
 * folder (every screen is in one) and added up per day.
 */
export function PlaysCard() {
  const week = useLastWeek();
  const request = useMemo<ReportRequest>(
    () => ({
      subject: { type: 'device' },
      from: week.from,
      to: week.to,
      timeZone: week.timeZone,
      resolution: 'DAILY',
      groupBy: 'DEVICE_GROUP',
    }),
    [week],
  );
  const report = useProofOfPlayReport(request);
  const days = useMemo(
    () => playsPerPeriod(report.data?.rows ?? [], periodStarts(request, request.timeZone, 'DAILY')),
    [report.data, request],
  );
  const today = days.at(-1)?.plays ?? 0;
  const total = days.reduce((sum, d) => sum + d.plays, 0);
  const playTime = (report.data?.rows ?? []).reduce((sum, r) => sum + r.duration, 0);
  const t = useTranslations('overview.plays');
  const format = useFormat();

  return (
    <Card className="flex flex-col p-5 lg:col-span-2">
      <Header icon={ChartIcon} title={t('title')} href="/proof-of-play" linkLabel={t('link')} />
      {report.isError ? (
        <p className="mt-2 text-sm text-red-700">{t('loadError')}</p>
      ) : (
        <>
          <dl className="mt-2 flex flex-wrap gap-x-8 gap-y-2">
            <div>
              <dt className="text-xs text-zinc-500">{t('today')}</dt>
              <dd className="text-lg font-semibold text-zinc-900 tabular-nums" data-testid="overview-plays-today">
                {report.isPending ? '…' : format.number(today)}
              </dd>
            </div>
            <div>
              <dt className="text-xs text-zinc-500">{t('week')}</dt>
              <dd className="text-lg font-semibold text-zinc-900 tabular-nums" data-testid="overview-plays-week">
                {report.isPending ? '…' : format.number(total)}
              </dd>
            </div>
            <div>
              <dt className="text-xs text-zinc-500">{t('playTime')}</dt>
              <dd className="text-lg font-semibold text-zinc-900 tabular-nums">{report.isPending ? '…' : formatPlayTime(playTime)}</dd>
            </div>
          </dl>
          <BarChart
            className="mt-3"
            height={140}
            label={t('chart', { timeZone: request.timeZone })}
            bars={days.map((d) => {
              const day = dateIn(request.timeZone, d.at);

              // A day's bar opens that day's report, hour by hour.
              return {
                key: d.at,
                label: periodLabel(d.at, request.timeZone, 'DAILY', { locale: format.locale }),
                value: d.plays,
                href: `/proof-of-play?from=${day}&to=${day}&resolution=HOURLY`,
              };
            })}
          />
        </>
      )}
    </Card>
  );
}

/** Each kind's icon and report; its title and empty text are `overview.top.<kind>`. */
const TOP: Record<TopPlayedKind, { icon: typeof PlayIcon; report: string }> = {
  content: { icon: PlaylistIcon, report: '/proof-of-play?on=content&resolution=TOTAL' },
  campaign: { icon: PlayIcon, report: '/proof-of-play?on=campaign&resolution=TOTAL' },
  file: { icon: DocumentIcon, report: '/proof-of-play?on=file&resolution=TOTAL' },
};

/** The 5 most played of a kind over the last 7 days, each linking to its page. */
export function TopPlayedCard({ kind }: { kind: TopPlayedKind }) {
  const week = useLastWeek();
  const top = useTopPlayed(kind, { from: week.from, to: week.to, timeZone: week.timeZone, resolution: 'TOTAL' }, 5);
  const rows = top.data?.rows ?? [];
  const max = Math.max(1, ...rows.map((r) => r.impressionStartCount));
  const meta = TOP[kind];
  const t = useTranslations('overview');
  const format = useFormat();
  const title = t(`top.${kind}.title`);

  return (
    <Card className="flex flex-col p-5">
      <Header icon={meta.icon} title={title} href={meta.report} linkLabel={t('top.report')} />
      <p className="mt-0.5 text-xs text-zinc-500">{t('top.subtitle')}</p>
      {top.isPending ? (
        <p className="mt-3 text-sm text-zinc-400">{t('loading')}</p>
      ) : top.isError ? (
        <p className="mt-3 text-sm text-red-700">{t('couldNotReadDot')}</p>
      ) : rows.length === 0 ? (
        <p className="mt-3 text-sm text-zinc-500">{t(`top.${kind}.empty`)}</p>
      ) : (
        <ol className="mt-3 space-y-2" aria-label={title} data-testid={`overview-top-${kind}`}>
          {rows.map((row) => {
            const href = groupHref(row.groupBy);
            const name = row.groupBy.name || `#${row.groupBy.id}`;

            return (
              <li key={String(row.groupBy.id)} className="text-sm">
                <div className="flex items-baseline justify-between gap-2">
                  {href ? (
                    <Link href={href} className="truncate text-zinc-800 hover:underline">
                      {name}
                    </Link>
                  ) : (
                    <span className="truncate text-zinc-800">{name}</span>
                  )}
                  <span className="shrink-0 font-medium text-zinc-900 tabular-nums">{format.number(row.impressionStartCount)}</span>
                </div>
                <div className="mt-1 h-1 overflow-hidden rounded-full bg-zinc-100" aria-hidden="true">
                  <div className="h-full rounded-full bg-brand-500" style={{ width: `${(row.impressionStartCount / max) * 100}%` }} />
                </div>
              </li>
            );
          })}
        </ol>
      )}
    </Card>
  );
}

/** Screens that need someone: offline ones, longest first, and ones showing emergency content. */
export function AttentionCard() {
  // Across tenants (all, or a whole network): every tenant's, each naming its tenant and opening in it.
  const { acrossTenants, selectTenant } = useTenant();
  const offline = deviceResource.useList({
    page: 0,
    size: 5,
    sort: 'lastDeviceStatusChange,asc',
    text: '',
    status: 'offline',
    acrossTenants,
  });
  const screens = offline.data?.content ?? [];
  const count = offline.data?.totalElements ?? 0;
  const t = useTranslations('overview');
  const unnamed = useTranslations('devices')('unnamed');
  const format = useFormat();

  return (
    <Card className="flex flex-col p-5">
      <Header icon={WarningIcon} title={t('attention.title')} href="/screens?status=offline" linkLabel={t('attention.link')} />
      {offline.isPending ? (
        <p className="mt-3 text-sm text-zinc-400">{t('loading')}</p>
      ) : offline.isError ? (
        <p className="mt-3 text-sm text-red-700">{t('couldNotReadDot')}</p>
      ) : screens.length === 0 ? (
        <p className="mt-3 text-sm text-zinc-500" data-testid="overview-attention">
          {t('attention.none')}
        </p>
      ) : (
        <div className="mt-2 text-sm" data-testid="overview-attention">
          <p className="text-zinc-500">{t('attention.count', { count })}</p>
          <ul className="mt-1 space-y-1" aria-label={t('attention.list')}>
            {screens.map((d) => (
              <li key={d.id} className="flex justify-between gap-2">
                <span className="min-w-0 truncate">
                  <Link
                    href={`/screens/${d.id}`}
                    onClick={() => {
                      const tenant = acrossTenants ? deviceTenant(d) : null;
                      if (tenant) selectTenant(tenant);
                    }}
                    className="text-zinc-800 hover:underline"
                  >
                    {d.name || unnamed}
                  </Link>
                  {acrossTenants ? <span className="text-zinc-500"> · {deviceTenant(d)?.name}</span> : null}
                </span>
                <span className="shrink-0 text-zinc-500">
                  {d.lastDeviceStatusChange
                    ? t('attention.since', { time: format.dateTime(d.lastDeviceStatusChange) })
                    : t('attention.neverOnline')}
                </span>
              </li>
            ))}
          </ul>
        </div>
      )}
    </Card>
  );
}
