'use client';

import { flexRender, type RowData, type Table } from '@tanstack/react-table';
import { ArrowDownIcon, ArrowUpIcon, ChevronUpDownIcon } from '@/components/ui/icons';
import { cn } from '@/lib/cn';

declare module '@tanstack/react-table' {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars -- the generics must match TanStack's declaration
  interface ColumnMeta<TData extends RowData, TValue> {
    /** Classes for the column's header and cells, e.g. a column that takes the remaining width. */
    className?: string;
  }
}

function SortIcon({ direction }: { direction: false | 'asc' | 'desc' }) {
  if (direction === 'asc') return <ArrowUpIcon className="size-3.5 text-zinc-700" />;
  if (direction === 'desc') return <ArrowDownIcon className="size-3.5 text-zinc-700" />;

  return <ChevronUpDownIcon className="size-3.5 text-zinc-300 group-hover:text-zinc-500" />;
}

/** The table markup shared by the list pages: sortable headers, skeleton rows, dimmed placeholder data. */
export function DataTable<T>({
  table,
  sortable,
  isFirstLoad,
  isFetching,
  isPlaceholderData,
  describedBy,
  rowClassName,
}: {
  table: Table<T>;
  sortable: readonly string[];
  isFirstLoad: boolean;
  isFetching: boolean;
  isPlaceholderData: boolean;
  describedBy: string;
  /** Classes of every data row, e.g. `align-top` for rows of long text. */
  rowClassName?: string;
}) {
  const columns = table.getVisibleLeafColumns();

  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm" aria-busy={isFetching} aria-describedby={describedBy}>
        <thead className="border-b border-zinc-200 bg-zinc-50/80">
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) => {
                const direction = header.column.getIsSorted();
                const canSort = header.column.getCanSort() && sortable.includes(header.column.id);

                return (
                  <th
                    key={header.id}
                    scope="col"
                    aria-sort={direction === 'asc' ? 'ascending' : direction === 'desc' ? 'descending' : undefined}
                    className={cn('px-4 py-2.5 text-xs font-medium tracking-wide whitespace-nowrap text-zinc-500 uppercase', header.column.columnDef.meta?.className)}
                  >
                    {canSort ? (
                      <button
                        type="button"
                        onClick={header.column.getToggleSortingHandler()}
                        className="group -mx-1 inline-flex cursor-pointer items-center gap-1 rounded px-1 py-0.5 uppercase hover:text-zinc-900"
                      >
                        {flexRender(header.column.columnDef.header, header.getContext())}
                        <SortIcon direction={direction} />
                        <span className="sr-only">
                          {direction ? `, sorted ${direction === 'asc' ? 'ascending' : 'descending'}. Click to reverse` : ', click to sort'}
                        </span>
                      </button>
                    ) : (
                      flexRender(header.column.columnDef.header, header.getContext())
                    )}
                  </th>
                );
              })}
            </tr>
          ))}
        </thead>
        <tbody className={cn('divide-y divide-zinc-100', isPlaceholderData && 'opacity-60 transition-opacity')}>
          {isFirstLoad
            ? Array.from({ length: 6 }, (_, i) => (
                <tr key={`skeleton-${i}`} aria-hidden="true">
                  {columns.map((column, j) => (
                    <td key={column.id ?? j} className={cn('px-4 py-3.5', column.columnDef.meta?.className)}>
                      <span className="block h-4 animate-pulse rounded bg-zinc-100" style={{ width: `${50 + ((i * 7 + j * 13) % 40)}%` }} />
                    </td>
                  ))}
                </tr>
              ))
            : table.getRowModel().rows.map((row) => (
                <tr key={row.id} className={cn('hover:bg-zinc-50/60', rowClassName)}>
                  {row.getVisibleCells().map((cell) => (
                    <td key={cell.id} className={cn('px-4 py-3', cell.column.columnDef.meta?.className)}>
                      {flexRender(cell.column.columnDef.cell, cell.getContext())}
                    </td>
                  ))}
                </tr>
              ))}
        </tbody>
      </table>
    </div>
  );
}

/** The centred message of an empty list. */
export function EmptyState({ icon, title, children, testId }: { icon: React.ReactNode; title: string; children?: React.ReactNode; testId?: string }) {
  return (
    <div className="flex flex-col items-center px-6 py-14 text-center" data-testid={testId}>
      <span className="flex size-11 items-center justify-center rounded-full bg-zinc-100">{icon}</span>
      <p className="mt-4 text-sm font-medium text-zinc-900">{title}</p>
      {children}
    </div>
  );
}
