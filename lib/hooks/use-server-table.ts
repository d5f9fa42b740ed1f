'use client';

import { getCoreRowModel, useReactTable, type ColumnDef, type SortingState } from '@tanstack/react-table';
import { useMemo } from 'react';
import type { Page } from '@/lib/api/types';
import type { SortState } from '@/lib/hooks/use-list-params';

/**
 * A TanStack table over one server page: paging and sorting happen in the API (`page`, `size`,
 * `sort`), the table only renders and reports header clicks as the new sort.
 */
export function useServerTable<T>({
  page,
  columns,
  getRowId,
  sort,
  onSortChange,
}: {
  page: Page<T> | undefined;
  columns: ColumnDef<T>[];
  getRowId: (row: T, index: number) => string;
  sort: SortState;
  onSortChange: (sort: SortState) => void;
}) {
  const sorting = useMemo<SortingState>(() => [{ id: sort.field, desc: sort.direction === 'desc' }], [sort]);
  const data = page?.content;
  const rows = useMemo(() => data ?? [], [data]);
  const table = useReactTable({
    data: rows,
    columns,
    getRowId,
    getCoreRowModel: getCoreRowModel(),
    manualPagination: true,
    manualSorting: true,
    enableSortingRemoval: false,
    pageCount: page?.totalPages ?? -1,
    state: { sorting },
    onSortingChange: (updater) => {
      const first = (typeof updater === 'function' ? updater(sorting) : updater)[0];
      if (first) onSortChange({ field: first.id, direction: first.desc ? 'desc' : 'asc' });
    },
  });

  return { table, rows };
}
