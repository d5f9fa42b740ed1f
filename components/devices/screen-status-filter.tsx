'use client';

import { FilterSelect } from '@/components/ui/field';
import { STATUS_FILTER_LABELS, STATUS_FILTERS, type StatusFilter } from '@/lib/api/devices';

/** The screens lists' status filter (one tenant's and across tenants), as wide as its longest choice. */
export function ScreenStatusFilter({ value, onChange }: { value: StatusFilter; onChange: (status: StatusFilter) => void }) {
  return (
    <div className="shrink-0">
      <FilterSelect aria-label="Status" value={value} onChange={(e) => onChange(e.target.value as StatusFilter)}>
        {STATUS_FILTERS.map((s) => (
          <option key={s} value={s}>
            {STATUS_FILTER_LABELS[s]}
          </option>
        ))}
      </FilterSelect>
    </div>
  );
}
