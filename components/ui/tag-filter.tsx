'use client';

import { useTranslations } from 'next-intl';
import { FilterSelect } from '@/components/ui/field';
import { XIcon } from '@/components/ui/icons';
import { useTags } from '@/lib/api/tags';
import type { TagGroup } from '@/server/modules/tags/tags.schemas';
import { useFormat } from '@/lib/i18n/use-format';

/*
 * Filtering a list by tags (media, screens): a select of the tenant's tags with their counts adds one, and each
 * chosen tag is a chip that removes it.
 */

/** "Filter by tag…": the group's tags not chosen yet (`chosen`), each with its count. */
export function TagFilterSelect({ group, chosen, onAdd }: { group: TagGroup; chosen: readonly string[]; onAdd: (tag: string) => void }) {
  const t = useTranslations('ui.tags.filter');
  const format = useFormat();
  const tags = useTags(group);
  const options = (tags.data ?? []).filter((option) => !chosen.includes(option.tag));

  return (
    <div className="shrink-0">
      <FilterSelect
        aria-label={t('tag')}
        value=""
        onChange={(e) => e.target.value && onAdd(e.target.value)}
        disabled={options.length === 0}
      >
        <option value="">{options.length ? t('filterByTag') : t('noTags')}</option>
        {options.map((option) => (
          <option key={option.tag} value={option.tag}>
            {option.tag} ({format.number(option.count)})
          </option>
        ))}
      </FilterSelect>
    </div>
  );
}

/** A chosen tag, removed with its button. */
export function TagFilterChip({ tag, onRemove }: { tag: string; onRemove: () => void }) {
  const t = useTranslations('ui.tags.filter');

  return (
    <span className="inline-flex items-center gap-1 rounded-full bg-brand-50 py-0.5 pr-1 pl-2.5 text-xs font-medium text-brand-800 ring-1 ring-brand-200 ring-inset">
      {t('chip', { tag })}
      <button
        type="button"
        aria-label={t('stop', { tag })}
        onClick={onRemove}
        className="cursor-pointer rounded-full p-0.5 hover:bg-brand-100"
      >
        <XIcon className="size-3" />
      </button>
    </span>
  );
}
