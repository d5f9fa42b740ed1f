'use client';

import { useTranslations } from 'next-intl';
import type { MediaState } from '@/components/files/use-media-params';
import { SubfoldersToggle } from '@/components/folders/folder-library';
import { Button } from '@/components/ui/button';
import { FilterSelect } from '@/components/ui/field';
import { SearchInput } from '@/components/ui/search-input';
import { UpdatingIndicator } from '@/components/ui/spinner';
import { TagFilterChip, TagFilterSelect } from '@/components/ui/tag-filter';
import { ViewToggle } from '@/components/ui/view-toggle';
import {
  FILE_TYPES,
  ORIENTATIONS,
  VALIDITY_FILTERS,
  type FileType,
  type Orientation,
  type QuickFilterExtra,
  type QuickFilterView,
  type ValidityFilter,
} from '@/lib/api/files';
import { useLabel } from '@/lib/i18n/labels';

type Props = {
  text: string;
  onText: (text: string) => void;
  state: MediaState;
  set: (patch: Partial<MediaState>) => void;
  hasFilters: boolean;
  onClearFilters: () => void;
  onSaveQuickFilter: () => void;
  updating: boolean;
  /** The applied quick filter: the controls it sets show its values, locked. */
  preset?: { name: string; view: QuickFilterView } | null;
};

export function MediaToolbar({ text, onText, state, set, hasFilters, onClearFilters, onSaveQuickFilter, updating, preset }: Props) {
  const t = useTranslations('media.toolbar');
  const tt = useTranslations('ui.tags.filter');
  const label = useLabel();
  const locked = preset?.view.filters ?? {};
  const presetTags = locked.tags ?? [];
  const lockedTitle = preset ? t('lockedBy', { name: preset.name }) : undefined;
  const wordExtra = (extra: QuickFilterExtra) =>
    extra.kind === 'search'
      ? extra.text
      : extra.kind === 'nameContains'
        ? t('extra.nameContains', { name: extra.name })
        : t(`extra.${extra.kind}`);
  const type = locked.type ?? state.type;
  const orientation = locked.orientation ?? state.orientation;
  const validity = locked.validity ?? state.validity;

  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-center gap-2">
        {locked.text ? (
          <div className="w-full sm:w-80" title={lockedTitle}>
            <SearchInput
              label={t('searchLabel')}
              placeholder={t('searchPlaceholder')}
              value={locked.text}
              onChange={() => undefined}
              disabled
            />
          </div>
        ) : (
          <SearchInput label={t('searchLabel')} placeholder={t('searchPlaceholder')} value={text} onChange={onText} />
        )}
        <div className="shrink-0" title={locked.type ? lockedTitle : undefined}>
          <FilterSelect
            aria-label={t('type')}
            value={type ?? ''}
            disabled={Boolean(locked.type)}
            onChange={(e) => set({ type: (e.target.value || null) as FileType | null })}
          >
            <option value="">{t('allTypes')}</option>
            {FILE_TYPES.map((type) => (
              <option key={type.value} value={type.value}>
                {t(`types.${type.value}`)}
              </option>
            ))}
          </FilterSelect>
        </div>
        <div className="shrink-0" title={locked.orientation ? lockedTitle : undefined}>
          <FilterSelect
            aria-label={t('orientation')}
            value={orientation ?? ''}
            disabled={Boolean(locked.orientation)}
            onChange={(e) => set({ orientation: (e.target.value || null) as Orientation | null })}
          >
            <option value="">{t('anyOrientation')}</option>
            {ORIENTATIONS.map((o) => (
              <option key={o} value={o}>
                {label('orientation', o)}
              </option>
            ))}
          </FilterSelect>
        </div>
        <div className="shrink-0" title={locked.validity ? lockedTitle : undefined}>
          <FilterSelect
            aria-label={t('validity')}
            value={validity ?? ''}
            disabled={Boolean(locked.validity)}
            onChange={(e) => set({ validity: (e.target.value || null) as ValidityFilter | null })}
          >
            <option value="">{t('anyValidity')}</option>
            {VALIDITY_FILTERS.map((v) => (
              <option key={v.value} value={v.value}>
                {t(`validities.${v.value}`)}
              </option>
            ))}
          </FilterSelect>
        </div>
        <TagFilterSelect group="fileTags" chosen={[...state.tags, ...presetTags]} onAdd={(tag) => set({ tags: [...state.tags, tag] })} />
        <SubfoldersToggle
          checked={preset ? preset.view.recursive : state.recursive}
          onChange={(recursive) => set({ recursive })}
          disabled={Boolean(state.quickFilterId)}
        />
        <div className="ml-auto flex items-center gap-2">
          <UpdatingIndicator show={updating} />
          <ViewToggle value={state.view} onChange={(view) => set({ view })} />
        </div>
      </div>
      {hasFilters ? (
        <div className="flex flex-wrap items-center gap-2 text-sm">
          {presetTags.map((tag) => (
            <span
              key={`preset-${tag}`}
              title={lockedTitle}
              className="inline-flex items-center rounded-full bg-zinc-100 px-2.5 py-0.5 text-xs font-medium text-zinc-700 ring-1 ring-zinc-200 ring-inset"
            >
              {tt('chip', { tag })}
            </span>
          ))}
          {(preset?.view.other ?? []).map(wordExtra).map((criterion) => (
            <span
              key={`other-${criterion}`}
              title={lockedTitle}
              className="inline-flex max-w-full items-center truncate rounded-full bg-zinc-100 px-2.5 py-0.5 text-xs font-medium text-zinc-700 ring-1 ring-zinc-200 ring-inset"
            >
              {t('alsoChip', { criterion })}
            </span>
          ))}
          {state.tags.map((tag) => (
            <TagFilterChip key={tag} tag={tag} onRemove={() => set({ tags: state.tags.filter((other) => other !== tag) })} />
          ))}
          <Button variant="ghost" size="sm" onClick={onClearFilters}>
            {t('clearFilters')}
          </Button>
          {state.quickFilterId ? null : (
            <Button variant="secondary" size="sm" onClick={onSaveQuickFilter}>
              {t('saveQuickFilter')}
            </Button>
          )}
        </div>
      ) : null}
    </div>
  );
}
