'use client';

import { useTranslations } from 'next-intl';
import { useId } from 'react';
import { ChevronLeftIcon, ChevronRightIcon } from '@/components/ui/icons';
import { Button } from '@/components/ui/button';
import type { Noun } from '@/lib/format';
import { useFormat } from '@/lib/i18n/use-format';
import { PAGE_SIZES } from '@/lib/hooks/use-list-params';

export function Pagination({
  id,
  page,
  size,
  totalElements,
  totalPages,
  noun,
  onPageChange,
  onSizeChange,
}: {
  id?: string;
  page: number;
  size: number;
  totalElements: number;
  totalPages: number;
  noun: Noun;
  onPageChange: (page: number) => void;
  onSizeChange: (size: number) => void;
}) {
  const sizeId = useId();
  const t = useTranslations('ui.pagination');
  const format = useFormat();
  const from = page * size + 1;
  const to = Math.min((page + 1) * size, totalElements);

  return (
    <div className="flex flex-wrap items-center justify-between gap-3 border-t border-zinc-200 px-4 py-3 text-sm text-zinc-600">
      {/* One page holds everything: "3 files"; otherwise the range: "21–40 of 95 files". */}
      <p id={id} aria-live="polite">
        {totalPages <= 1 && page === 0 ? (
          <span className="font-medium text-zinc-900">{format.count(totalElements, noun)}</span>
        ) : (
          t.rich('rangeOf', {
            range: from === to ? format.number(from) : `${format.number(from)}–${format.number(to)}`,
            total: format.count(totalElements, noun),
            strong: (chunks) => <span className="font-medium text-zinc-900">{chunks}</span>,
          })
        )}
      </p>
      <div className="flex items-center gap-4">
        <div className="flex items-center gap-2">
          <label htmlFor={sizeId} className="text-zinc-500">
            {t('rowsPerPage')}
          </label>
          <select
            id={sizeId}
            value={size}
            onChange={(e) => onSizeChange(Number(e.target.value))}
            className="h-8 rounded-md border-0 bg-white py-0 pr-7 pl-2 text-sm ring-1 ring-zinc-300 ring-inset focus:ring-2 focus:ring-brand-500"
          >
            {PAGE_SIZES.map((option) => (
              <option key={option} value={option}>
                {option}
              </option>
            ))}
          </select>
        </div>
        <nav aria-label={t('label')} className="flex items-center gap-1">
          <Button variant="secondary" size="sm" disabled={page <= 0} onClick={() => onPageChange(page - 1)} aria-label={t('previous')}>
            <ChevronLeftIcon className="size-4" />
          </Button>
          <span className="min-w-20 text-center tabular-nums">{t('page', { page: page + 1, pages: Math.max(totalPages, 1) })}</span>
          <Button
            variant="secondary"
            size="sm"
            disabled={page + 1 >= totalPages}
            onClick={() => onPageChange(page + 1)}
            aria-label={t('next')}
          >
            <ChevronRightIcon className="size-4" />
          </Button>
        </nav>
      </div>
    </div>
  );
}
