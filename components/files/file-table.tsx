'use client';

import type { ColumnDef } from '@tanstack/react-table';
import { useMemo } from 'react';
import { setDragItems } from '@/components/files/drag';
import { dimensions, kindLabel, Thumbnail, ValidityBadge } from '@/components/files/file-visuals';
import { SORTABLE } from '@/components/files/use-media-params';
import { Badge } from '@/components/ui/badge';
import { DataTable } from '@/components/ui/data-table';
import { formatBytes, type MediaFile } from '@/lib/api/files';
import type { Page } from '@/lib/api/types';
import { formatDate } from '@/lib/format';
import { useServerTable } from '@/lib/hooks/use-server-table';
import type { SortState } from '@/lib/hooks/use-list-params';

type Props = {
  page: Page<MediaFile> | undefined;
  sort: SortState;
  onSortChange: (sort: SortState) => void;
  selected: ReadonlySet<string>;
  onToggle: (id: string, options: { range: boolean }) => void;
  onToggleAll: (ids: string[], select: boolean) => void;
  onOpenFile: (id: string) => void;
  isFirstLoad: boolean;
  isFetching: boolean;
  isPlaceholderData: boolean;
};

export function FileTable({ page, sort, onSortChange, selected, onToggle, onToggleAll, onOpenFile, isFirstLoad, isFetching, isPlaceholderData }: Props) {
  const ids = useMemo(() => (page?.content ?? []).map((f) => f.id), [page]);
  const allSelected = ids.length > 0 && ids.every((id) => selected.has(id));
  const columns = useMemo<ColumnDef<MediaFile>[]>(
    () => [
      {
        id: 'select',
        enableSorting: false,
        header: () => (
          <input
            type="checkbox"
            aria-label="Select all files on this page"
            className="size-4 cursor-pointer accent-brand-600"
            checked={allSelected}
            onChange={(e) => onToggleAll(ids, e.target.checked)}
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
      },
      {
        id: 'name',
        accessorKey: 'name',
        header: 'Name',
        cell: ({ row }) => {
          const file = row.original;
          const dragIds = selected.has(file.id) ? [...selected] : [file.id];

          return (
            <div
              draggable
              onDragStart={(e) => setDragItems(e, { fileIds: dragIds, folderIds: [] }, file.name ?? 'file')}
              className="flex min-w-0 items-center gap-3"
            >
              <Thumbnail file={file} className="size-10 shrink-0 rounded" iconClassName="size-5" />
              <button type="button" onClick={() => onOpenFile(file.id)} className="cursor-pointer truncate text-left font-medium text-zinc-900 hover:text-brand-700 hover:underline">
                {file.name}
              </button>
            </div>
          );
        },
      },
      { id: 'contentType', accessorKey: 'contentType', header: 'Type', cell: ({ row }) => <span className="text-zinc-600">{kindLabel(row.original)}</span> },
      { id: 'size', accessorKey: 'size', header: 'Size', cell: ({ row }) => <span className="whitespace-nowrap text-zinc-600 tabular-nums">{formatBytes(row.original.size)}</span> },
      { id: 'dimensions', enableSorting: false, header: 'Pixels', cell: ({ row }) => <span className="text-zinc-600 tabular-nums">{dimensions(row.original) ?? '—'}</span> },
      {
        id: 'tags',
        enableSorting: false,
        header: 'Tags',
        cell: ({ row }) => (
          <div className="flex max-w-64 flex-wrap gap-1">
            {(row.original.tags ?? []).slice(0, 4).map((t) => (
              <Badge key={t}>{t}</Badge>
            ))}
            {(row.original.tags?.length ?? 0) > 4 ? <Badge>+{(row.original.tags?.length ?? 0) - 4}</Badge> : null}
          </div>
        ),
      },
      { id: 'validTo', accessorKey: 'validTo', header: 'Validity', cell: ({ row }) => <ValidityBadge file={row.original} /> },
      { id: 'createDate', accessorKey: 'createDate', header: 'Uploaded', cell: ({ row }) => <span className="whitespace-nowrap text-zinc-600">{formatDate(row.original.createDate)}</span> },
    ],
    [allSelected, ids, selected, onToggle, onToggleAll, onOpenFile],
  );
  const { table } = useServerTable({ page, columns, getRowId: (f) => f.id, sort, onSortChange });

  return (
    <DataTable
      table={table}
      sortable={SORTABLE}
      isFirstLoad={isFirstLoad}
      isFetching={isFetching}
      isPlaceholderData={isPlaceholderData}
      describedBy="files-summary"
    />
  );
}
