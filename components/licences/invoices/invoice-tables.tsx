'use client';

import { useLocale, useTranslations } from 'next-intl';
import { Card } from '@/components/ui/card';
import type { InvoiceTable, LicenseTierCounts } from '@/server/modules/licences/license-invoices.schemas';
import { useLabel } from '@/lib/i18n/labels';
import { formatUnitPrice } from './money';

/** One part of a customer's invoice (total, network owner, network members): a table per recurrence and currency. */
export function InvoiceTables({
  title,
  hint,
  tables,
  emptyText,
}: {
  title: string;
  hint: string;
  tables: InvoiceTable[];
  emptyText: string;
}) {
  const t = useTranslations('licenceInvoices');
  const label = useLabel();
  const locale = useLocale();
  const headingId = `invoice-${title.toLowerCase().replace(/\W+/g, '-')}`;

  return (
    <section aria-labelledby={headingId} className="space-y-3">
      <div>
        <h2 id={headingId} className="text-base font-semibold text-zinc-900">
          {title}
        </h2>
        <p className="text-sm text-zinc-500">{hint}</p>
      </div>
      {tables.length === 0 ? (
        <p className="rounded-lg bg-zinc-50 px-4 py-3 text-sm text-zinc-600 ring-1 ring-zinc-900/5">{emptyText}</p>
      ) : (
        <div className="grid gap-3 lg:grid-cols-2">
          {tables.map((table) => {
            const caption = t('tables.caption', {
              recurrence: t(`recurrence.${table.recurrence.recurrenceType}`, { frequency: table.recurrence.frequency }),
              currency: table.currency,
            });

            return (
              <Card key={`${table.recurrence.recurrenceType}-${table.recurrence.frequency}-${table.currency}`} className="overflow-hidden">
                <table className="w-full text-left text-sm">
                  <caption className="border-b border-zinc-100 px-4 py-2 text-left text-sm font-medium text-zinc-900">{caption}</caption>
                  <thead className="bg-zinc-50 text-xs font-medium text-zinc-600 uppercase">
                    <tr>
                      <th className="px-4 py-2">{t('tables.licenseType')}</th>
                      <th className="px-4 py-2 text-right">{t('tables.quantity')}</th>
                      <th className="px-4 py-2 text-right">{t('tables.price')}</th>
                    </tr>
                  </thead>
                  <tbody className="divide-y divide-zinc-100">
                    {table.items.map((item) => (
                      <tr key={`${item.licenseType}-${item.price}`}>
                        <td className="px-4 py-2 font-medium text-zinc-900">{label('licenseType', item.licenseType)}</td>
                        <td className="px-4 py-2 text-right text-zinc-700 tabular-nums">{item.quantity.toLocaleString(locale)}</td>
                        <td className="px-4 py-2 text-right whitespace-nowrap text-zinc-700 tabular-nums">
                          {formatUnitPrice(item.price, table.currency, locale)}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </Card>
            );
          })}
        </div>
      )}
    </section>
  );
}

/** How many of a network owner's members have each licence tier. */
export function MemberTierCounts({ counts }: { counts: LicenseTierCounts }) {
  const t = useTranslations('licenceInvoices');
  const label = useLabel();
  const tiers = ['STARTER', 'BUSINESS', 'ENTERPRISE'] as const;

  return (
    <section aria-labelledby="invoice-tiers" className="space-y-3">
      <h2 id="invoice-tiers" className="text-base font-semibold text-zinc-900">
        {t('tiers.title')}
      </h2>
      <dl className="grid grid-cols-3 gap-3">
        {tiers.map((tier) => (
          <Card key={tier} className="px-4 py-3">
            <dt className="text-sm text-zinc-500">{label('licenseTier', tier)}</dt>
            <dd className="mt-1 text-2xl font-semibold text-zinc-900 tabular-nums" data-testid={`tier-${tier}`}>
              {counts[tier]}
            </dd>
          </Card>
        ))}
      </dl>
    </section>
  );
}
