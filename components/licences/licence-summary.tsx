'use client';

import { useTranslations } from 'next-intl';
import { Card } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import {
  freeOfOrder,
  licenseTypes,
  useApprovedOrders,
  useLicenceDashboard,
  type LicenceDashboard,
  type LicenceTypeCount,
  type LicenseOrderLimited,
  type LicenseType,
} from '@/lib/api/licences';
import { useLabel } from '@/lib/i18n/labels';
import { useFormat } from '@/lib/i18n/use-format';

export type LicenceCounts = {
  byType: Array<{ type: LicenseType } & LicenceTypeCount>;
  /** FREE licences (the customer's `freeLicenses`): how many, how many screens use one; null when unknown. */
  free: { count: number; used: number } | null;
};

/** The dashboard's counts by type, in spec 3's order, leaving out types the customer never had. */
export function countsOfDashboard(dashboard: LicenceDashboard): LicenceCounts {
  const byType = licenseTypes.flatMap((type) => {
    const counts = dashboard.licenseTypeCounts[type];

    return counts.ordered > 0 || counts.assigned > 0 ? [{ type, ...counts }] : [];
  });

  return { byType, free: { count: dashboard.freeCount, used: dashboard.usedFreeCount } };
}

/** The same counts from the approved orders (while the dashboard cannot be read): no FREE licences then. */
export function countsOfOrders(orders: readonly LicenseOrderLimited[]): LicenceCounts {
  const byType = licenseTypes.flatMap((type) => {
    const ofType = orders.filter((order) => order.licenseType === type);
    if (ofType.length === 0) return [];
    const ordered = ofType.reduce((sum, order) => sum + (order.deviceLicenseCount ?? 0), 0);
    const free = ofType.reduce((sum, order) => sum + freeOfOrder(order), 0);

    return [{ type, ordered, assigned: ordered - free, free }];
  });

  return { byType, free: null };
}

/** One customer's licences by type: ordered, held by screens, free; and its FREE licences. */
export function LicenceSummary({ customerId }: { customerId: number }) {
  const t = useTranslations('licences.summary');
  const label = useLabel();
  const format = useFormat();
  const dashboard = useLicenceDashboard(customerId);
  // The orders stand in while the dashboard cannot be read (it answers the same counts of them).
  const orders = useApprovedOrders(dashboard.isError ? customerId : undefined);
  const counts = dashboard.data ? countsOfDashboard(dashboard.data) : orders.data ? countsOfOrders(orders.data) : null;

  return (
    <Card className="mb-6 p-4">
      <h2 className="text-sm font-semibold text-zinc-900">{t('title')}</h2>
      {!counts ? (
        dashboard.isPending || orders.isPending ? (
          <Spinner className="mt-3" label={t('loading')} />
        ) : (
          <p className="mt-2 text-sm text-red-700">{t('loadError')}</p>
        )
      ) : (
        <ul className="mt-3 grid grid-cols-[repeat(auto-fill,minmax(11rem,1fr))] gap-3" data-testid="licence-summary">
          {counts.byType.map((row) => (
            <li key={row.type} className="rounded-lg bg-zinc-50 px-3 py-2.5 ring-1 ring-zinc-200" data-testid={`licence-type-${row.type}`}>
              <p className="text-sm font-medium text-zinc-900">{label('licenseType', row.type)}</p>
              <p className="mt-1 text-2xl font-semibold text-zinc-900 tabular-nums">
                {format.number(row.free)} <span className="text-sm font-normal text-zinc-500">{t('free')}</span>
              </p>
              <p className="text-xs text-zinc-500">{t('assignedOf', { assigned: row.assigned, ordered: row.ordered })}</p>
            </li>
          ))}
          {counts.free && counts.free.count > 0 ? (
            <li className="rounded-lg bg-zinc-50 px-3 py-2.5 ring-1 ring-zinc-200" data-testid="licence-type-FREE">
              <p className="text-sm font-medium text-zinc-900">{t('freeLicences')}</p>
              <p className="mt-1 text-2xl font-semibold text-zinc-900 tabular-nums">
                {format.number(Math.max(0, counts.free.count - counts.free.used))}{' '}
                <span className="text-sm font-normal text-zinc-500">{t('free')}</span>
              </p>
              <p className="text-xs text-zinc-500">{t('usedOf', { used: counts.free.used, count: counts.free.count })}</p>
            </li>
          ) : null}
          {counts.byType.length === 0 && !(counts.free && counts.free.count > 0) ? (
            <li className="text-sm text-zinc-500">{t('none')}</li>
          ) : null}
        </ul>
      )}
    </Card>
  );
}
