'use client';

import Link from 'next/link';
import { useTranslations } from 'next-intl';
import { WarningIcon } from '@/components/ui/icons';
import { deviceResource } from '@/lib/api/devices';
import { useFormat } from '@/lib/i18n/use-format';

/** One open alert as the device's `alerts` field answers it (the alerts module's plug). */
type OpenAlert = { id: string; ruleName: string; since: string | undefined };

const text = (value: unknown): string | undefined => (typeof value === 'string' || typeof value === 'number' ? String(value) : undefined);

/** The field is declared as records of unknown values: read the members the plug writes, skip anything else. */
function openAlertsOf(alerts: ReadonlyArray<Record<string, unknown>> | null | undefined): OpenAlert[] {
  return (alerts ?? []).flatMap((alert) => {
    const id = text(alert.id);

    return id ? [{ id, ruleName: text(alert.alertRuleName) ?? '', since: text(alert.createdAtDate) }] : [];
  });
}

/**
 * The screen's open alerts (rule and since when), shown only while it has some; the alerts page holds the rest of the
 * story. `alerts` is select-only, so it is its own read, live like the page's.
 */
export function ScreenAlerts({ deviceId, deviceName }: { deviceId: string; deviceName: string | undefined }) {
  const t = useTranslations('devices.detail.alerts');
  const format = useFormat();
  const read = deviceResource.useDetail(deviceId, { select: 'alerts', refetchInterval: 5000 });
  const alerts = openAlertsOf(read.data?.alerts);
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
              {alert.ruleName || t('unnamedRule')}
            </span>
            <span className="text-zinc-600">{t('since', { time: format.dateTime(alert.since, '—') })}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
