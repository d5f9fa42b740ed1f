'use client';

import { useLocale, useTranslations } from 'next-intl';
import { useSearchParams } from 'next/navigation';
import { useId, useState } from 'react';
import { Card } from '@/components/ui/card';
import { Field, Select } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { LoadError } from '@/components/ui/alert';
import { LicenceTabs } from '@/components/licences/licence-tabs';
import { PageHeader } from '@/components/ui/page-header';
import { Spinner, UpdatingIndicator } from '@/components/ui/spinner';
import { useCustomerSelect } from '@/lib/api/customers';
import { today, useCustomerInvoice, useGlobalInvoice } from '@/lib/api/licence-invoices';
import { useDebouncedValue } from '@/lib/hooks/use-debounced-value';
import { useReplaceQuery } from '@/lib/hooks/use-replace-query';
import type { RecurringRevenue } from '@/server/modules/licences/license-invoices.schemas';
import { InvoiceTables, MemberTierCounts } from './invoice-tables';
import { formatMoney } from './money';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The super admin's invoice view (ADMIN; the route guards it): a day and a customer (or every customer) in the URL,
 * the monthly recurring revenue per currency and, for one customer, its invoice tables and members' tiers.
 */
export function InvoicesPage() {
  const t = useTranslations('licenceInvoices');
  const params = useSearchParams();
  const replaceQuery = useReplaceQuery();
  const dateParam = params.get('date') ?? '';
  const day = DAY.test(dateParam) ? dateParam : today();
  const customerParam = Number(params.get('customerId'));
  const customerId = Number.isInteger(customerParam) && customerParam > 0 ? customerParam : null;
  const globalQuery = useGlobalInvoice(day, { enabled: customerId === null });
  const customerQuery = useCustomerInvoice(customerId, day);
  const query = customerId === null ? globalQuery : customerQuery;
  const dateId = useId();

  const setParam = (name: string, value: string | null) =>
    replaceQuery((current) => {
      if (value) current.set(name, value);
      else current.delete(name);

      return current;
    });

  return (
    <div>
      <PageHeader title={t('title')} description={t('description')} />
      <LicenceTabs current="invoices" />
      <Card className="mb-6 grid gap-4 p-4 md:grid-cols-[minmax(0,12rem)_minmax(0,1fr)]">
        <Field id={dateId} label={t('date')}>
          <Input
            id={dateId}
            type="date"
            required
            value={day}
            onChange={(e) => setParam('date', DAY.test(e.target.value) ? e.target.value : null)}
          />
        </Field>
        <CustomerPicker value={customerId} onChange={(id) => setParam('customerId', id === null ? null : String(id))} />
      </Card>
      {query.isError ? (
        <LoadError title={t('revenue.loadError')} error={query.error} onRetry={() => void query.refetch()} />
      ) : (
        <div className="space-y-8">
          <RevenueList list={query.data?.recurringRevenueList} isUpdating={query.isFetching && !query.isLoading} />
          {customerId !== null && customerQuery.data ? (
            <>
              <InvoiceTables
                title={t('tables.total')}
                hint={t('tables.totalHint')}
                tables={customerQuery.data.totalInvoiceTables}
                emptyText={t('tables.empty')}
              />
              <InvoiceTables
                title={t('tables.networkOwner')}
                hint={t('tables.networkOwnerHint')}
                tables={customerQuery.data.networkOwnerInvoiceTables}
                emptyText={t('tables.empty')}
              />
              <InvoiceTables
                title={t('tables.networkMembers')}
                hint={t('tables.networkMembersHint')}
                tables={customerQuery.data.networkMembersInvoiceTables}
                emptyText={t('tables.empty')}
              />
              <MemberTierCounts counts={customerQuery.data.networkMemberLicenseTierCounts} />
            </>
          ) : null}
        </div>
      )}
    </div>
  );
}

function RevenueList({ list, isUpdating }: { list: RecurringRevenue[] | undefined; isUpdating: boolean }) {
  const t = useTranslations('licenceInvoices');
  const locale = useLocale();

  return (
    <section aria-labelledby="invoice-revenue" className="space-y-3">
      <div className="flex items-center gap-3">
        <h2 id="invoice-revenue" className="text-base font-semibold text-zinc-900">
          {t('revenue.title')}
        </h2>
        <UpdatingIndicator show={isUpdating} />
      </div>
      {list === undefined ? (
        <p className="flex items-center gap-2 text-sm text-zinc-600">
          <Spinner /> {t('revenue.loading')}
        </p>
      ) : list.length === 0 ? (
        <p className="rounded-lg bg-zinc-50 px-4 py-3 text-sm text-zinc-600 ring-1 ring-zinc-900/5">{t('revenue.empty')}</p>
      ) : (
        <ul className="grid gap-3 sm:grid-cols-2 xl:grid-cols-4">
          {list.map((entry) => (
            <li key={entry.currency} data-testid="revenue" data-currency={entry.currency}>
              <Card className="px-4 py-3">
                <p className="text-sm text-zinc-500">{entry.currency}</p>
                <p className="mt-1 text-2xl font-semibold text-zinc-900 tabular-nums">
                  {formatMoney(entry.monthlyAverage, entry.currency, locale)}
                </p>
                <p className="text-xs text-zinc-500">{t('revenue.perMonth')}</p>
              </Card>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** A searchable customer choice; the empty choice is every customer (the global view). */
function CustomerPicker({ value, onChange }: { value: number | null; onChange: (id: number | null) => void }) {
  const t = useTranslations('licenceInvoices');
  const id = useId();
  const [text, setText] = useState('');
  const debounced = useDebouncedValue(text, 200);
  const query = useCustomerSelect({ text: debounced, page: 0, size: 50 });
  const options = query.data?.content ?? [];
  const total = query.data?.totalElements ?? 0;
  const hasMore = total > options.length;

  return (
    <Field id={id} label={t('customer')} hint={hasMore ? t('customersShown', { shown: options.length, total }) : undefined}>
      <div className="grid gap-2 sm:grid-cols-2">
        <Input
          type="search"
          aria-label={t('searchCustomers')}
          placeholder={t('searchCustomers')}
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
        <Select
          id={id}
          aria-describedby={hasMore ? `${id}-hint` : undefined}
          value={value === null ? '' : String(value)}
          onChange={(e) => onChange(e.target.value ? Number(e.target.value) : null)}
        >
          <option value="">{t('allCustomers')}</option>
          {value !== null && !options.some((c) => c.id === value) ? <option value={value}>#{value}</option> : null}
          {options.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </Select>
      </div>
    </Field>
  );
}
