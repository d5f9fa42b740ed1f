'use client';

import { Link } from '@/components/ui/link';
import { useTranslations } from 'next-intl';
import { relativeTime } from '@/components/datasources/datasource-status';
import { Card } from '@/components/ui/card';
import { CheckIcon, ChevronRightIcon, WarningIcon } from '@/components/ui/icons';
import { newestAlerts, useDatasourceAlerts, useDeviceAlerts, type AlertListParams, type AnyAlert } from '@/lib/api/alerts';
import { useFormat } from '@/lib/i18n/use-format';
import { useNow } from '@/lib/hooks/use-now';

/** How many alerts the card lists: the newest few; the alerts page has the rest. */
const SHOWN = 5;
const OPEN: AlertListParams = { page: 0, size: SHOWN, sort: 'createdAtDate,desc', text: '', state: 'OPEN', ruleId: '' };
// Alerts open and close on the server's evaluation: the card reads them again while the overview is open.
const REFRESH = { refetchInterval: () => 30_000 } as const;

function AlertItem({ item, now }: { item: AnyAlert; now: number }) {
  const t = useTranslations('overview.alerts');
  const format = useFormat();
  const { alert } = item;
  const at = alert.createdAtDate ? Date.parse(alert.createdAtDate) : null;
  const [href, name, detail] =
    item.kind === 'device'
      ? [item.alert.deviceId ? `/screens/${item.alert.deviceId}` : null, item.alert.deviceName, item.alert.folderPath]
      : [
          item.alert.datasourceId ? `/datasources/${item.alert.datasourceId}` : null,
          item.alert.datasourceName,
          item.alert.datasourceErrorCounter === undefined ? undefined : t('failures', { count: item.alert.datasourceErrorCounter }),
        ];
  const subject = name || t(`unnamed.${item.kind}`);

  return (
    <li className="flex items-start gap-3 py-2 text-sm first:pt-0 last:pb-0">
      <span className="mt-1.5 size-2 shrink-0 rounded-full bg-red-500" aria-hidden />
      <div className="min-w-0 flex-1">
        <p className="truncate">
          <span className="sr-only">{t(`kind.${item.kind}`)}: </span>
          {href ? (
            <Link href={href} className="font-medium text-zinc-900 hover:text-brand-700 hover:underline" translate="no">
              {subject}
            </Link>
          ) : (
            <span className="font-medium text-zinc-900" translate="no">
              {subject}
            </span>
          )}
          <span className="text-zinc-500"> · {t(`kind.${item.kind}`)}</span>
        </p>
        <p className="truncate text-xs text-zinc-500" translate="no" title={detail}>
          {alert.alertRuleName ?? ''}
          {detail ? ` · ${detail}` : ''}
        </p>
      </div>
      {at !== null ? (
        <time dateTime={alert.createdAtDate} title={format.dateTime(at)} className="shrink-0 text-xs whitespace-nowrap text-zinc-600">
          {t('opened', { time: relativeTime(Math.min(at, now), now, format.locale) })}
        </time>
      ) : null}
    </li>
  );
}

/**
 * The tenant's open alerts of screens and datasources (VIEWER and up): how many, the newest few with the rule and
 * since when, each linking to its screen or datasource, and a way to the alerts page. Says so when none is open.
 */
export function OpenAlertsCard() {
  const t = useTranslations('overview.alerts');
  const format = useFormat();
  const now = useNow();
  const devices = useDeviceAlerts(OPEN, REFRESH);
  const datasources = useDatasourceAlerts(OPEN, REFRESH);
  const isPending = devices.isPending || datasources.isPending;
  const isError = devices.isError || datasources.isError;
  const count = (devices.data?.totalElements ?? 0) + (datasources.data?.totalElements ?? 0);
  const items = newestAlerts(devices.data?.content ?? [], datasources.data?.content ?? [], SHOWN);

  return (
    <Card className="flex flex-col p-5">
      <div className="flex items-center justify-between gap-2">
        <h2 className="flex items-center gap-2 text-sm font-medium text-zinc-500">
          <WarningIcon className="size-4" />
          {t('title')}
          {!isPending && !isError && count > 0 ? (
            <span
              className="rounded-full bg-red-600 px-2 py-0.5 text-xs font-semibold text-white tabular-nums"
              data-testid="overview-alerts-count"
            >
              {format.number(count)}
            </span>
          ) : null}
        </h2>
        <Link href="/alerts?state=OPEN" className="inline-flex items-center gap-1 text-sm font-medium text-brand-700 hover:text-brand-800">
          {t('link')}
          <ChevronRightIcon className="size-4" />
        </Link>
      </div>
      <div data-testid="overview-alerts">
        {isPending ? (
          <p className="mt-3 text-sm text-zinc-400">{t('loading')}</p>
        ) : isError ? (
          <p className="mt-3 text-sm text-red-700">{t('loadError')}</p>
        ) : count === 0 ? (
          <p className="mt-3 flex items-center gap-2 text-sm text-emerald-800" data-testid="overview-alerts-none">
            <CheckIcon className="size-4 shrink-0 text-emerald-600" />
            {t('none')}
          </p>
        ) : (
          <div className="mt-2">
            <p className="text-sm text-zinc-600">{t('count', { count })}</p>
            <ul className="mt-2 divide-y divide-zinc-100" aria-label={t('list')}>
              {items.map((item) => (
                <AlertItem key={`${item.kind}-${item.alert.id}`} item={item} now={now} />
              ))}
            </ul>
            {count > items.length ? <p className="mt-2 text-xs text-zinc-500">{t('more', { count: count - items.length })}</p> : null}
          </div>
        )}
      </div>
    </Card>
  );
}
