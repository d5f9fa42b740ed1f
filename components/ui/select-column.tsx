'use client';

import type { ColumnDef } from '@tanstack/react-table';
import { useTranslations } from 'next-intl';

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
      <SelectBox
        label={{ key: 'selectAllOf', values: { things: noun } }}
        checked={allSelected}
        onChange={(e) => onToggleAll(pageIds, e.target.checked)}
      />
    ),
    cell: ({ row }) => (
      <SelectBox
        label={{ key: 'select', values: { name: row.original.name ?? '' } }}
        checked={selected.has(row.original.id)}
        onChange={(e) => onToggle(row.original.id, { range: (e.nativeEvent as MouseEvent).shiftKey === true })}
      />
    ),
  };
}

/** A row's (or the page's) checkbox, named in the console's language. */
function SelectBox({
  label,
  checked,
  onChange,
}: {
  label: { key: 'selectAllOf'; values: { things: string } } | { key: 'select'; values: { name: string } };
  checked: boolean;
  onChange: (e: React.ChangeEvent<HTMLInputElement>) => void;
}) {
  const t = useTranslations('ui');

  return (
    <input
      type="checkbox"
      aria-label={label.key === 'select' ? t('select', label.values) : t('selectAllOf', label.values)}
      className="size-4 cursor-pointer accent-brand-600"
      checked={checked}
      onChange={onChange}
    />
  );
}
