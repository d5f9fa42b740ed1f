'use client';

import { useTranslations } from 'next-intl';
import { type Column, type ColumnDefTemplate, type RowData, type Table, type VisibilityState } from '@tanstack/react-table';
import { useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { ArrowDownIcon, ArrowUpIcon, ChevronUpDownIcon } from '@/components/ui/icons';
import { cn } from '@/lib/cn';

declare module '@tanstack/react-table' {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars -- the generics must match TanStack's declaration
  interface ColumnMeta<TData extends RowData, TValue> {
    /** Classes for the column's header and cells, e.g. a column that takes the remaining width. */
    className?: string;
    /**
     * Columns with a priority give way when the table is narrower than their sizes add up to: the highest
     * number hides first, and its values are listed under the row's name instead. Columns without one (the
     * name, the row menu, the selection box) never hide.
     */
    priority?: number;
    /** The width in px the column needs beside the others (its header and typical value); 128 when absent. */
    size?: number;
    /** The label of the column's values under the name when it is hidden; the header when that is text. */
    label?: string;
  }
}

/**
 * Renders a column's header or cell template. TanStack's `flexRender` makes the template function the element type,
 * so a page that rebuilds its columns (a clock ticking into a "3 minutes ago", new data) would get a new type each
 * time and React would remount every cell: an open row menu closed under the user's pointer. Here the element type
 * stays this component and the template is called inside it, so cells keep their state (and their hooks' order: a
 * cell's template is always its column's).
 */
function Template<P extends object>({ of, props }: { of: ColumnDefTemplate<P> | undefined; props: P }): ReactNode {
  return typeof of === 'function' ? (of(props) as ReactNode) : (of ?? null);
}

/** What a column is taken to need when it does not say (`meta.size`); the selection box and the menu need less. */
const DEFAULT_SIZE = 128;
const NARROW_SIZES: Record<string, number> = { select: 44, actions: 60 };

function sizeOf<T>(column: Column<T>): number {
  return column.columnDef.meta?.size ?? NARROW_SIZES[column.id] ?? DEFAULT_SIZE;
}

function labelOf<T>(column: Column<T>): string {
  const { meta, header } = column.columnDef;

  return meta?.label ?? (typeof header === 'string' ? header : column.id);
}

/** The hideable columns in the order they give way: the highest priority number first, the later column first on a tie. */
function hidingOrder<T>(columns: Column<T>[]): Column<T>[] {
  return columns
    .map((column, index) => ({ column, index }))
    .filter(({ column }) => column.columnDef.meta?.priority !== undefined)
    .sort((a, b) => b.column.columnDef.meta!.priority! - a.column.columnDef.meta!.priority! || b.index - a.index)
    .map(({ column }) => column);
}

/**
 * The one way a list's columns fit its width: TanStack's column visibility, driven by the width of the
 * table's box and the columns' `meta.priority` and `meta.size`. Columns hide while their sizes add up to
 * more than the box; if the rendered table still overflows (a size guessed too small), one more gives way
 * until it fits. Nothing is measured on the server: the first paint shows every column.
 */
function useColumnsThatFit<T>(table: Table<T>) {
  const box = useRef<HTMLDivElement>(null);
  // The box's width, and how many columns hide beyond the sizes' count because the table still overflowed at it.
  const [fit, setFit] = useState<{ width: number; extra: number } | null>(null);
  const columns = table.getAllLeafColumns();
  const order = hidingOrder(columns);

  useLayoutEffect(() => {
    const element = box.current;
    if (!element) return;
    const observer = new ResizeObserver(() => {
      const width = element.clientWidth;
      setFit((previous) => (previous?.width === width ? previous : { width, extra: 0 }));
    });
    observer.observe(element);

    return () => observer.disconnect();
  }, []);

  let hideCount = 0;
  if (fit) {
    let total = columns.reduce((sum, column) => sum + sizeOf(column), 0);
    while (total > fit.width && hideCount < order.length) total -= sizeOf(order[hideCount++]!);
    hideCount = Math.min(order.length, hideCount + fit.extra);
  }
  const wantedKey = order
    .slice(0, hideCount)
    .map((column) => column.id)
    .sort()
    .join(',');
  const renderedKey = order
    .filter((column) => !column.getIsVisible())
    .map((column) => column.id)
    .sort()
    .join(',');

  useLayoutEffect(() => {
    if (wantedKey === renderedKey) return;
    const hidden = new Set(wantedKey ? wantedKey.split(',') : []);
    const next: VisibilityState = {};
    for (const column of table.getAllLeafColumns())
      if (column.columnDef.meta?.priority !== undefined) next[column.id] = !hidden.has(column.id);
    table.setColumnVisibility((old) => ({ ...old, ...next }));
  }, [wantedKey, renderedKey, table]);

  // Only once the wanted columns are on screen: does the table, with the rows it shows now, still overflow its box?
  const rows = table.getRowModel().rows;
  const canHideMore = hideCount < order.length;
  useLayoutEffect(() => {
    const element = box.current;
    if (!element || !fit || wantedKey !== renderedKey || !canHideMore) return;
    if (element.scrollWidth > element.clientWidth + 1) setFit((previous) => previous && { ...previous, extra: previous.extra + 1 });
  }, [fit, wantedKey, renderedKey, canHideMore, rows]);

  return box;
}

/** The values of a row's hidden columns, listed under its name so that nothing a narrow table drops is lost. */
function HiddenValues({ items }: { items: { id: string; label: string; value: ReactNode }[] }) {
  if (items.length === 0) return null;

  return (
    <dl className="mt-1 flex flex-wrap gap-x-4 gap-y-0.5 text-xs text-zinc-500" data-testid="hidden-columns">
      {items.map((item) => (
        <div key={item.id} className="flex min-w-0 items-baseline gap-1">
          <dt className="shrink-0 font-medium">{item.label}:</dt>
          <dd className="min-w-0">{item.value}</dd>
        </div>
      ))}
    </dl>
  );
}

function SortIcon({ direction }: { direction: false | 'asc' | 'desc' }) {
  if (direction === 'asc') return <ArrowUpIcon className="size-3.5 text-zinc-700" />;
  if (direction === 'desc') return <ArrowDownIcon className="size-3.5 text-zinc-700" />;

  return <ChevronUpDownIcon className="size-3.5 text-zinc-300 group-hover:text-zinc-500" />;
}

/**
 * The table markup shared by the list pages: sortable headers, skeleton rows, dimmed placeholder data, and
 * columns that give way by priority when the table is narrow (`meta.priority`, `meta.size`).
 */
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
  const t = useTranslations('ui.sort');
  const box = useColumnsThatFit(table);
  const columns = table.getVisibleLeafColumns();
  const hidden = table.getAllLeafColumns().filter((column) => !column.getIsVisible() && column.columnDef.meta?.priority !== undefined);
  // The hidden columns' values go under the name (or the first column that never hides).
  const primaryId = useMemo(() => {
    const keep = columns.filter((column) => column.columnDef.meta?.priority === undefined && !(column.id in NARROW_SIZES));

    return (keep.find((column) => column.id === 'name') ?? keep[0])?.id;
  }, [columns]);

  return (
    <div ref={box} className="overflow-x-auto" data-hidden-columns={hidden.map((column) => column.id).join(' ') || undefined}>
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
                    className={cn(
                      'px-4 py-2.5 text-xs font-medium tracking-wide whitespace-nowrap text-zinc-500 uppercase',
                      header.column.columnDef.meta?.className,
                    )}
                  >
                    {canSort ? (
                      <button
                        type="button"
                        onClick={header.column.getToggleSortingHandler()}
                        className="group -mx-1 inline-flex cursor-pointer items-center gap-1 rounded px-1 py-0.5 uppercase hover:text-zinc-900"
                      >
                        <Template of={header.column.columnDef.header} props={header.getContext()} />
                        <SortIcon direction={direction} />
                        <span className="sr-only">{direction ? t(direction === 'asc' ? 'ascending' : 'descending') : t('unsorted')}</span>
                      </button>
                    ) : (
                      <Template of={header.column.columnDef.header} props={header.getContext()} />
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
                    <td
                      key={cell.id}
                      className={cn(
                        'px-4 py-3',
                        cell.column.columnDef.meta?.className,
                        // Narrow: the name takes the width the others leave and wraps, so a long one cannot push the row menu out.
                        cell.column.id === primaryId &&
                          hidden.length > 0 &&
                          'w-full max-w-0 overflow-hidden [overflow-wrap:anywhere] [&_*]:whitespace-normal',
                      )}
                    >
                      <Template of={cell.column.columnDef.cell} props={cell.getContext()} />
                      {cell.column.id === primaryId && hidden.length > 0 ? (
                        <HiddenValues
                          items={row
                            .getAllCells()
                            .filter((c) => !c.column.getIsVisible() && c.column.columnDef.meta?.priority !== undefined)
                            .map((c) => ({
                              id: c.column.id,
                              label: labelOf(c.column),
                              value: <Template of={c.column.columnDef.cell} props={c.getContext()} />,
                            }))}
                        />
                      ) : null}
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
export function EmptyState({
  icon,
  title,
  children,
  testId,
}: {
  icon: React.ReactNode;
  title: string;
  children?: React.ReactNode;
  testId?: string;
}) {
  return (
    <div className="flex flex-col items-center px-6 py-14 text-center" data-testid={testId}>
      <span className="flex size-11 items-center justify-center rounded-full bg-zinc-100">{icon}</span>
      <p className="mt-4 text-sm font-medium text-zinc-900">{title}</p>
      {children}
    </div>
  );
}
