'use client';

import type { ColumnDef } from '@tanstack/react-table';
import { useTranslations } from 'next-intl';
import { useMemo } from 'react';
import { setDragItems } from '@/components/files/drag';
import { dimensions, Thumbnail } from '@/components/files/file-visuals';
import { ValidityBadge } from '@/components/ui/validity';
import { SORTABLE } from '@/components/files/use-media-params';
import { Badge } from '@/components/ui/badge';
import { DataTable } from '@/components/ui/data-table';
import { selectColumn } from '@/components/ui/select-column';
import { kindOf, type MediaFile } from '@/lib/api/files';
import type { Page } from '@/lib/api/types';
import { useLabel } from '@/lib/i18n/labels';
import { useFormat } from '@/lib/i18n/use-format';
import { useServerTable } from '@/lib/hooks/use-server-table';
import type { SortState } from '@/lib/hooks/use-list-params';

type Props = {
  page: Page<MediaFile> | undefined;
  sort: SortState;
  onSortChange: (sort: SortState) => void;
  selected: ReadonlySet<string>;
  onToggle: (id: string, options: { range: boolean }) => void;
  onToggleAll: (ids: readonly string[], select: boolean) => void;
  onOpenFile: (id: string) => void;
  isFirstLoad: boolean;
  isFetching: boolean;
  isPlaceholderData: boolean;
};

/**
 * Fits 1440 px beside the media sidebar (and the details panel, or 1024 px): the name takes the rest of
 * the width and is cut with an ellipsis, tags go under it on one line, pixels under the type.
 */
export function FileTable({
  page,
  sort,
  onSortChange,
  selected,
  onToggle,
  onToggleAll,
  onOpenFile,
  isFirstLoad,
  isFetching,
  isPlaceholderData,
}: Props) {
  const ids = useMemo(() => (page?.content ?? []).map((f) => f.id), [page]);
  const t = useTranslations('media');
  const label = useLabel();
  const format = useFormat();
  const columns = useMemo<ColumnDef<MediaFile>[]>(
    () => [
      selectColumn<MediaFile>({ selected, pageIds: ids, onToggle, onToggleAll }, t('nouns.file.other')),
      {
        id: 'name',
        accessorKey: 'name',
        header: t('table.name'),
        meta: { size: 240, className: 'w-full max-w-0' },
        cell: ({ row }) => {
          const file = row.original;
          const dragIds = selected.has(file.id) ? [...selected] : [file.id];
          const tags = file.tags ?? [];

          return (
            <div
              draggable
              onDragStart={(e) => setDragItems(e, { fileIds: dragIds, folderIds: [] }, file.name ?? t('nouns.file.one'))}
              className="flex min-w-0 items-center gap-3"
            >
              <Thumbnail file={file} className="size-10 shrink-0 rounded" iconClassName="size-5" />
              <div className="min-w-0">
                <button
                  type="button"
                  onClick={() => onOpenFile(file.id)}
                  title={file.name}
                  className="block max-w-full cursor-pointer truncate text-left font-medium text-zinc-900 hover:text-brand-700 hover:underline"
                >
                  {file.name}
                </button>
                {tags.length ? (
                  <div className="mt-1 flex gap-1 overflow-hidden" title={tags.join(', ')}>
                    {tags.slice(0, 3).map((t) => (
                      <Badge key={t} className="min-w-0 truncate">
                        {t}
                      </Badge>
                    ))}
                    {tags.length > 3 ? <Badge className="shrink-0">+{tags.length - 3}</Badge> : null}
                  </div>
                ) : null}
              </div>
            </div>
          );
        },
      },
      {
        id: 'contentType',
        accessorKey: 'contentType',
        header: t('table.type'),
        meta: { priority: 2, size: 120, className: 'whitespace-nowrap' },
        cell: ({ row }) => (
          <div className="text-zinc-600">
            {label('fileKind', kindOf(row.original.contentType, row.original.name))}
            {dimensions(row.original) ? <span className="block text-xs text-zinc-400 tabular-nums">{dimensions(row.original)}</span> : null}
          </div>
        ),
      },
      {
        id: 'size',
        accessorKey: 'size',
        header: t('table.size'),
        meta: { priority: 4, size: 100, className: 'whitespace-nowrap' },
        cell: ({ row }) => <span className="text-zinc-600 tabular-nums">{format.bytes(row.original.size)}</span>,
      },
      {
        id: 'validTo',
        accessorKey: 'validTo',
        header: t('table.validity'),
        meta: { priority: 1, size: 130, className: 'whitespace-nowrap' },
        cell: ({ row }) => <ValidityBadge file={row.original} />,
      },
      {
        id: 'createDate',
        accessorKey: 'createDate',
        header: t('table.uploaded'),
        meta: { priority: 3, size: 130, className: 'whitespace-nowrap' },
        cell: ({ row }) => <span className="text-zinc-600">{format.date(row.original.createDate)}</span>,
      },
    ],
    [ids, selected, onToggle, onToggleAll, onOpenFile, t, label, format],
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
