'use client';

import { useSearchParams } from 'next/navigation';
import { useCallback, useMemo } from 'react';
import {
  FILE_TYPES,
  ORIENTATIONS,
  quickFilterView,
  VALIDITY_FILTERS,
  type FileFilters,
  type FileType,
  type Orientation,
  type ValidityFilter,
} from '@/lib/api/files';
import { useQuickFilters } from '@/lib/api/quick-filters';
import { useListParams, type ListParams, type SortState } from '@/lib/hooks/use-list-params';
import { useReplaceQuery } from '@/lib/hooks/use-replace-query';
import type { ListView } from '@/components/ui/view-toggle';

type MediaView = ListView;

/** The media library's own URL state beside the list's paging, sorting and search (use-list-params). */
export type MediaState = {
  folderId: string | null;
  view: MediaView;
  recursive: boolean;
  type: FileType | null;
  orientation: Orientation | null;
  tags: string[];
  validity: ValidityFilter | null;
  quickFilterId: string | null;
  fileId: string | null;
};

const KEYS: Record<keyof MediaState, string> = {
  folderId: 'folder',
  view: 'view',
  recursive: 'deep',
  type: 'type',
  orientation: 'orient',
  tags: 'tags',
  validity: 'valid',
  quickFilterId: 'qf',
  fileId: 'file',
};

const DEFAULT_SORT: SortState = { field: 'name', direction: 'asc' };
export const SORTABLE = ['name', 'size', 'createDate', 'contentType', 'validTo'] as const;

function oneOf<T extends string>(value: string | null, allowed: readonly T[]): T | null {
  return value && (allowed as readonly string[]).includes(value) ? (value as T) : null;
}

export function useMediaParams() {
  const list = useListParams({ defaultSort: DEFAULT_SORT, sortable: SORTABLE });
  const searchParams = useSearchParams();
  const replaceQuery = useReplaceQuery();

  const state = useMemo<MediaState>(
    () => ({
      folderId: searchParams.get(KEYS.folderId),
      view: searchParams.get(KEYS.view) === 'table' ? 'table' : 'grid',
      recursive: searchParams.get(KEYS.recursive) === '1',
      type: oneOf(
        searchParams.get(KEYS.type),
        FILE_TYPES.map((t) => t.value),
      ),
      orientation: oneOf(searchParams.get(KEYS.orientation), ORIENTATIONS),
      tags: (searchParams.get(KEYS.tags) ?? '').split(',').filter(Boolean),
      validity: oneOf(
        searchParams.get(KEYS.validity),
        VALIDITY_FILTERS.map((v) => v.value),
      ),
      quickFilterId: searchParams.get(KEYS.quickFilterId),
      fileId: searchParams.get(KEYS.fileId),
    }),
    [searchParams],
  );

  /** Changes the media state; anything but the view or the open file starts again from page one. */
  const set = useCallback(
    (patch: Partial<MediaState>, { clearText = false }: { clearText?: boolean } = {}) => {
      replaceQuery((next) => {
        for (const [key, value] of Object.entries(patch) as Array<[keyof MediaState, MediaState[keyof MediaState]]>) {
          const name = KEYS[key];
          const text = Array.isArray(value) ? value.join(',') : typeof value === 'boolean' ? (value ? '1' : '') : (value ?? '');
          if (text && !(key === 'view' && text === 'grid')) next.set(name, text);
          else next.delete(name);
        }
        if (Object.keys(patch).some((k) => k !== 'view' && k !== 'fileId')) next.delete('page');
        if (clearText) next.delete('q');

        return next;
      });
    },
    [replaceQuery],
  );

  return { list: list.params, updateList: list.update, state, set };
}

/**
 * What the media list is filtered by. An applied quick filter shows its criteria in the controls; the ones it
 * sets are locked (the list is its files AND the other controls), the others narrow it further.
 */
export function useMediaFilters(state: MediaState, list: ListParams, folderId: string | undefined) {
  const quickFilters = useQuickFilters('FILE');
  const activeQuickFilter = quickFilters.data?.content.find((qf) => qf.id === state.quickFilterId);
  const preset = useMemo(
    () => (activeQuickFilter ? { name: activeQuickFilter.name, view: quickFilterView(activeQuickFilter.criteria) } : null),
    [activeQuickFilter],
  );
  const locked = preset?.view.filters ?? {};
  const filters: FileFilters = {
    folderId: state.quickFilterId ? undefined : folderId,
    recursive: state.recursive,
    text: locked.text ? undefined : list.text,
    type: locked.type ? undefined : (state.type ?? undefined),
    orientation: locked.orientation ? undefined : (state.orientation ?? undefined),
    tags: state.tags,
    validity: locked.validity ? undefined : (state.validity ?? undefined),
  };
  const hasFilters = Boolean(
    list.text.trim() || state.type || state.orientation || state.tags.length || state.validity || state.quickFilterId,
  );

  return { activeQuickFilter, preset, filters, hasFilters };
}
