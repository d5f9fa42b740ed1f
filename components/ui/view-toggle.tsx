'use client';

import { useTranslations } from 'next-intl';
import { GridIcon, ListIcon } from '@/components/ui/icons';
import { cn } from '@/lib/cn';

export type ListView = 'grid' | 'table';

const VIEWS = [
  { view: 'grid', Icon: GridIcon },
  { view: 'table', Icon: ListIcon },
] as const;

/** Grid or table: the two buttons of a library's toolbar. */
export function ViewToggle({ value, onChange }: { value: ListView; onChange: (view: ListView) => void }) {
  const t = useTranslations('ui.view');

  return (
    <div className="flex rounded-md ring-1 ring-zinc-300" role="group" aria-label={t('label')}>
      {VIEWS.map(({ view, Icon }) => (
        <button
          key={view}
          type="button"
          aria-pressed={value === view}
          title={t('title', { view: t(view) })}
          onClick={() => onChange(view)}
          className={cn(
            'flex h-9 cursor-pointer items-center gap-1.5 px-3 text-sm first:rounded-l-md last:rounded-r-md',
            value === view ? 'bg-zinc-900 text-white' : 'bg-white text-zinc-700 hover:bg-zinc-50',
          )}
        >
          <Icon className="size-4" />
          {t(view)}
        </button>
      ))}
    </div>
  );
}
