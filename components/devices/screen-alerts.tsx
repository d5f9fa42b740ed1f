'use client';

import { Link } from '@/components/ui/link';
import { useTranslations } from 'next-intl';
import { WarningIcon } from '@/components/ui/icons';
import { deviceOpenAlerts, deviceResource } from '@/lib/api/devices';
import { useFormat } from '@/lib/i18n/use-format';

/**
 * The screen's open alerts (rule and since when), shown only while it has some; the alerts page holds the rest of the
 * story. `alerts` is select-only, so it is its own read, live like the page's.
 */
export function ScreenAlerts({ deviceId, deviceName }: { deviceId: string; deviceName: string | undefined }) {
  const t = useTranslations('devices.detail.alerts');
  const format = useFormat();
  const read = deviceResource.useDetail(deviceId, { select: 'alerts', refetchInterval: 5000 });
  const alerts = read.data ? deviceOpenAlerts(read.data) : [];
  if (alerts.length === 0) return null;
  const search = new URLSearchParams({ state: 'OPEN', ...(deviceName ? { q: deviceName } : {}) });

  return (
    <section aria-labelledby="screen-alerts-title" className="mb-4 rounded-xl bg-red-50 px-5 py-4 ring-1 ring-red-200 ring-inset">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <WarningIcon className="size-4 shrink-0 text-red-700" />
        <h2 id="screen-alerts-title" className="text-sm font-semibold text-red-900">
          {t('title', { count: alerts.length })}
        </h2>
        <Link href={`/alerts?${search}`} className="ml-auto text-sm font-medium text-red-800 hover:underline">
          {t('toAlerts')}
        </Link>
      </div>
      <ul className="mt-2 divide-y divide-red-100">
        {alerts.map((alert) => (
          <li key={alert.id} className="flex flex-wrap items-baseline gap-x-3 py-1.5 text-sm">
            <span className="font-medium text-zinc-900" translate="no">
              {alert.alertRuleName || t('unnamedRule')}
            </span>
            <span className="text-zinc-600">{t('since', { time: format.dateTime(alert.createdAtDate, '—') })}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
