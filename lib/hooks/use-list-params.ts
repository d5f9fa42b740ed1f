'use client';

import { useSearchParams } from 'next/navigation';
import { useCallback, useMemo } from 'react';
import { useReplaceQuery } from '@/lib/hooks/use-replace-query';

export type SortState = { field: string; direction: 'asc' | 'desc' };

export type ListParams = { page: number; size: number; sort: SortState; text: string };

export const PAGE_SIZES = [10, 20, 50, 100] as const;
const DEFAULT_SIZE = 20;

function parseSort(raw: string | null, fallback: SortState, allowed: readonly string[]): SortState {
  if (!raw) return fallback;
  const [field, direction] = raw.split(',');
  if (!field || !allowed.includes(field)) return fallback;

  return { field, direction: direction === 'desc' ? 'desc' : 'asc' };
}

/** The `sort` query parameter of the API for a sort state. */
export function sortParam(sort: SortState): string {
  return `${sort.field},${sort.direction}`;
}

/**
 * One URL-backed filter of a list beside its paging, sort and search: how it reads from the URL (a bad
 * or missing value gives the default) and how it is written back (null leaves the key out: the default).
 */
// Methods (not function properties), so a filter of strings is a filter of unknown values too.
export type UrlFilter<T> = { key: string; parse(raw: string | null): T; format(value: T): string | null };

export type UrlFilters = Record<string, UrlFilter<unknown>>;
export type FilterValues<F extends UrlFilters> = { [K in keyof F]: F[K] extends UrlFilter<infer T> ? T : never };

/** A free-form value matching `pattern`, else empty (`''` is the default and not written). */
export function patternFilter(key: string, pattern: RegExp): UrlFilter<string> {
  return { key, parse: (raw) => (raw && pattern.test(raw) ? raw : ''), format: (value) => value || null };
}

/** One of `values`; the first is the default and not written. */
export function choiceFilter<T extends string>(key: string, values: readonly [T, ...T[]]): UrlFilter<T> {
  return {
    key,
    parse: (raw) => ((values as readonly string[]).includes(raw ?? '') ? (raw as T) : values[0]),
    format: (value) => (value === values[0] ? null : value),
  };
}

/** Reads a list's state from URL query parameters. */
export function readListParams<F extends UrlFilters>(
  search: { get: (key: string) => string | null },
  { defaultSort, sortable, filters }: { defaultSort: SortState; sortable: readonly string[]; filters?: F },
): ListParams & FilterValues<F> {
  const page = Number.parseInt(search.get('page') ?? '', 10);
  const size = Number.parseInt(search.get('size') ?? '', 10);
  const own = Object.fromEntries(Object.entries(filters ?? {}).map(([name, filter]) => [name, filter.parse(search.get(filter.key))]));

  return {
    ...(own as FilterValues<F>),
    page: Number.isFinite(page) && page > 0 ? page : 0,
    size: (PAGE_SIZES as readonly number[]).includes(size) ? size : DEFAULT_SIZE,
    sort: parseSort(search.get('sort'), defaultSort, sortable),
    text: search.get('q') ?? '',
  };
}

/**
 * Writes a change of a list's state into URL query parameters (other parameters kept); any change but the
 * page itself starts again from the first page. Defaults are left out, so the plain list has a plain URL.
 */
export function writeListParams<F extends UrlFilters>(
  current: URLSearchParams,
  params: ListParams & FilterValues<F>,
  patch: Partial<ListParams & FilterValues<F>>,
  { defaultSort, filters }: { defaultSort: SortState; filters?: F },
): URLSearchParams {
  const next = new URLSearchParams(current);
  const merged: ListParams & Record<string, unknown> = { ...params, ...patch, page: 'page' in patch ? (patch.page ?? 0) : 0 };
  const set = (key: string, value: string | null) => (value ? next.set(key, value) : next.delete(key));
  set('page', merged.page > 0 ? String(merged.page) : null);
  set('size', merged.size !== DEFAULT_SIZE ? String(merged.size) : null);
  const sort = sortParam(merged.sort);
  set('sort', sort !== sortParam(defaultSort) ? sort : null);
  set('q', merged.text.trim() ? merged.text : null);
  for (const [name, filter] of Object.entries(filters ?? {})) set(filter.key, filter.format(merged[name]));

  return next;
}

/**
 * A list view's paging, sorting, search and own filters kept in the URL, so a view can be shared and
 * reloaded. `defaultSort`, `sortable` and `filters` must be stable (module constants).
 */
export function useListParams<F extends UrlFilters = Record<never, never>>({
  defaultSort,
  sortable,
  filters,
}: {
  defaultSort: SortState;
  sortable: readonly string[];
  filters?: F;
}) {
  const searchParams = useSearchParams();
  const replaceQuery = useReplaceQuery();

  const params = useMemo(
    () => readListParams(searchParams, { defaultSort, sortable, filters }),
    [searchParams, defaultSort, sortable, filters],
  );

  // Built on the newest query, not this render's: a debounced search must not undo a filter set meanwhile.
  const update = useCallback(
    (patch: Partial<ListParams & FilterValues<F>>) =>
      replaceQuery((current) =>
        writeListParams(current, readListParams(current, { defaultSort, sortable, filters }), patch, { defaultSort, filters }),
      ),
    [replaceQuery, defaultSort, sortable, filters],
  );

  return { params, update };
}
