'use client';

import { useTranslations } from 'next-intl';
import { WarningIcon } from '@/components/ui/icons';
import { deviceOpenAlerts, type Device } from '@/lib/api/devices';
import { cn } from '@/lib/cn';
import { useFormat } from '@/lib/i18n/use-format';

/**
 * A screen's open alerts as one red mark: "Alert" (or how many), each rule and since when in its tooltip and its
 * accessible name. Nothing for a screen without open alerts. Read from the list's `alerts` field: no request.
 */
export function ScreenAlertBadge({ device, className }: { device: Pick<Device, 'alerts'>; className?: string }) {
  const t = useTranslations('devices.alerts');
  const format = useFormat();
  const alerts = deviceOpenAlerts(device);
  if (alerts.length === 0) return null;
  const lines = alerts.map((alert) =>
    t('rule', { rule: alert.alertRuleName || t('unnamedRule'), since: format.dateTime(alert.createdAtDate) }),
  );
  const description = `${t('label', { count: alerts.length })}: ${lines.join('; ')}`;

  return (
    <span
      data-testid="screen-alert-badge"
      title={[t('label', { count: alerts.length }), ...lines].join('\n')}
      className={cn(
        'inline-flex items-center gap-1 rounded-md bg-red-600 px-1.5 py-0.5 text-xs font-medium whitespace-nowrap text-white',
        className,
      )}
    >
      <span className="sr-only">{description}</span>
      <WarningIcon className="size-3.5" />
      <span aria-hidden>{alerts.length === 1 ? t('one') : t('many', { count: alerts.length })}</span>
    </span>
  );
}
