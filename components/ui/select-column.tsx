'use client';

import type { ColumnDef } from '@tanstack/react-table';

export type RowSelection = {
  selected: ReadonlySet<string>;
  /** The ids of the page shown, in order (the header box selects them all). */
  pageIds: readonly string[];
  onToggle: (id: string, options: { range: boolean }) => void;
  onToggleAll: (ids: readonly string[], select: boolean) => void;
};

/** The checkbox column of a table whose rows are selected for bulk actions (shift-click: a range). */
export function selectColumn<T extends { id: string; name?: string }>(selection: RowSelection, noun: string): ColumnDef<T> {
  const { selected, pageIds, onToggle, onToggleAll } = selection;
  const allSelected = pageIds.length > 0 && pageIds.every((id) => selected.has(id));

  return {
    id: 'select',
    enableSorting: false,
    header: () => (
      <input
        type="checkbox"
        aria-label={`Select all ${noun} on this page`}
        className="size-4 cursor-pointer accent-brand-600"
        checked={allSelected}
        onChange={(e) => onToggleAll(pageIds, e.target.checked)}
      />
    ),
    cell: ({ row }) => (
      <input
        type="checkbox"
        aria-label={`Select ${row.original.name}`}
        className="size-4 cursor-pointer accent-brand-600"
        checked={selected.has(row.original.id)}
        onChange={(e) => onToggle(row.original.id, { range: (e.nativeEvent as MouseEvent).shiftKey === true })}
      />
    ),
  };
}
