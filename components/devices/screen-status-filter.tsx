'use client';

import { useTranslations } from 'next-intl';
import { FilterSelect } from '@/components/ui/field';
import { STATUS_FILTERS, type StatusFilter } from '@/lib/api/devices';
import { useLabel } from '@/lib/i18n/labels';

/** The screens lists' status filter (one tenant's and across tenants), as wide as its longest choice. */
export function ScreenStatusFilter({ value, onChange }: { value: StatusFilter; onChange: (status: StatusFilter) => void }) {
  const t = useTranslations('devices');
  const label = useLabel();

  return (
    <div className="shrink-0">
      <FilterSelect aria-label={t('status')} value={value} onChange={(e) => onChange(e.target.value as StatusFilter)}>
        {STATUS_FILTERS.map((s) => (
          <option key={s} value={s}>
            {s === 'all' ? t('anyStatus') : label('deviceStatus', s === 'online' ? 'ONLINE' : 'OFFLINE')}
          </option>
        ))}
      </FilterSelect>
    </div>
  );
}
