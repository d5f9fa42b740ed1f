'use client';

import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useCallback, useMemo } from 'react';

export type SortState = { field: string; direction: 'asc' | 'desc' };

export type ListParams = { page: number; size: number; sort: SortState; text: string };

export const PAGE_SIZES = [10, 20, 50, 100] as const;

export function parseSort(raw: string | null, fallback: SortState, allowed: readonly string[]): SortState {
  if (!raw) return fallback;
  const [field, direction] = raw.split(',');
  if (!field || !allowed.includes(field)) return fallback;

  return { field, direction: direction === 'desc' ? 'desc' : 'asc' };
}

/** A list view's paging, sorting and search kept in the URL, so a view can be shared and reloaded. */
export function useListParams({ defaultSort, sortable }: { defaultSort: SortState; sortable: readonly string[] }) {
  const searchParams = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();

  const params = useMemo<ListParams>(() => {
    const page = Number.parseInt(searchParams.get('page') ?? '', 10);
    const size = Number.parseInt(searchParams.get('size') ?? '', 10);

    return {
      page: Number.isFinite(page) && page > 0 ? page : 0,
      size: (PAGE_SIZES as readonly number[]).includes(size) ? size : 20,
      sort: parseSort(searchParams.get('sort'), defaultSort, sortable),
      text: searchParams.get('q') ?? '',
    };
  }, [searchParams, defaultSort, sortable]);

  const update = useCallback(
    (patch: Partial<ListParams>) => {
      const next = new URLSearchParams(searchParams);
      const merged = { ...params, ...patch };
      // Any change other than the page itself starts again from the first page.
      if (!('page' in patch)) merged.page = 0;
      const set = (key: string, value: string | null) => (value ? next.set(key, value) : next.delete(key));
      set('page', merged.page > 0 ? String(merged.page) : null);
      set('size', merged.size !== 20 ? String(merged.size) : null);
      const sort = `${merged.sort.field},${merged.sort.direction}`;
      set('sort', sort !== `${defaultSort.field},${defaultSort.direction}` ? sort : null);
      set('q', merged.text.trim() ? merged.text : null);
      const query = next.toString();
      router.replace(query ? `${pathname}?${query}` : pathname, { scroll: false });
    },
    [searchParams, params, router, pathname, defaultSort],
  );

  return { params, update };
}
