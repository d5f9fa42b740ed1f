'use client';

import { useFormat } from '@/lib/i18n/use-format';
import { useTranslations } from 'next-intl';
import type { ReactNode } from 'react';
import { TrashIcon } from '@/components/ui/icons';
import { cn } from '@/lib/cn';
import type { Noun } from '@/lib/format';

/** Light-on-dark buttons (the shared Button's ghost colours are for light backgrounds). */
function BarButton({ className, ...props }: React.ComponentProps<'button'>) {
  return (
    <button
      type="button"
      className={cn(
        'inline-flex h-8 cursor-pointer items-center gap-1.5 rounded-md px-2.5 text-sm font-medium whitespace-nowrap transition-colors',
        className,
      )}
      {...props}
    />
  );
}

type SelectionAction = { label: string; onClick: () => void; icon?: ReactNode };

type Props = {
  /** What is selected: "3 files selected", toolbar "Selected files". */
  noun: Noun;
  count: number;
  pageCount: number;
  onSelectPage: () => void;
  onClear: () => void;
  actions: SelectionAction[];
  /** Absent: deleting is not offered (role or UI profile). */
  onDelete?: () => void;
};

/** The bulk actions over the items selected in a list or grid. */
export function SelectionBar({ noun, count, pageCount, onSelectPage, onClear, actions, onDelete }: Props) {
  const t = useTranslations('ui');
  const format = useFormat();

  return (
    <div
      role="toolbar"
      aria-label={t('selection.toolbar', { things: noun.other })}
      className="flex flex-wrap items-center gap-2 rounded-lg bg-zinc-900 px-3 py-2 text-sm text-white shadow-sm"
    >
      <span className="mr-2 font-medium" data-testid="selection-count">
        {t('selection.selected', { count: format.count(count, noun) })}
      </span>
      {count < pageCount ? (
        <button type="button" onClick={onSelectPage} className="cursor-pointer text-zinc-300 underline hover:text-white">
          {t('selection.selectPage', { count: pageCount })}
        </button>
      ) : null}
      <div className="ml-auto flex flex-wrap items-center gap-1">
        {actions.map((a) => (
          <BarButton key={a.label} className="text-zinc-100 hover:bg-white/10 hover:text-white" onClick={a.onClick}>
            {a.icon}
            {a.label}
          </BarButton>
        ))}
        {onDelete ? (
          <BarButton className="text-red-300 hover:bg-red-500/20 hover:text-red-200" onClick={onDelete}>
            <TrashIcon className="size-4" /> {t('delete')}
          </BarButton>
        ) : null}
        <BarButton className="text-zinc-300 hover:bg-white/10 hover:text-white" onClick={onClear}>
          {t('clear')}
        </BarButton>
      </div>
    </div>
  );
}
