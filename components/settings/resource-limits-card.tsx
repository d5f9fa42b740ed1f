'use client';

import { useTranslations } from 'next-intl';
import { LoadError } from '@/components/ui/alert';
import { Card } from '@/components/ui/card';
import { useResourceLimits, type ResourceLimit } from '@/lib/api/settings';
import { cn } from '@/lib/cn';
import { useLabel } from '@/lib/i18n/labels';
import { useFormat } from '@/lib/i18n/use-format';

function UsageBar({ row, name }: { row: ResourceLimit; name: string }) {
  const t = useTranslations('settings.limits');
  const format = useFormat();
  const ratio = row.limit > 0 ? Math.min(row.used / row.limit, 1) : row.used > 0 ? 1 : 0;
  const tone = row.used > row.limit ? 'bg-red-500' : ratio >= 0.8 ? 'bg-amber-500' : 'bg-brand-600';

  return (
    <div
      role="meter"
      aria-label={t('meter', { resource: name })}
      aria-valuemin={0}
      aria-valuemax={Math.max(row.limit, row.used, 1)}
      aria-valuenow={row.used}
      aria-valuetext={t('meterValue', { used: format.number(row.used), limit: format.number(row.limit) })}
      className="h-2 w-full overflow-hidden rounded-full bg-zinc-100"
    >
      <div
        className={cn('h-full rounded-full transition-[width]', row.limit === 0 && row.used === 0 ? 'bg-transparent' : tone)}
        style={{ width: `${ratio * 100}%` }}
      />
    </div>
  );
}

export function ResourceLimitsCard({ customerId }: { customerId: number | undefined }) {
  const t = useTranslations('settings.limits');
  const label = useLabel();
  const format = useFormat();
  const query = useResourceLimits(customerId);
  const rows = (query.data ?? [])
    .map((row) => ({ ...row, name: label('resource', row.resource) }))
    .sort((a, b) => a.name.localeCompare(b.name, format.locale));

  return (
    <Card className="overflow-hidden">
      <div className="border-b border-zinc-200 px-5 py-4">
        <h2 className="text-base font-semibold text-zinc-900">{t('title')}</h2>
        <p className="mt-0.5 text-sm text-zinc-500">{t('description')}</p>
      </div>
      {query.isError ? (
        <LoadError className="m-5" title={t('loadError')} error={query.error} onRetry={() => void query.refetch()} />
      ) : (
        <table className="w-full text-left text-sm" aria-label={t('title')} aria-busy={query.isFetching}>
          <thead className="border-b border-zinc-200 bg-zinc-50/80">
            <tr>
              <th scope="col" className="px-5 py-2.5 text-xs font-medium tracking-wide text-zinc-500 uppercase">
                {t('resource')}
              </th>
              <th scope="col" className="w-1/2 px-5 py-2.5 text-xs font-medium tracking-wide text-zinc-500 uppercase">
                {t('usage')}
              </th>
              <th
                scope="col"
                className="px-5 py-2.5 text-right text-xs font-medium tracking-wide whitespace-nowrap text-zinc-500 uppercase"
              >
                {t('usedOfLimit')}
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-zinc-100">
            {query.isPending
              ? Array.from({ length: 5 }, (_, i) => (
                  <tr key={i} aria-hidden="true">
                    <td className="px-5 py-3" colSpan={3}>
                      <span className="block h-4 animate-pulse rounded bg-zinc-100" />
                    </td>
                  </tr>
                ))
              : rows.map((row) => (
                  <tr key={row.resource} data-resource={row.resource}>
                    <td className="px-5 py-3 font-medium whitespace-nowrap text-zinc-800">{row.name}</td>
                    <td className="px-5 py-3">
                      <UsageBar row={row} name={row.name} />
                    </td>
                    <td className="px-5 py-3 text-right whitespace-nowrap text-zinc-700 tabular-nums">
                      {row.limit === 0 && row.used === 0 ? (
                        <span className="text-zinc-400">{t('notIncluded')}</span>
                      ) : (
                        <>
                          <span className={cn(row.used > row.limit && 'font-medium text-red-700')}>{format.number(row.used)}</span> /{' '}
                          {format.number(row.limit)}
                        </>
                      )}
                    </td>
                  </tr>
                ))}
          </tbody>
        </table>
      )}
      {query.isSuccess && rows.length === 0 ? <p className="px-5 py-6 text-sm text-zinc-500">{t('none')}</p> : null}
    </Card>
  );
}
